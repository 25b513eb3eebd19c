// Program/erase suspend (timing.suspend): the parameters.
//
// Wu and He, "Reducing SSD Read Latency via NAND Flash Program and Erase
// Suspension" (FAST 2012): a host read for a die busy with a program or an
// erase suspends it, is served, and the operation resumes; reads stop waiting
// behind 1-5 ms erases and long multi-bit programs. The model: the read's
// array phase starts `suspend_ns` after its command reaches the die, and the
// suspended operation ends later by suspend + read array time + resume
// (FlashTimeline::suspend_for_read, FlashScheduler: the design).
#pragma once

#include <cstdint>

#include "common/units.h"

namespace ssdlab::flash {

struct SuspendTiming {
  bool enabled = false;  // timing.suspend
  // timing.suspend_us: from the suspend command to a free array. Microchip's
  // SST26 serial flash datasheets give TSUS = 22 us between a Write Suspend
  // and the next command, for a program or an erase alike
  // (onlinedocs.microchip.com, SST26WF080B/SST26VF family, "Write Suspend
  // During Page Programming" and "... During Sector Erase or Block Erase");
  // parallel NOR parts give 5 us typical, 15 us at most for a program suspend.
  TimeNs suspend_ns = 22'000;
  // timing.resume_us: from the resume command to the operation running again
  // (the high voltages ramp up again). No datasheet we found gives it; taken
  // equal to the suspend latency, the same ramp the suspend discharged.
  TimeNs resume_ns = 22'000;
  // timing.suspend_limit: the most suspensions of one program or erase;
  // beyond it reads wait as without suspend. Parts bound the count (Intel's
  // "maximum allowed number of suspends of the program operation", US patent
  // application on tiered program suspends) without a public number: 4 is
  // our choice, so that an operation ends at most 4 x (22 + read + 22) us late.
  std::uint32_t limit = 4;
};

}  // namespace ssdlab::flash
