#include "sim/controller/write_buffer.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"
#include "records/counter_state.h"

namespace ssdlab::sim {

bool WriteBuffer::put(ftl::Lpn lpn, std::uint8_t placement) {
  ++stats_.write_pages;
  if (placement != 0)
    placement_[lpn] = placement;
  else if (!placement_.empty())
    placement_.erase(lpn);
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
  if (!placement_.empty()) placement_.erase(lpn);
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

void WriteBuffer::take_range(ftl::Lpn first, ftl::Lpn end, std::vector<ftl::Lpn>& out) {
  const auto take = [&](ftl::Lpn lpn) {
    const auto it = where_.find(lpn);
    if (it == where_.end()) return;
    out.push_back(lpn);
    order_.erase(it->second);
    where_.erase(it);
  };
  // (Whichever is shorter: the range, or what the buffer holds.)
  if (end - first <= order_.size()) {
    for (ftl::Lpn lpn = first; lpn < end; ++lpn) take(lpn);
    return;
  }
  const std::size_t from = out.size();
  for (const ftl::Lpn lpn : order_)
    if (lpn >= first && lpn < end) out.push_back(lpn);
  for (std::size_t i = from; i < out.size(); ++i) {
    order_.erase(where_.at(out[i]));
    where_.erase(out[i]);
  }
}

void WriteBuffer::put_back_oldest(const std::vector<ftl::Lpn>& pages) {
  for (auto it = pages.rbegin(); it != pages.rend(); ++it)
    where_.emplace(*it, order_.insert(order_.begin(), *it));
}

void WriteBuffer::clear() {
  order_.clear();
  where_.clear();
  placement_.clear();
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

void WriteBuffer::save_state(StateWriter& out) const {
  out.section("WBUF", 1);
  out.u64(capacity_);
  out.u64(order_.size());
  for (const ftl::Lpn lpn : order_) out.u32(lpn);
  out.u64(in_flight_.size());
  for (const auto& [done, pages] : in_flight_) {
    out.i64(done);
    out.u64(pages);
  }
  records::save_counters(out, stats_);
  if (placement_.empty()) return;  // (a buffer without identifiers saves as before)
  std::vector<std::pair<ftl::Lpn, std::uint8_t>> placements(placement_.begin(), placement_.end());
  std::sort(placements.begin(), placements.end());  // (not hash order: deterministic)
  out.section("WBPL", 1);
  out.u64(placements.size());
  for (const auto& [lpn, placement] : placements) {
    out.u32(lpn);
    out.u8(placement);
  }
}

void WriteBuffer::load_state(StateReader& in) {
  in.section("WBUF", 1);
  if (const std::uint64_t capacity = in.u64(); capacity != capacity_)
    throw Error(fmt::format("the write buffer held {} pages when saved, the config gives {}",
                            capacity, capacity_));
  clear();
  const std::uint64_t held = in.count(capacity_, "buffered pages");
  for (std::uint64_t i = 0; i < held; ++i) {
    const ftl::Lpn lpn = in.u32();
    if (!put(lpn)) throw Error("the write buffer holds a page twice");
  }
  const std::uint64_t flushes = in.count(capacity_, "flushes in flight");
  for (std::uint64_t i = 0; i < flushes; ++i) {
    const TimeNs done = in.i64();
    const std::uint64_t pages = in.u64();
    flushing(done, pages);
  }
  if (occupied() > capacity_) throw Error("the write buffer holds more pages than it has room for");
  records::load_counters(in, stats_, "the write buffer's");
  if (!in.at_section("WBPL")) return;
  in.section("WBPL", 1);
  const std::uint64_t count = in.count(capacity_, "buffered placement identifiers");
  for (std::uint64_t i = 0; i < count; ++i) {
    const ftl::Lpn lpn = in.u32();
    const std::uint8_t placement = in.u8();
    if (placement == 0) throw Error("the write buffer holds placement identifier 0 explicitly");
    placement_[lpn] = placement;
  }
}

}  // namespace ssdlab::sim
