// A serial bus's reservations: a channel's data and command bus, or an
// asynchronous shared-control gang's control bus (flash/timeline.h).
//
// Phases take the bus one at a time. A phase goes into the earliest gap, no
// earlier than it is ready, that holds it: command cycles or a transfer
// reserved after others still run first where the bus would otherwise idle
// long enough (Agrawal et al. §2.2: while one die's array works, the bus
// serves another's transfer), rather than first come, first served behind
// every earlier reservation. Only the latest kKept separate reservations are
// remembered; the bus counts as busy up to the end of those it forgot.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "common/state_io.h"
#include "common/units.h"

namespace ssdlab::flash {

class BusTimeline {
 public:
  // Reserves `duration` from no earlier than `ready`; returns the start.
  TimeNs reserve(TimeNs ready, TimeNs duration);
  // The end of the latest reservation (every phase is over by then).
  TimeNs free_at() const { return ahead_.empty() ? floor_ : ahead_.back().end; }
  // Abandons every reservation: free from `t` on.
  void restart_at(TimeNs t) {
    floor_ = t;
    ahead_.clear();
  }

  void save_state(StateWriter& out) const;
  void load_state(StateReader& in, std::string_view what);

  static constexpr std::size_t kKept = 8;

 private:
  struct Interval {
    TimeNs start, end;
  };
  TimeNs floor_ = 0;             // busy until then (the reservations forgotten)
  std::vector<Interval> ahead_;  // in time order, disjoint and not touching, after floor_
};

}  // namespace ssdlab::flash
