// The fewest-queued dispatch order (controller.dispatch_order =
// "fewest-queued", formerly "fair"): a few of FLIN's ideas adapted to the
// scheduler's per-die queues. It is not FLIN: a unit takes the oldest
// command of the flow with the fewest commands queued in the device.
//
// Tavakkol et al., "FLIN: Enabling Fairness and Enhancing Performance in
// Modern NVMe Solid State Drives", ISCA 2018, §5: a scheduler between the
// host's submission queues and the flash chips in three stages. What is kept
// and how (docs/model.md, "Fewest-queued dispatch (not FLIN)"):
//  - Stage 1, fairness-aware queue insertion (§5.1). FLIN counts each flow's
//    requests to a chip over an epoch, calls the flows under a threshold
//    low-intensity and inserts their transactions ahead of the high-intensity
//    flows' in the chip's queue, so that a light flow does not wait for a
//    heavy one's backlog. Here a flow's intensity is the number of its
//    commands queued in the whole device now (host and cleaning commands),
//    with no epoch and no threshold, and a unit takes a command of its least
//    intensive flow. FLIN's reordering within the high-intensity part (to
//    balance the flows' estimated slowdowns) is left out.
//  - Stage 2, priority-aware queue arbitration (§5.2): NVMe priority classes.
//    ssdlab's host requests carry none: left out.
//  - Stage 3, wait-balancing transaction selection (§5.3), where FLIN also
//    places garbage collection. FLIN chooses between a read and a write by
//    their proportional waits; here, within a flow and between flows of equal
//    intensity, reads go first, then writes, then cleaning (the class order
//    read>write>cleaning). Cleaning belongs to the flow whose write
//    triggered it (FlashScheduler::submit's `flow`) and counts in that flow's
//    intensity: a heavy writer's cleaning waits behind a light flow's reads,
//    not the other way round.
// Age bound (no starvation): a unit's oldest queued command is passed over by
// at most kFewestQueuedBypassLimit commands the unit takes; then it goes next. A
// command with p commands older than it on its unit is taken within
// (p + 1) * (kFewestQueuedBypassLimit + 1) of the unit's dispatches.
// With one flow the order is read>write>cleaning with that bound: the same
// as read>write>cleaning while no command is passed over kFewestQueuedBypassLimit
// times.
//
// Cost: only this order keeps the counts below and a list per flow in each
// unit's queues (flash/command_queues.h); take_fewest_queued() looks at each flow's
// oldest command in each class, so its cost grows with the flows, not with
// the queue's length.
#include <algorithm>
#include <limits>

#include "flash/scheduler.h"

namespace ssdlab::flash {

void FlashScheduler::flow_queued(std::uint16_t flow) {
  if (flow >= flow_queued_.size()) flow_queued_.resize(std::size_t{flow} + 1, 0);
  ++flow_queued_[flow];
}

void FlashScheduler::flow_taken(std::uint16_t flow) {
  --flow_queued_[flow];
}

void FlashScheduler::flow_partner_taken(std::uint32_t unit, const Entry& partner) {
  flow_taken(jobs_[partner.job].flow);
  // Joined to the command taken: if it was the unit's oldest, the oldest was
  // served (so too when nothing is left: an idle unit's count is 0, and a
  // checkpoint, saved idle, has nothing of this order's to keep).
  for (std::uint32_t work = 0; work < kWorkClasses; ++work) {
    const std::uint32_t front = queues_.front(unit, work);
    if (front != CommandQueues::kNil && queues_.entry(front).seq < partner.seq) return;
  }
  bypassed_[unit] = 0;
}

FlashScheduler::Entry FlashScheduler::take_fewest_queued(std::uint32_t unit) {
  // The unit's oldest command: the oldest front (a queue keeps arrival order).
  std::uint32_t oldest = CommandQueues::kNil;
  for (std::uint32_t work = 0; work < kWorkClasses; ++work) {
    const std::uint32_t front = queues_.front(unit, work);
    if (front != CommandQueues::kNil &&
        (oldest == CommandQueues::kNil || queues_.entry(front).seq < queues_.entry(oldest).seq))
      oldest = front;
  }
  std::uint32_t pick = oldest;
  if (bypassed_[unit] < kFewestQueuedBypassLimit) {
    // The least (intensity, class, age): classes in order (read, write,
    // cleaning); in a class, the least intensity of a flow queued there, and
    // the oldest command of the flows that have it (each flow's list keeps
    // arrival order, so its front is its oldest). A class wins only with a
    // strictly lower intensity than the classes before it: the order of a
    // walk of each queue from its oldest entry, at a cost in the flows.
    std::uint32_t best = std::numeric_limits<std::uint32_t>::max();
    for (std::uint32_t work = 0; work < kWorkClasses; ++work) {
      std::uint32_t least = best, here = CommandQueues::kNil;
      for (std::size_t f = 0; f < queues_.flows_seen(unit, work); ++f) {
        const auto flow = static_cast<std::uint16_t>(f);
        if (queues_.flow_count(unit, work, flow) == 0) continue;
        const std::uint32_t intensity = flow_queued_[flow];
        const std::uint32_t front = queues_.flow_front(unit, work, flow);
        if (intensity < least || (intensity == least && here != CommandQueues::kNil &&
                                  queues_.entry(front).seq < queues_.entry(here).seq))
          least = intensity, here = front;
      }
      if (here != CommandQueues::kNil) best = least, pick = here;
    }
    bypassed_[unit] = pick != oldest ? bypassed_[unit] + 1 : 0;
  } else {
    bypassed_[unit] = 0;  // the oldest goes now
  }
  const Entry entry = queues_.entry(pick);
  const std::uint16_t flow = queues_.flow(pick);
  queues_.remove(pick);
  flow_taken(flow);
  return entry;
}

}  // namespace ssdlab::flash
