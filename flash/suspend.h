// Program/erase suspend (timing.suspend): the parameters.
//
// Wu and He, "Reducing SSD Read Latency via NAND Flash Program and Erase
// Suspension" (FAST 2012): a host read for a die busy with a program or an
// erase suspends it, is served, and the operation resumes; reads stop waiting
// behind 1-5 ms erases and long multi-bit programs. The model: the read's
// array phase starts the operation's suspend time after its command reaches
// the die, and the suspended operation ends later by suspend + read array
// time + resume (FlashTimeline::suspend_for_read, FlashScheduler: the
// design). One operation per die is suspended at a time, and a die serves
// the reads of one suspension before it resumes.
#pragma once

#include <cstdint>

#include "common/units.h"

namespace ssdlab::flash {

struct SuspendTiming {
  bool enabled = false;  // timing.suspend
  // timing.suspend_program_us and timing.suspend_erase_us: from the suspend
  // command to a free array. A NAND die suspends at the next point its
  // algorithm allows (the end of a program loop, of an erase pulse), so an
  // erase takes longer to suspend than a program. Program: 100 us, MQSim's
  // default (Tavakkol et al., FAST 2018; Flash_Parameter_Set.cpp,
  // Suspend_Program_Time = 100000 ns), the peer model the fidelity review
  // names; no NAND datasheet in reach gives a program suspend time. Erase:
  // 500 us, the one NAND datasheet figure in reach (Samsung OneNAND128,
  // KFG2816: "the device requires a maximum of 500us to suspend erase
  // operation"); MQSim uses 700 us. (Until issue 54 both were 22 us, a serial
  // NOR part's TSUS, Microchip SST26.) timing.suspend_us sets both.
  TimeNs program_suspend_ns = 100'000;
  TimeNs erase_suspend_ns = 500'000;
  // timing.resume_us: from the resume command to the operation running again.
  // No source gives one for NAND; MQSim charges the suspension only, and so
  // does the default: 0.
  TimeNs resume_ns = 0;
  // timing.suspend_limit: the most suspensions of one program or erase;
  // beyond it reads wait as without suspend. Parts bound the count (Intel's
  // "maximum allowed number of suspends of the program operation", US patent
  // application on tiered program suspends) without a public number: 4 is
  // our choice.
  std::uint32_t limit = 4;
  // timing.suspend_min_interval_us: from a resume to the next suspension of
  // the same operation, so that it makes progress between reads (serial
  // flash parts state it: SST26's TLRS, 1000 us). kFromSuspend, the default:
  // the operation's own suspend time, derived from what that time is, the
  // run to the next point where it may stop, so that a resumed operation
  // reaches at least one such point before it stops again. No NAND source
  // gives a figure.
  static constexpr TimeNs kFromSuspend = -1;
  TimeNs min_interval_ns = kFromSuspend;

  TimeNs suspend_ns(bool erase) const { return erase ? erase_suspend_ns : program_suspend_ns; }
  TimeNs interval_ns(bool erase) const {
    return min_interval_ns == kFromSuspend ? suspend_ns(erase) : min_interval_ns;
  }
};

}  // namespace ssdlab::flash
