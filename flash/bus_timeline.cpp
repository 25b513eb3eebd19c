#include "flash/bus_timeline.h"

#include <algorithm>

#include "common/error.h"

namespace ssdlab::flash {

TimeNs BusTimeline::reserve(TimeNs ready, TimeNs duration) {
  TimeNs start = std::max(ready, floor_);
  if (duration <= 0) return start;
  // The reservations that end after `start` (most phases go after all of
  // them: look from the latest back).
  std::size_t i = ahead_.size();
  while (i > 0 && ahead_[i - 1].end > start) --i;
  // The first gap among them that holds the phase.
  for (; i < ahead_.size() && start + duration > ahead_[i].start; ++i)
    start = std::max(start, ahead_[i].end);
  const TimeNs end = start + duration;
  // Inserted before ahead_[i], merged with the neighbours it touches.
  const bool joins_before = i > 0 && ahead_[i - 1].end == start;
  const bool joins_after = i < ahead_.size() && ahead_[i].start == end;
  if (joins_before && joins_after) {
    ahead_[i - 1].end = ahead_[i].end;
    ahead_.erase(ahead_.begin() + static_cast<std::ptrdiff_t>(i));
  } else if (joins_before) {
    ahead_[i - 1].end = end;
  } else if (joins_after) {
    ahead_[i].start = start;
  } else {
    ahead_.insert(ahead_.begin() + static_cast<std::ptrdiff_t>(i), Interval{start, end});
    if (ahead_.size() > kKept) {
      floor_ = ahead_.front().end;
      ahead_.erase(ahead_.begin());
    }
  }
  return start;
}

void BusTimeline::save_state(StateWriter& out) const {
  out.i64(floor_);
  out.u64(ahead_.size());
  for (const Interval& interval : ahead_) {
    out.i64(interval.start);
    out.i64(interval.end);
  }
}

void BusTimeline::load_state(StateReader& in, std::string_view what) {
  floor_ = in.i64();
  ahead_.resize(in.count(kKept, what));
  TimeNs last = floor_;
  for (Interval& interval : ahead_) {
    interval.start = in.i64();
    interval.end = in.i64();
    if (interval.start < last || interval.end <= interval.start)
      throw make_error("{}: reservations out of order", what);
    last = interval.end;
  }
}

}  // namespace ssdlab::flash
