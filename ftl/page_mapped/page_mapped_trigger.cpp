// The cleaning trigger of the page-mapped FTL (page_mapped_trigger.h): the
// marks from ftl.clean_*, the foreground loop per page allocated, and the
// choice of a group for background cleaning.
#include "ftl/page_mapped/page_mapped_trigger.h"

#include <algorithm>
#include <cmath>

#include "common/error.h"

namespace ssdlab::ftl::page_mapped {

CleaningTrigger::CleaningTrigger(const flash::FastGeometry& geometry, const PoolLayout& layout,
                                 const Placement& placement, CleaningWork& work,
                                 const TriggerSettings& settings, std::uint32_t pages_per_lpn)
    : geometry_(geometry),
      layout_(layout),
      placement_(placement),
      work_(work),
      plane_scope_(settings.scope == CleanScope::kPlane),
      granularity_(settings.granularity),
      incremental_pages_(settings.incremental_pages),
      pages_per_lpn_(pages_per_lpn) {
  const std::uint32_t pool_blocks = geometry_.blocks() / layout_.pools();
  low_water_blocks_ = std::max<std::uint32_t>(
      2, static_cast<std::uint32_t>(std::ceil(settings.low_water * pool_blocks)));
  // The plane scope splits the pool's mark over its planes (rounded down, so
  // that the cleaning reserve, and with it the exported capacity, is the same
  // whatever the scope). The emergency floor: half the mark, at least the 2
  // blocks one victim's moves and the next host page may need.
  plane_low_water_ = std::max<std::uint32_t>(2, low_water_blocks_ / layout_.planes_per_pool());
  pool_floor_ = std::min(low_water_blocks_, std::max<std::uint32_t>(2, low_water_blocks_ / 2));
  plane_floor_ = std::min(plane_low_water_, std::max<std::uint32_t>(2, plane_low_water_ / 2));
  if (granularity_ == CleanGranularity::kIncremental && incremental_pages_ < pages_per_lpn_)
    throw make_error(
        "ftl.clean_incremental_pages = {} cannot move one logical page ({} flash pages)",
        incremental_pages_, pages_per_lpn_);
  high_water_blocks_ =
      settings.high_water > 0
          ? static_cast<std::uint32_t>(std::ceil(settings.high_water * pool_blocks))
          : 0;
}

bool CleaningTrigger::clean_step(std::uint32_t group, std::uint32_t budget, Pass& pass,
                                 flash::CommandList& out, std::uint32_t* moved) {
  pass.cleaned = true;
  if (plane_scope_ && !work_.cleanable(group)) {
    // Every sealed block of this plane is full of valid data: clean the
    // pool's plane with the best victim instead, once; the write's page goes
    // to a plane with room (Placement::take_in_turn skips full ones).
    std::uint32_t best = group;
    for (const std::uint32_t plane : layout_.planes(layout_.pool_of_plane(group))) {
      if (!work_.cleanable(plane)) continue;
      if (best == group || work_.has_victim_in_progress(plane) ||
          (!work_.has_victim_in_progress(best) &&
           work_.fewest_valid_pages(plane) < work_.fewest_valid_pages(best)))
        best = plane;
    }
    // Nothing in the pool to clean while its other planes still have free
    // blocks (valid data drifted into this plane): the writes go there.
    const std::uint32_t pool = layout_.pool_of_plane(group);
    if (best == group && placement_.pool_free_blocks(pool) >= pool_floor_) return false;
    work_.clean_victim(best, out);  // throws if nothing in the pool can be freed
    return false;
  }
  if (budget == kWholeBlocks) {
    // No progress: the pool's every block cleaned once for one write and the
    // group is still below its mark (the moves, and DFTL's translation pages,
    // take what the victims free). Without this stop the loop ran until
    // memory ran out.
    if (++pass.whole_victims > geometry_.blocks() / layout_.pools())
      throw make_error(
          "cleaning cannot get {} {} back to its mark of {} free blocks: {} victims cleaned for "
          "one write freed no room (more over-provisioning is needed)",
          plane_scope_ ? "plane" : "allocation pool", group,
          plane_scope_ ? plane_low_water_ : low_water_blocks_, pass.whole_victims - 1);
    work_.clean_victim(group, out);
  } else {
    const std::uint32_t pages = work_.clean_pages(group, budget, out);
    if (moved) *moved = pages;
  }
  return true;
}

// (Inlined into before_write(), its one caller: it runs before every page a
// host write allocates.)
[[gnu::always_inline]] inline void CleaningTrigger::clean_to_marks(std::uint32_t pool,
                                                                   std::uint32_t plane, Pass& pass,
                                                                   flash::CommandList& out) {
  const std::uint32_t group = plane_scope_ ? plane : pool;
  const std::uint32_t mark = plane_scope_ ? plane_low_water_ : low_water_blocks_;
  const std::uint32_t floor = plane_scope_ ? plane_floor_ : pool_floor_;
  switch (granularity_) {
    case CleanGranularity::kUntilMark:
      while (below(group, mark))
        if (!clean_step(group, kWholeBlocks, pass, out)) return;
      return;
    case CleanGranularity::kOneVictim:
      if (below(group, mark) && !clean_step(group, kWholeBlocks, pass, out)) return;
      break;
    case CleanGranularity::kIncremental: {
      std::uint32_t budget = incremental_pages_;
      // Stops when the budget is spent, or when nothing is in progress and
      // the group is at its mark. Every round either moves pages (spends
      // budget) or erases a victim.
      while (budget >= pages_per_lpn_ &&
             (work_.has_victim_in_progress(group) || below(group, mark))) {
        std::uint32_t moved = 0;
        if (!clean_step(group, budget, pass, out, &moved)) return;
        budget -= moved;
      }
      break;
    }
  }
  while (free_in_group(group) < floor)  // the emergency floor
    if (!clean_step(group, kWholeBlocks, pass, out)) return;
}

void CleaningTrigger::before_write(std::uint32_t pool, std::uint32_t plane,
                                   flash::CommandList& out) {
  Pass pass;
  clean_to_marks(pool, plane, pass, out);
  if (pass.cleaned) work_.cleaning_done(out);
}

bool CleaningTrigger::wants_background(std::uint32_t pool) const {
  if (placement_.pool_free_blocks(pool) >= high_water_blocks_) return false;
  return background_group(pool) != kNoGroup;
}

std::uint32_t CleaningTrigger::background_group(std::uint32_t pool) const {
  // The pool itself, or with the plane scope the plane of the pool with the
  // fewest free blocks that has something to clean (a victim in progress
  // first: it is finished before another is started).
  if (!plane_scope_) return work_.cleanable(pool) ? pool : kNoGroup;
  std::uint32_t best = kNoGroup;
  for (const std::uint32_t plane : layout_.planes(pool))
    if (work_.cleanable(plane) && (best == kNoGroup || free_in_group(plane) < free_in_group(best)))
      best = plane;
  return best;
}

}  // namespace ssdlab::ftl::page_mapped
