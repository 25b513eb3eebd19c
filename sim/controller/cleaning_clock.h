// Simulated time during which cleaning was in progress (summary.json's
// cleaning time), kept by the controller's core and added to by its parts:
// the flash scheduler's reports, the power-safe scheduling of power-cut
// runs, a write buffer's flushes and background cleaning rounds.
#pragma once

#include <cstdint>

#include "common/units.h"

namespace ssdlab::sim {

// What started a cleaning batch: host writes and buffer flushes, or idle pools.
enum class CleaningStart : std::uint8_t { kForeground, kBackground };

struct CleaningClock {
  TimeNs total_ns = 0;       // summed over cleaning batches
  TimeNs background_ns = 0;  // the part of total_ns started by idle pools
  TimeNs last_end = 0;       // when the last batch reported ended

  void count(TimeNs start, TimeNs end, CleaningStart what) {
    total_ns += end - start;
    if (what == CleaningStart::kBackground) background_ns += end - start;
  }
  TimeNs foreground_ns() const { return total_ns - background_ns; }
};

}  // namespace ssdlab::sim
