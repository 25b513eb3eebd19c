#include "sim/write_buffer.h"

#include <algorithm>

namespace ssdlab::sim {

bool WriteBuffer::put(ftl::Lpn lpn) {
  ++stats_.write_pages;
  if (auto it = where_.find(lpn); it != where_.end()) {
    // Coalesced: the page becomes the newest again, so that hot pages stay.
    order_.splice(order_.end(), order_, it->second);
    ++stats_.coalesced_pages;
    return false;
  }
  where_.emplace(lpn, order_.insert(order_.end(), lpn));
  return true;
}

void WriteBuffer::drop(ftl::Lpn lpn) {
  if (auto it = where_.find(lpn); it != where_.end()) {
    order_.erase(it->second);
    where_.erase(it);
  }
}

void WriteBuffer::take_oldest(std::uint64_t count, std::vector<ftl::Lpn>& out) {
  for (; count > 0 && !order_.empty(); --count) {
    out.push_back(order_.front());
    where_.erase(order_.front());
    order_.pop_front();
  }
}

void WriteBuffer::clear() {
  order_.clear();
  where_.clear();
  in_flight_.clear();
  in_flight_pages_ = 0;
}

void WriteBuffer::flushing(TimeNs done, std::uint64_t pages) {
  if (pages == 0) return;
  in_flight_.emplace(done, pages);
  in_flight_pages_ += pages;
}

void WriteBuffer::release(TimeNs now) {
  while (!in_flight_.empty() && in_flight_.begin()->first <= now) {
    in_flight_pages_ -= in_flight_.begin()->second;
    in_flight_.erase(in_flight_.begin());
  }
}

TimeNs WriteBuffer::room_for(std::uint64_t pages, TimeNs now) {
  release(now);
  TimeNs at = now;
  while (occupied() + pages > capacity_ && !in_flight_.empty()) {
    at = std::max(at, in_flight_.begin()->first);
    in_flight_pages_ -= in_flight_.begin()->second;
    in_flight_.erase(in_flight_.begin());
  }
  return at;
}

}  // namespace ssdlab::sim
