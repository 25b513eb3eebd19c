// When and how much the page-mapped FTL (and DFTL) cleans in the foreground:
// before each page a host write (or a DFTL translation write) allocates.
//
// Scope (ftl.clean_scope): "pool" keeps one low-water mark per allocation
// pool and chooses victims anywhere in it; "plane" gives each plane its own
// mark (the pool's, split evenly) and chooses victims inside the plane the
// page goes to, so that with copy-back every move stays in that plane
// (Agrawal et al. §3.2). Host pages rotate over the pool's planes, so the
// planes take their turns at cleaning.
//
// Granularity (ftl.clean_granularity):
// - until-mark: clean whole victims until the group is back at its mark (one
//   trigger may clean several blocks: bursts of erases);
// - one-victim: one whole victim per trigger, in the write's plane with the
//   plane scope (Agrawal et al.'s simulator cleans one block per element
//   each time a write finds it below its mark);
// - incremental: at most ftl.clean_incremental_pages page moves per page
//   allocated; the victim stays in progress between writes (and in
//   checkpoints) and is erased once its last valid page has moved.
// Every granularity cleans whole blocks below the emergency floor (half the
// mark, at least 2 blocks), so that cleaning always has room to work and
// the device never runs out of free blocks.
#include "ftl/page_mapped.h"

namespace ssdlab::ftl::page_mapped {

bool PageMappedFtl::cleanable(std::uint32_t group) const {
  if (in_progress_[group].victim != kNoBlock) return true;
  const BlockId victim = buckets_.fewest_valid(group);
  return victim != VictimBuckets::kNone && buckets_.valid(victim) < data_pages_;
}

bool PageMappedFtl::clean_step(std::uint32_t group, std::uint32_t budget, CommandList& out,
                               std::uint32_t* moved) {
  if (plane_scope_ && !cleanable(group)) {
    // Every sealed block of this plane is full of valid data: clean the
    // pool's plane with the best victim instead, once; the write's page goes
    // to a plane with room (allocate_in_turn skips full ones).
    std::uint32_t best = group;
    for (const std::uint32_t plane : layout_.planes(layout_.pool_of_plane(group))) {
      if (!cleanable(plane)) continue;
      if (best == group || in_progress_[plane].victim != kNoBlock ||
          (in_progress_[best].victim == kNoBlock &&
           buckets_.valid(buckets_.fewest_valid(plane)) <
               buckets_.valid(buckets_.fewest_valid(best))))
        best = plane;
    }
    // Nothing in the pool to clean while its other planes still have free
    // blocks (valid data drifted into this plane): the writes go there.
    const std::uint32_t pool = layout_.pool_of_plane(group);
    if (best == group && free_blocks_[pool] >= pool_floor_) return false;
    clean_one(best, out);  // throws if nothing in the pool can be freed
    return false;
  }
  if (budget == kWholeBlocks) {
    clean_one(group, out);
  } else {
    if (in_progress_[group].victim == kNoBlock) start_victim(group);
    const std::uint32_t pages = continue_victim(group, budget, out);
    if (moved) *moved = pages;
  }
  return true;
}

void PageMappedFtl::clean_before_write(std::uint32_t pool, std::uint32_t plane,
                                       CommandList& out) {
  const std::uint32_t group = plane_scope_ ? plane : pool;
  const std::uint32_t mark = plane_scope_ ? plane_low_water_ : low_water_blocks_;
  const std::uint32_t floor = plane_scope_ ? plane_floor_ : pool_floor_;
  switch (granularity_) {
    case CleanGranularity::kUntilMark:
      while (free_in_group(group) < mark)
        if (!clean_step(group, kWholeBlocks, out)) return;
      return;
    case CleanGranularity::kOneVictim:
      if (free_in_group(group) < mark && !clean_step(group, kWholeBlocks, out)) return;
      break;
    case CleanGranularity::kIncremental: {
      std::uint32_t budget = incremental_pages_;
      // Stops when the budget is spent, or when nothing is in progress and
      // the group is at its mark. Every round either moves pages (spends
      // budget) or erases a victim.
      while (budget >= pages_per_lpn_ &&
             (in_progress_[group].victim != kNoBlock || free_in_group(group) < mark)) {
        std::uint32_t moved = 0;
        if (!clean_step(group, budget, out, &moved)) return;
        budget -= moved;
      }
      break;
    }
  }
  while (free_in_group(group) < floor)  // the emergency floor
    if (!clean_step(group, kWholeBlocks, out)) return;
}

}  // namespace ssdlab::ftl::page_mapped
