// Values of types the holder does not know, one per type: an FTL's own
// parsed keys (ftl::FtlKeys, ftl/ftl_keys.h) and a registered device part's
// (DeviceConfig::parts, sim/config/config_part.h). The code that reads the
// keys stores them; the code that uses them gets them back by type, so
// that the structs holding the config name no part's type.
#pragma once

#include <any>
#include <utility>
#include <vector>

namespace ssdlab {

class TypedValues {
 public:
  // Stores `value`, replacing the value of its type if one is held.
  template <typename T>
  T& emplace(T value = T{}) {
    if (T* held = find<T>(values_)) return *held = std::move(value);
    return *std::any_cast<T>(&values_.emplace_back(std::move(value)));
  }
  // The value of T to change in place, its defaults stored first when none
  // is held (a config built in code, as tests do).
  template <typename T>
  T& edit() {
    if (T* held = find<T>(values_)) return *held;
    return emplace<T>();
  }
  // The value as read; T's defaults when none was read.
  template <typename T>
  const T& get() const {
    static const T kDefaults{};
    const T* value = find<T>(values_);
    return value ? *value : kDefaults;
  }
  template <typename T>
  bool holds() const {
    return find<T>(values_) != nullptr;
  }

 private:
  // T's value in `values` (const or not), or null.
  template <typename T, typename Values>
  static auto find(Values& values) -> decltype(std::any_cast<T>(&values.front())) {
    for (auto& value : values)
      if (auto* held = std::any_cast<T>(&value)) return held;
    return nullptr;
  }

  std::vector<std::any> values_;
};

}  // namespace ssdlab
