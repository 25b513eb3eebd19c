// A source's next items, made a few ahead of their use, so that the source
// can show what comes (IoSource::peek) while giving them out in order.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace ssdlab::sim {

template <class Item, std::size_t Ahead>
class ReadAhead {
 public:
  // The next item; `make()` makes the one after the last made, or nullopt
  // once there is none (it is not called again then).
  template <class Make>
  std::optional<Item> next(Make&& make) {
    while (!ended_ && made_ <= taken_ + Ahead) {
      std::optional<Item> item = make();
      if (!item) {
        ended_ = true;
        break;
      }
      ring_[made_++ % kRing] = std::move(*item);
    }
    if (taken_ == made_) return std::nullopt;
    return ring_[taken_++ % kRing];
  }
  // The item `ahead` places after the one next() gave last, if made.
  const Item* peek(std::size_t ahead) const {
    return taken_ + ahead < made_ ? &ring_[(taken_ + ahead) % kRing] : nullptr;
  }

 private:
  static constexpr std::size_t kRing = Ahead + 1;
  std::array<Item, kRing> ring_{};
  std::uint64_t made_ = 0, taken_ = 0;
  bool ended_ = false;
};

}  // namespace ssdlab::sim
