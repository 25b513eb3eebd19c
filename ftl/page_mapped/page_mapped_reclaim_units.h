// Reclaim units as the unit of cleaning (ftl.fdp_reclaim = "unit"; issue
// 56 item 1; docs/fdp.md, "Reclaiming whole units"), as FEMU's FDP cleans
// whole reclaim units (its lines) per reclaim group.
//
// A reclaim unit (TP4146) is the blocks an active slot (a handle's host
// blocks, its own cleaning blocks, the shared cleaning blocks, DFTL's
// translation blocks) opens together, one on each plane of its reclaim
// group (an allocation pool): the slot's block on a plane joins the slot's
// current unit unless that unit already has a block of that plane, which
// starts the next unit. A block written outside a slot (wear leveling's
// migration target; after a mount, every block, whose grouping was
// controller memory) is a unit of its own.
//
// Cleaning then picks a unit, not a block: of the pool's units whose every
// block is sealed and a victim candidate, the one holding the fewest valid
// pages for its size (greedy), or the best age x (1 - u) / 2u
// (cost-benefit, u its valid share, its age from its last block's seal),
// and cleans each of its blocks in turn, one per victim the trigger asks
// for. With no such unit (every one has a block still open, or is full of
// valid data), the victim policy's block is cleaned, as at block grain.
//
// Owns the checkpoint section "RUNT" (only with ftl.fdp_reclaim = "unit").
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <limits>
#include <vector>

#include "common/state_io.h"
#include "flash/geometry.h"
#include "ftl/pools.h"

namespace ssdlab::ftl::page_mapped {

class ReclaimUnits {
 public:
  // Off unless `on`; `slots`: the active slots a plane has (Placement's).
  ReclaimUnits(bool on, const flash::FastGeometry& geometry, const PoolLayout& layout,
               std::size_t slots);

  bool on() const { return on_; }

  // `block` of `plane` was opened for active slot `slot`.
  void opened(flash::BlockId block, std::uint32_t plane, std::size_t slot);
  // `block`, written outside the slots, is a unit of its own.
  void alone(flash::BlockId block);
  // `block` was sealed at logical time `now` (cost-benefit's age).
  void sealed(flash::BlockId block, std::uint64_t now) {
    if (on_ && unit_of_[block] != kNone) {
      Unit& unit = units_[unit_of_[block]];
      unit.sealed_at = std::max(unit.sealed_at, now);
    }
  }
  // `block` was erased: it leaves its unit.
  void erased(flash::BlockId block);

  // The next block cleaning in `pool` takes: the next of the unit being
  // reclaimed, else the first of the unit chosen now; kNoUnitBlock if no
  // unit qualifies. `candidate(block)`: sealed and a victim candidate;
  // `valid(block)`: its valid pages; `data_pages`: a block's.
  template <class Candidate, class Valid>
  flash::BlockId next(std::uint32_t pool, Candidate candidate, Valid valid,
                      std::uint32_t data_pages, bool cost_benefit, std::uint64_t now);
  static constexpr flash::BlockId kNoUnitBlock = std::numeric_limits<flash::BlockId>::max();

  // Units chosen for cleaning (summary.json fdp.reclaim_units_cleaned).
  std::uint64_t cleaned() const { return cleaned_; }

  // A mount: every unit forgotten (alone() then gives each block its own).
  void clear();
  void save_state(StateWriter& out) const;
  void load_state(StateReader& in);

 private:
  static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  struct Unit {
    std::uint32_t pool = 0;
    std::uint32_t current = 0;            // slots whose current unit it is
    std::uint64_t sealed_at = 0;          // its last block's seal (logical time)
    std::vector<std::uint32_t> planes;    // planes it has had a block of
    std::vector<flash::BlockId> members;  // its blocks not yet erased
  };
  std::uint32_t make_unit(std::uint32_t pool);
  void release_if_empty(std::uint32_t unit);
  void join(std::uint32_t unit, flash::BlockId block, std::uint32_t plane);

  bool on_;
  const flash::FastGeometry& geometry_;
  const PoolLayout& layout_;
  std::vector<Unit> units_;
  std::vector<std::uint32_t> free_units_;            // ids of released units
  std::vector<std::uint32_t> unit_of_;               // per block, or kNone
  std::vector<std::uint32_t> current_;               // per slot and pool
  std::vector<std::vector<std::uint32_t>> live_;     // per pool: its units
  std::vector<std::deque<flash::BlockId>> pending_;  // per pool: the rest of the unit reclaimed
  std::uint64_t cleaned_ = 0;
};

template <class Candidate, class Valid>
flash::BlockId ReclaimUnits::next(std::uint32_t pool, Candidate candidate, Valid valid,
                                  std::uint32_t data_pages, bool cost_benefit, std::uint64_t now) {
  std::deque<flash::BlockId>& pending = pending_[pool];
  // The unit's blocks in turn, but those cleaned or migrated since it was
  // chosen and those full of valid data (cleaning them frees nothing).
  const auto take_pending = [&]() -> flash::BlockId {
    while (!pending.empty()) {
      const flash::BlockId block = pending.front();
      pending.pop_front();
      if (candidate(block) && valid(block) < data_pages) return block;
    }
    return kNoUnitBlock;
  };
  if (const flash::BlockId block = take_pending(); block != kNoUnitBlock) return block;
  std::uint32_t best = kNone;
  double best_score = 0;
  for (const std::uint32_t id : live_[pool]) {
    const Unit& unit = units_[id];
    if (unit.members.empty()) continue;
    std::uint64_t held = 0;
    bool all_sealed = true;
    for (const flash::BlockId block : unit.members) {
      if (!candidate(block)) {
        all_sealed = false;
        break;
      }
      held += valid(block);
    }
    const std::uint64_t size = std::uint64_t{data_pages} * unit.members.size();
    if (!all_sealed || held == size) continue;
    const double u = static_cast<double>(held) / static_cast<double>(size);
    // Greedy: the lowest valid share; cost-benefit: the highest score (an
    // empty unit: nothing to move, the best of all).
    const double age = static_cast<double>(now - std::min(now, unit.sealed_at));
    const double score = !cost_benefit ? 1.0 - u
                         : held == 0   ? std::numeric_limits<double>::infinity()
                                       : age * (1.0 - u) / (2.0 * u);
    if (best == kNone || score > best_score) best = id, best_score = score;
  }
  if (best == kNone) return kNoUnitBlock;
  ++cleaned_;
  const std::vector<flash::BlockId>& members = units_[best].members;
  pending.assign(members.begin(), members.end());
  return take_pending();  // (the unit holds less than its size: a block frees something)
}

}  // namespace ssdlab::ftl::page_mapped
