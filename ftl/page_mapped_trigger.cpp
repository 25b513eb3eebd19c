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

void PageMappedFtl::clean_before_write(std::uint32_t pool, std::uint32_t plane,
                                       CommandList& out) {
  const std::uint32_t group = plane_scope_ ? plane : pool;
  const std::uint32_t mark = plane_scope_ ? plane_low_water_ : low_water_blocks_;
  const std::uint32_t floor = plane_scope_ ? plane_floor_ : pool_floor_;
  switch (granularity_) {
    case CleanGranularity::kUntilMark:
      while (free_in_group(group) < mark) clean_one(group, out);
      return;
    case CleanGranularity::kOneVictim:
      if (free_in_group(group) < mark) clean_one(group, out);
      break;
    case CleanGranularity::kIncremental: {
      std::uint32_t budget = incremental_pages_;
      // Stops when the budget is spent, or when nothing is in progress and
      // the group is at its mark. Every round either moves pages (spends
      // budget) or erases a victim.
      while (budget >= pages_per_lpn_ &&
             (in_progress_[group].victim != kNoBlock || free_in_group(group) < mark)) {
        if (in_progress_[group].victim == kNoBlock) start_victim(group);
        budget -= continue_victim(group, budget, out);
      }
      break;
    }
  }
  while (free_in_group(group) < floor) clean_one(group, out);  // the emergency floor
}

}  // namespace ssdlab::ftl::page_mapped
