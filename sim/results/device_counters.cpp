#include "sim/results/device_counters.h"

#include <stdexcept>
#include <vector>

#include "sim/results/device_counter_fields.h"

namespace ssdlab::sim {
namespace {

// The counters of a DeviceCounters in the order of its field list
// (device_counter_fields.h), as pointers; derived values are not counters.
class CollectCounters {
 public:
  template <typename T>
  void operator()(const char*, const T& value) {
    values.push_back(&value);
  }
  void time_us(const char* key, const TimeNs& ns) { (*this)(key, ns); }
  template <typename T>
  void derived(const char*, const T&) {}
  template <typename T>
  void group(const char*, const std::optional<T>& record) {
    if (record) fields(*this, *record);
  }

  std::vector<const void*> values;
};

// Combines each counter of the field list with the collected one of
// another device: op(a's, b's), into a; per-pool counts element by element.
template <typename Op>
class CombineCounters {
 public:
  CombineCounters(const std::vector<const void*>& values, Op op) : values_(values), op_(op) {}

  template <typename T>
  void operator()(const char*, T& value) {
    const T& other = *static_cast<const T*>(values_.at(next_++));
    if constexpr (std::is_same_v<T, std::vector<std::uint64_t>>) {
      if (value.size() != other.size())
        throw std::logic_error("per-pool counters of different devices");
      for (std::size_t i = 0; i < value.size(); ++i) value[i] = op_(value[i], other[i]);
    } else if constexpr (std::is_same_v<T, std::map<std::string, std::uint64_t>>) {
      for (const auto& [key, count] : other) value[key] = op_(value[key], count);
    } else {
      value = op_(value, other);
    }
  }
  void time_us(const char* key, TimeNs& ns) { (*this)(key, ns); }
  template <typename T>
  void derived(const char*, const T&) {}
  template <typename T>
  void group(const char*, std::optional<T>& record) {
    if (record) fields(*this, *record);
  }

 private:
  const std::vector<const void*>& values_;
  Op op_;
  std::size_t next_ = 0;
};

template <typename Op>
void combine(DeviceCounters& a, const DeviceCounters& b, Op op) {
  if (a.buffer.has_value() != b.buffer.has_value())
    throw std::logic_error("write-buffer counters of different devices");
  if (a.cell.has_value() != b.cell.has_value())
    throw std::logic_error("cell counters of different devices");
  if (a.suspend.has_value() != b.suspend.has_value())
    throw std::logic_error("suspend counters of different devices");
  CollectCounters collect;
  fields(collect, b);
  CombineCounters<Op> apply(collect.values, op);
  fields(apply, a);
}

double us(TimeNs ns) { return static_cast<double>(ns) / 1000.0; }

double mean_us(TimeNs ns, std::uint64_t samples) {
  return samples == 0 ? 0.0 : us(ns) / static_cast<double>(samples);
}

}  // namespace

DeviceCounters::AccessTime DeviceCounters::access_time() const {
  const std::uint64_t cleanings = ftl.blocks_cleaned + ftl.wear_migrations;
  const TimeNs writes_ns = host_write_flash_ns + cleaning_flash_ns;
  const std::uint64_t write_samples = host_write_accesses + cleanings;
  AccessTime a;
  a.samples = host_read_accesses + write_samples;
  a.read_us = mean_us(host_read_flash_ns, host_read_accesses);
  a.write_us = mean_us(writes_ns, write_samples);
  a.mean_us = mean_us(host_read_flash_ns + writes_ns, a.samples);
  return a;
}

DeviceCounters operator-(const DeviceCounters& after, const DeviceCounters& before) {
  DeviceCounters delta = after;
  combine(delta, before, [](auto a, auto b) { return a - b; });
  return delta;
}

DeviceCounters& operator+=(DeviceCounters& sum, const DeviceCounters& more) {
  combine(sum, more, [](auto a, auto b) { return a + b; });
  return sum;
}

}  // namespace ssdlab::sim
