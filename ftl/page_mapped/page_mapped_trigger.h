// When and where the page-mapped FTL (and DFTL) cleans (Agrawal et al. §3.2:
// cleaning below a low-water mark of free blocks): the marks, the scope and
// the granularity, for foreground cleaning before each page a host write (or
// a DFTL translation write) allocates, and for background cleaning between
// requests. What a cleaning step does (choose a victim, move its valid pages,
// erase it) is the FTL's, behind CleaningWork.
//
// Scope (ftl.clean_scope): "pool" keeps one low-water mark per allocation
// pool and chooses victims anywhere in it; "plane" gives each plane its own
// mark (the pool's, split evenly) and chooses victims inside the plane the
// page goes to, so that with copy-back every move stays in that plane
// (Agrawal et al. §3.2). Host pages rotate over the pool's planes, so the
// planes take their turns at cleaning. The unit that keeps a mark and
// chooses victims is a victim group: a pool, or with the plane scope a plane.
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
//
// Background cleaning (ftl.clean_high_water): a pool below its high-water
// mark with something to clean asks for it.
#pragma once

#include <cstdint>

#include "flash/command.h"
#include "flash/geometry.h"
#include "ftl/ftl.h"
#include "ftl/page_mapped/page_mapped_placement.h"
#include "ftl/pools.h"

namespace ssdlab::ftl::page_mapped {

// The cleaning a trigger asks for, in a victim group. Called once per
// cleaning step, not per page.
class CleaningWork {
 public:
  // A victim in progress, or a sealed block not full of valid data.
  virtual bool cleanable(std::uint32_t group) const = 0;
  virtual bool has_victim_in_progress(std::uint32_t group) const = 0;
  // Valid pages of the group's sealed block with the fewest.
  virtual std::uint32_t fewest_valid_pages(std::uint32_t group) const = 0;
  // Victims of the group cleaned whole but not yet erased: their moves wait
  // in pages (one-shot wordlines) still open, and cleaning_done() erases
  // them (map units). They count toward the group's mark.
  virtual std::uint32_t waiting_erases(std::uint32_t group) const = 0;
  // Cleans one whole victim (the one in progress, if any). Throws if nothing
  // can be freed.
  virtual void clean_victim(std::uint32_t group, flash::CommandList& out) = 0;
  // Moves up to `budget` valid pages of the victim in progress (taking one
  // first if none is); erases it when none is left. Returns the pages moved.
  virtual std::uint32_t clean_pages(std::uint32_t group, std::uint32_t budget,
                                    flash::CommandList& out) = 0;
  // The cleaning one trigger ran (before_write()) is over.
  virtual void cleaning_done(flash::CommandList& out) = 0;

 protected:
  ~CleaningWork() = default;
};

// ftl.clean_* as the trigger takes them (fractions of a pool's blocks).
struct TriggerSettings {
  CleanScope scope = CleanScope::kPool;
  CleanGranularity granularity = CleanGranularity::kUntilMark;
  std::uint32_t incremental_pages = 0;
  double low_water = 0;
  double high_water = 0;  // 0: no background cleaning
};

class CleaningTrigger {
 public:
  static constexpr std::uint32_t kNoGroup = ~std::uint32_t{0};

  // Throws ssdlab::Error if an incremental step cannot move one logical page
  // (`pages_per_lpn` flash pages). The references outlive this part.
  CleaningTrigger(const flash::FastGeometry& geometry, const PoolLayout& layout,
                  const Placement& placement, CleaningWork& work, const TriggerSettings& settings,
                  std::uint32_t pages_per_lpn);

  bool plane_scope() const { return plane_scope_; }
  // Whether a victim stays in progress between host writes (incremental).
  bool victims_between_writes() const { return granularity_ == CleanGranularity::kIncremental; }
  std::uint32_t groups() const { return plane_scope_ ? geometry_.planes() : layout_.pools(); }
  std::uint32_t group_of_block(flash::BlockId block) const {
    const std::uint32_t plane = geometry_.plane_of_block(block);
    return plane_scope_ ? plane : layout_.pool_of_plane(plane);
  }
  std::uint32_t pool_of_group(std::uint32_t group) const {
    return plane_scope_ ? layout_.pool_of_plane(group) : group;
  }
  // The pool's low-water mark in blocks (the cleaning reserve's share).
  std::uint32_t low_water_blocks() const { return low_water_blocks_; }

  // The cleaning a page allocation in `pool` runs first; `plane` is the
  // plane the page will go to (the plane scope cleans there).
  void before_write(std::uint32_t pool, std::uint32_t plane, flash::CommandList& out);
  // Background cleaning: whether `pool` wants it, and the group of `pool` to
  // clean next (kNoGroup if none).
  bool wants_background(std::uint32_t pool) const;
  std::uint32_t background_group(std::uint32_t pool) const;

 private:
  static constexpr std::uint32_t kWholeBlocks = ~std::uint32_t{0};
  std::uint32_t free_in_group(std::uint32_t group) const {
    return plane_scope_ ? placement_.plane_free_blocks(group) : placement_.pool_free_blocks(group);
  }
  // Whether `group` is below `mark` free blocks, counting the victims this
  // trigger's cleaning_done() erases. (Not counting them, one write on the
  // TLC preset at a tenth cleaned 1,704 victims to get one block back: a
  // victim's last moves wait in its plane's open wordline, 56 victims were
  // waiting when that cleaning ended, and the loop had won their erases back
  // a second time, at 3.5% of a block a victim 96.5% valid.)
  bool below(std::uint32_t group, std::uint32_t mark) const {
    const std::uint32_t free = free_in_group(group);
    return free < mark && free + work_.waiting_erases(group) < mark;
  }
  // What one before_write() has cleaned so far: on its stack, not in this
  // part, because the pools' threads of a parallel preconditioning
  // (Ftl::set_pool_parallel) share the part. (As members, both threads
  // wrote them at every page: a data race, and a cache line the two cores
  // took from each other at every page.)
  struct Pass {
    bool cleaned = false;             // clean_step() ran
    std::uint32_t whole_victims = 0;  // victims cleaned whole
  };
  // before_write()'s cleaning, without its end.
  void clean_to_marks(std::uint32_t pool, std::uint32_t plane, Pass& pass, flash::CommandList& out);
  // Cleans in `group`: a whole victim (kWholeBlocks) or up to `budget` page
  // moves (their number in `moved`). With the plane scope, a plane that
  // cannot free a block has the pool's best plane clean one victim instead:
  // false then.
  bool clean_step(std::uint32_t group, std::uint32_t budget, Pass& pass, flash::CommandList& out,
                  std::uint32_t* moved = nullptr);

  const flash::FastGeometry& geometry_;
  const PoolLayout& layout_;
  const Placement& placement_;
  CleaningWork& work_;
  bool plane_scope_;
  CleanGranularity granularity_;
  std::uint32_t incremental_pages_;
  std::uint32_t pages_per_lpn_;
  std::uint32_t low_water_blocks_;  // per pool
  std::uint32_t plane_low_water_;   // per plane (plane scope)
  // Below these free blocks, every granularity cleans whole blocks until
  // back at them (the emergency floor: cleaning always has room to work).
  std::uint32_t pool_floor_;
  std::uint32_t plane_floor_;
  std::uint32_t high_water_blocks_;  // per pool; 0 = no background cleaning
};

}  // namespace ssdlab::ftl::page_mapped
