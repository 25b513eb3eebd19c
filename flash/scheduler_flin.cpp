// The FLIN dispatch order (controller.dispatch_order = "flin"): the
// scheduler's side of FLIN's three stages. Stages 1 and 2 order each unit's
// reads and writes (flash/flin.h, FlinQueues); stage 3 here picks what the
// unit takes.
//
// Garbage collection (FLIN's fourth source of interference, §4): a job's
// cleaning commands (moves, copy-backs, erases) are write transactions of
// the flow whose write triggered them (FlashScheduler::submit's `flow`), in
// that flow's place in the unit's write queue: stage 1 weighs them in that
// flow's slowdown and intensity part, so that a heavy writer's cleaning
// waits behind a light flow's writes and not the other way round.
//
// Stage 3, wait-balancing transaction selection (Tavakkol et al., ISCA 2018,
// §5.3): of the unit's read slot and write slot (the heads stage 2 picks),
// the unit takes the one with the greater proportional wait: the time it has
// waited in its slot (FlinQueues::slot_wait) over its service time (its
// unloaded time: FlashTimeline::unloaded_ns; a cleaning command's is its
// move's read and program, or its erase). A read, short, soon has waited
// long for its size and goes ahead of a write; a write that has held its
// slot long for its size goes ahead of reads that just came, so neither
// starves. Equal: the read. The wait counts from the slot, not from the
// command's arrival: a heavy writer's backlog has waited long in its queue
// because of itself, and would otherwise always outweigh a read.
#include <algorithm>

#include "flash/scheduler.h"

namespace ssdlab::flash {

void FlashScheduler::flin_queued(std::uint32_t unit, std::uint32_t work, std::uint32_t node,
                                 const Entry& entry, const Command& command, TimeNs t) {
  // (Cleaning joins the write queue: see the top of this file.)
  const std::uint32_t queue = work == static_cast<std::uint32_t>(WorkClass::kHostRead) ? 0 : 1;
  const TimeNs free_at = timeline_.unit_free_at(unit);
  const FlinQueues::Busy busy{free_at, free_at > t ? unit_flow_[unit] : FlinQueues::kNoFlow};
  flin_.insert(unit, queue, node, jobs_[entry.job].flow, t, timeline_.unloaded_ns(command), busy);
}

FlashScheduler::Entry FlashScheduler::take_flin(std::uint32_t unit, TimeNs t) {
  const std::array<std::uint32_t, 2> slots = {flin_.slot(unit, 0), flin_.slot(unit, 1)};
  auto proportional_wait = [&](std::uint32_t work) {
    const TimeNs waited = flin_.slot_wait(unit, work, slots[work], t);
    return static_cast<double>(waited) / static_cast<double>(flin_.service(slots[work]));
  };
  std::uint32_t pick = slots[0] == CommandQueues::kNil ? 1 : 0;
  if (pick == 0 && slots[1] != CommandQueues::kNil && proportional_wait(1) > proportional_wait(0))
    pick = 1;
  const std::uint32_t node = slots[pick];
  flin_.take_slot(unit, pick, t);
  const Entry entry = queues_.entry(node);
  queues_.remove(node);
  return entry;
}

}  // namespace ssdlab::flash
