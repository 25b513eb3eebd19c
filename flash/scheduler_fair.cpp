// The `fair` dispatch order (controller.dispatch_order = "fair"): FLIN's
// ideas adapted to the scheduler's per-die queues.
//
// Tavakkol et al., "FLIN: Enabling Fairness and Enhancing Performance in
// Modern NVMe Solid State Drives", ISCA 2018, §5: a scheduler between the
// host's submission queues and the flash chips in three stages. What is kept
// and how (docs/model.md, "Fair dispatch (after FLIN)"):
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
// at most kFairBypassLimit commands the unit takes; then it goes next. A
// command with p commands older than it on its unit is taken within
// (p + 1) * (kFairBypassLimit + 1) of the unit's dispatches.
// With one flow the order is read>write>cleaning with that bound: the same
// as read>write>cleaning while no command is passed over kFairBypassLimit
// times.
//
// Cost: only this order keeps the counts below; take_fair() walks a unit's
// queues from their oldest entry until it meets the least intensive flow
// queued there, so with a few flows it looks at a few entries.
#include <algorithm>
#include <limits>

#include "flash/scheduler.h"

namespace ssdlab::flash {

void FlashScheduler::fair_queued(std::uint32_t unit, std::size_t work, std::uint16_t flow) {
  if (flow >= flow_queued_.size()) flow_queued_.resize(std::size_t{flow} + 1, 0);
  std::vector<std::uint32_t>& here = unit_flow_queued_[unit * kWorkClasses + work];
  if (flow >= here.size()) here.resize(std::size_t{flow} + 1, 0);
  ++flow_queued_[flow];
  ++here[flow];
}

void FlashScheduler::fair_taken(std::uint32_t unit, std::size_t work, std::uint16_t flow) {
  --flow_queued_[flow];
  --unit_flow_queued_[unit * kWorkClasses + work][flow];
}

void FlashScheduler::fair_partner_taken(std::uint32_t unit, std::size_t work,
                                        const Entry& partner) {
  fair_taken(unit, work, jobs_[partner.job].flow);
  // Joined to the command taken: if it was the unit's oldest, the oldest was
  // served (so too when nothing is left: an idle unit's count is 0, and a
  // checkpoint, saved idle, has nothing of this order's to keep).
  for (const EntryQueue& queue : queues_[unit])
    if (!queue.empty() && queue.front().seq < partner.seq) return;
  bypassed_[unit] = 0;
}

FlashScheduler::Entry FlashScheduler::take_fair(std::uint32_t unit) {
  auto& queues = queues_[unit];
  // The unit's oldest command: the oldest front (a queue keeps arrival order).
  std::size_t oldest = kWorkClasses;
  for (std::size_t work = 0; work < kWorkClasses; ++work)
    if (!queues[work].empty() &&
        (oldest == kWorkClasses || queues[work].front().seq < queues[oldest].front().seq))
      oldest = work;
  std::size_t from = oldest;
  auto pick = queues[oldest].begin();
  if (bypassed_[unit] < kFairBypassLimit) {
    // The least (intensity, class, age): classes in order (read, write,
    // cleaning), each queue oldest first, so an entry wins only with a
    // strictly lower intensity than the best so far.
    std::uint32_t best = std::numeric_limits<std::uint32_t>::max();
    for (std::size_t work = 0; work < kWorkClasses; ++work) {
      // The least intensity of a flow queued here: nothing in this queue
      // beats it, so the walk stops at that flow's first entry.
      std::uint32_t floor = std::numeric_limits<std::uint32_t>::max();
      const std::vector<std::uint32_t>& here = unit_flow_queued_[unit * kWorkClasses + work];
      for (std::size_t flow = 0; flow < here.size(); ++flow)
        if (here[flow]) floor = std::min(floor, flow_queued_[flow]);
      for (auto it = queues[work].begin(); floor < best && it != queues[work].end(); ++it) {
        const std::uint32_t intensity = flow_queued_[jobs_[it->job].flow];
        if (intensity < best) best = intensity, from = work, pick = it;
      }
    }
    const bool passes_over = from != oldest || pick != queues[oldest].begin();
    bypassed_[unit] = passes_over ? bypassed_[unit] + 1 : 0;
  } else {
    bypassed_[unit] = 0;  // the oldest goes now
  }
  const Entry entry = *pick;
  if (pick == queues[from].begin())
    queues[from].pop_front();
  else
    queues[from].erase(pick);
  fair_taken(unit, from, jobs_[entry.job].flow);
  return entry;
}

}  // namespace ssdlab::flash
