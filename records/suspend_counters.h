// Program/erase suspend (timing.suspend; flash/suspend.h), declared once:
// how often host reads suspended a program, an erase. The flash timeline
// counts them (flash::TimelineStats::suspend, saved in its checkpoint
// section TIME), and the device counters report them as summary.json's
// *_suspensions keys through the field list below.
#pragma once

#include <cstdint>

#include "records/field_list.h"

namespace ssdlab::records {

struct SuspendCounters {
  std::uint64_t program_suspensions = 0;
  std::uint64_t erase_suspensions = 0;
  bool operator==(const SuspendCounters&) const = default;
};

template <typename V, RecordOf<SuspendCounters> R>
void fields(V& v, R& s) {
  v("program_suspensions", s.program_suspensions);
  v("erase_suspensions", s.erase_suspensions);
}

}  // namespace ssdlab::records
