// Background cleaning that yields to the host (controller.
// background_cleaning_preempt; Agrawal et al. §3.3, "Background cleaning":
// cleaning "performed continuously in the background on otherwise idle
// components").
//
// A round (one victim's moves and erase) is taken from the FTL when its pool
// is idle, so the maps change at once, as with non-preemptible cleaning. Its
// commands are then reserved on the timelines lazily: each time a host request
// arrives, only those that would have started before it are reserved; the
// request goes next, and the rest of the round resumes when the dies are free
// again. A host request therefore waits for at most the one cleaning command
// in progress on its die (a page move, or an erase).
//
// Approximation: a host read of a page the round moved but has not yet
// reserved reads the destination page before its copy is scheduled; on a
// device it would read the still-valid source page, which costs the same for a
// copy-back (same plane, same die). A host program or erase on a block the
// round still works on waits for the rest of the round (finish_conflicting_
// rounds), so no page is programmed before its block is erased.
#include <algorithm>
#include <limits>

#include "sim/controller/ssd.h"

namespace ssdlab::sim {

// Stage order, list order within a stage. Power-cut runs hand the list to the
// recorder first, in the FTL's order (the order its maps and the NAND array
// changed in), and keep each command's id for when it is reserved; until
// then a cut undoes it like any command in flight.
void Ssd::sort_round(PendingRound& round) {
  const auto by_stage = [](const flash::Command& a, const flash::Command& b) {
    return a.stage < b.stage;
  };
  if (!power_) {
    std::stable_sort(round.commands.begin(), round.commands.end(), by_stage);
    return;
  }
  const std::uint64_t first =
      power_->apply(nullptr, round.commands, ftl_->flash_for_power_cut()->take_erased_images());
  std::vector<std::uint32_t> order(round.commands.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return by_stage(round.commands[a], round.commands[b]);
  });
  flash::CommandList sorted;
  sorted.reserve(order.size());
  round.ids.clear();
  for (const std::uint32_t i : order) {
    sorted.push_back(round.commands[i]);
    round.ids.push_back(first + i);
  }
  round.commands = std::move(sorted);
}

bool Ssd::start_rounds(TimeNs now) {
  const flash::Geometry& g = config_.geometry;
  bool started = false;
  for (std::uint32_t pool = 0; pool < pool_dies_.size(); ++pool) {
    PendingRound& round = rounds_[pool];
    if (round.pending() || !pool_idle(pool, now) || !ftl_->wants_background_cleaning(pool))
      continue;
    round.commands.clear();
    ftl_->clean_in_background(pool, round.commands);
    if (round.commands.empty()) continue;
    if (verifier_) verifier_->background(round.commands);
    if (!observers_.empty())
      for (SsdObserver* observer : observers_)
        observer->commands(CommandSource::kBackground, nullptr, round.commands);
    sort_round(round);
    round.blocks.clear();
    for (const flash::Command& command : round.commands) {
      for (const flash::Ppn ppn : {command.ppn, command.ppn2, command.src})
        if (ppn != flash::kNoPage) round.blocks.push_back(g.block_of(ppn));
    }
    std::sort(round.blocks.begin(), round.blocks.end());
    round.blocks.erase(std::unique(round.blocks.begin(), round.blocks.end()), round.blocks.end());
    round.next = 0;
    round.stage = round.commands.front().stage;
    round.started = round.stage_ready = round.stage_done = now;
    started = true;
  }
  return started;
}

void Ssd::advance_round(PendingRound& round, TimeNs limit) {
  const flash::Geometry& g = config_.geometry;
  while (round.pending()) {
    const flash::Command& command = round.commands[round.next];
    if (command.stage != round.stage) {  // a new stage waits for the last one
      round.stage = command.stage;
      round.stage_ready = round.stage_done;
    }
    // Die-granular: the die is held from a command's first phase to its last.
    const TimeNs start = std::max(round.stage_ready, timeline_.die_free_at(g.die_of(command.ppn)));
    if (start >= limit) return;
    const TimeNs end = power_ ? schedule_recorded(command, round.ids[round.next], round.stage_ready)
                              : timeline_.schedule(command, round.stage_ready);
    round.stage_done = std::max(round.stage_done, end);
    ++round.next;
  }
  if (round.commands.empty()) return;
  count_cleaning(round.started, round.stage_done, true);
  round.commands.clear();
  round.next = 0;
}

void Ssd::advance_rounds(TimeNs limit) {
  for (PendingRound& round : rounds_) advance_round(round, limit);
}

void Ssd::finish_conflicting_rounds() {
  const flash::Geometry& g = config_.geometry;
  for (PendingRound& round : rounds_) {
    if (!round.pending()) continue;
    const bool conflict = std::any_of(commands_.begin(), commands_.end(), [&](const auto& c) {
      if (c.op == flash::Op::kRead) return false;
      for (const flash::Ppn ppn : {c.ppn, c.ppn2})
        if (ppn != flash::kNoPage &&
            std::binary_search(round.blocks.begin(), round.blocks.end(), g.block_of(ppn)))
          return true;
      return false;
    });
    if (conflict) advance_round(round, std::numeric_limits<TimeNs>::max());
  }
}

void Ssd::idle_preemptible(TimeNs from, TimeNs until) {
  for (TimeNs now = from; now < until;) {
    start_rounds(now);
    advance_rounds(until);
    // The next moment a pool without a pending round is idle again.
    TimeNs next = until;
    for (std::uint32_t pool = 0; pool < pool_dies_.size(); ++pool) {
      if (rounds_[pool].pending() || !ftl_->wants_background_cleaning(pool)) continue;
      TimeNs free = now;
      for (std::uint32_t die : pool_dies_[pool]) free = std::max(free, timeline_.die_free_at(die));
      if (free > now) next = std::min(next, free);
    }
    if (next <= now || next >= until) break;
    now = next;
  }
}

}  // namespace ssdlab::sim
