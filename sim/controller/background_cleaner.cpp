#include "sim/controller/background_cleaner.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <set>

#include "common/error.h"
#include "ftl/pools.h"

namespace ssdlab::sim {

std::unique_ptr<BackgroundCleaner> BackgroundCleaner::make(const DeviceConfig& config,
                                                           ftl::Ftl& ftl,
                                                           flash::FlashTimeline& timeline,
                                                           Core& core) {
  // Background cleaning, or idle folding of an SLC cache (the FTL says
  // which it wants through wants_background_cleaning()).
  const bool idle_fold = config.ftl.slc_cache.on() && config.ftl.slc_cache.idle_fold;
  if (config.ftl.clean_high_water <= 0 && !idle_fold) return nullptr;
  return std::make_unique<BackgroundCleaner>(config, ftl, timeline, core);
}

BackgroundCleaner::BackgroundCleaner(const DeviceConfig& config, ftl::Ftl& ftl,
                                     flash::FlashTimeline& timeline, Core& core)
    : geometry_(config.geometry),
      units_per_page_(std::max<std::uint32_t>(
          1, config.geometry.page_size / ftl.nand().geometry().page_size)),
      ftl_(ftl),
      timeline_(timeline),
      core_(core) {
  const ftl::PoolLayout layout(config.geometry, config.ftl.pool);
  for (std::uint32_t pool = 0; pool < layout.pools(); ++pool) {
    std::set<std::uint32_t> dies;
    for (const std::uint32_t plane : layout.planes(pool))
      dies.insert(config.geometry.die_of_plane(plane));
    pool_dies_.emplace_back(dies.begin(), dies.end());
  }
  if (config.controller.preempt_background_cleaning) rounds_.resize(pool_dies_.size());
}

bool BackgroundCleaner::pool_idle(std::uint32_t pool, TimeNs now) const {
  const auto& dies = pool_dies_[pool];
  return std::all_of(dies.begin(), dies.end(),
                     [&](std::uint32_t die) { return timeline_.die_free_at(die) <= now; });
}

TimeNs BackgroundCleaner::next_idle(TimeNs now, TimeNs until) const {
  // A pool is idle again when its busiest die frees up.
  TimeNs next = until;
  for (std::uint32_t pool = 0; pool < pool_dies_.size(); ++pool) {
    if (preemptible() && (rounds_[pool].pending() || !ftl_.wants_background_cleaning(pool, true)))
      continue;
    TimeNs free = now;
    for (std::uint32_t die : pool_dies_[pool]) free = std::max(free, timeline_.die_free_at(die));
    if (free > now) next = std::min(next, free);
  }
  return next;
}

void BackgroundCleaner::clean_idle_pools(TimeNs now, Reserve reserve, bool host_idle) {
  for (std::uint32_t pool = 0; pool < pool_dies_.size(); ++pool)
    if (pool_idle(pool, now) && ftl_.wants_background_cleaning(pool, host_idle))
      core_.clean_pool(pool, now, reserve);
}

void BackgroundCleaner::after_request(TimeNs now, Reserve reserve) {
  if (preemptible())
    start_rounds(now, false);
  else
    clean_idle_pools(now, reserve, false);
}

void BackgroundCleaner::idle(TimeNs from, TimeNs until) {
  if (preemptible()) return idle_preemptible(from, until);
  // Round after round; a pool busy at the start (a write buffer's flush at
  // the idle period's start, the host's last programs) cleans once free.
  for (TimeNs now = from; now < until;) {
    clean_idle_pools(now, Reserve::kAtOnce, true);
    const TimeNs next = next_idle(now, until);
    if (next <= now || next >= until) break;
    now = next;
  }
}

void BackgroundCleaner::power_lost() {
  for (PendingRound& round : rounds_) round = PendingRound{};
}

// Stage order, list order within a stage. Power-cut runs hand the list to the
// recorder first, in the FTL's order (the order its maps and the NAND array
// changed in), and keep each command's id for when it is reserved; until
// then a cut undoes it like any command in flight.
void BackgroundCleaner::sort_round(PendingRound& round) {
  const auto by_stage = [](const flash::Command& a, const flash::Command& b) {
    return a.stage < b.stage;
  };
  PowerSafeScheduling* power = core_.power_safe();
  if (!power) {
    core_.to_flash(round.commands, nullptr);
    std::stable_sort(round.commands.begin(), round.commands.end(), by_stage);
    return;
  }
  // (The recorder takes the FTL's commands: with map units, units; each
  // flash command then completes the ids of the units it carries.)
  const std::uint64_t first = power->record({}, round.commands);
  const std::size_t recorded = round.commands.size();
  core_.to_flash(round.commands, &carriers_);
  std::vector<std::vector<std::uint64_t>> carried(round.commands.size());
  for (std::uint32_t i = 0; i < recorded; ++i)
    carried[carriers_.empty() ? i : carriers_[i]].push_back(first + i);
  std::vector<std::uint32_t> order(round.commands.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return by_stage(round.commands[a], round.commands[b]);
  });
  flash::CommandList sorted;
  sorted.reserve(order.size());
  round.ids.clear();
  round.id_start.clear();
  for (const std::uint32_t i : order) {
    sorted.push_back(round.commands[i]);
    round.id_start.push_back(static_cast<std::uint32_t>(round.ids.size()));
    round.ids.insert(round.ids.end(), carried[i].begin(), carried[i].end());
  }
  round.id_start.push_back(static_cast<std::uint32_t>(round.ids.size()));
  round.commands = std::move(sorted);
}

void BackgroundCleaner::start_rounds(TimeNs now, bool host_idle) {
  for (std::uint32_t pool = 0; pool < pool_dies_.size(); ++pool) {
    PendingRound& round = rounds_[pool];
    if (round.pending() || !pool_idle(pool, now) ||
        !ftl_.wants_background_cleaning(pool, host_idle))
      continue;
    round.commands.clear();
    ftl_.clean_in_background(pool, round.commands);
    if (round.commands.empty()) continue;
    core_.announce(round.commands);
    sort_round(round);
    round.blocks.clear();
    for (const flash::Command& command : round.commands) {
      for (const flash::Ppn ppn : {command.ppn, command.ppn2, command.src})
        if (ppn != flash::kNoPage) round.blocks.push_back(geometry_.block_of(ppn));
    }
    std::sort(round.blocks.begin(), round.blocks.end());
    round.blocks.erase(std::unique(round.blocks.begin(), round.blocks.end()), round.blocks.end());
    round.next = 0;
    round.stage = round.commands.front().stage;
    round.started = round.stage_ready = round.stage_done = now;
  }
}

void BackgroundCleaner::advance_round(PendingRound& round, TimeNs limit) {
  PowerSafeScheduling* power = core_.power_safe();
  while (round.pending()) {
    const flash::Command& command = round.commands[round.next];
    if (command.stage != round.stage) {  // a new stage waits for the last one
      round.stage = command.stage;
      round.stage_ready = round.stage_done;
    }
    // Die-granular: the die is held from a command's first phase to its last.
    const TimeNs start =
        std::max(round.stage_ready, timeline_.die_free_at(geometry_.die_of(command.ppn)));
    if (start >= limit) return;
    TimeNs end = 0;
    if (power) {
      end = power->reserve_flash(command, round.stage_ready);
      for (std::uint32_t k = round.id_start[round.next]; k < round.id_start[round.next + 1]; ++k)
        power->recorder().completes(round.ids[k], end);
    } else {
      end = timeline_.schedule(command, round.stage_ready);
    }
    round.stage_done = std::max(round.stage_done, end);
    ++round.next;
  }
  if (round.commands.empty()) return;
  core_.cleaning().count(round.started, round.stage_done, CleaningStart::kBackground);
  round.commands.clear();
  round.next = 0;
}

void BackgroundCleaner::advance_rounds(TimeNs limit) {
  for (PendingRound& round : rounds_) advance_round(round, limit);
}

void BackgroundCleaner::finish_conflicting_rounds(const flash::CommandList& host_commands) {
  for (PendingRound& round : rounds_) {
    if (!round.pending()) continue;
    const bool conflict =
        std::any_of(host_commands.begin(), host_commands.end(), [&](const auto& c) {
          if (c.op == flash::Op::kRead) return false;
          // (The host's commands are the FTL's: with map units, units.)
          for (const flash::Ppn ppn : {c.ppn, c.ppn2})
            if (ppn != flash::kNoPage &&
                std::binary_search(round.blocks.begin(), round.blocks.end(),
                                   geometry_.block_of(ppn / units_per_page_)))
              return true;
          return false;
        });
    if (conflict) advance_round(round, std::numeric_limits<TimeNs>::max());
  }
}

void BackgroundCleaner::idle_preemptible(TimeNs from, TimeNs until) {
  for (TimeNs now = from; now < until;) {
    start_rounds(now, true);
    advance_rounds(until);
    // The next moment a pool without a pending round is idle again.
    const TimeNs next = next_idle(now, until);
    if (next <= now || next >= until) break;
    now = next;
  }
}

}  // namespace ssdlab::sim
