// Placement for the page-mapped FTL and DFTL (Agrawal et al. §3.1, "parallel
// access"; §3.2 for cleaning's moves): where the next page of a write goes.
//
// Each plane keeps one active block per kind of write (WriteKind: host data,
// cleaning's moves, DFTL's translation pages) and its erased blocks, first in
// first out (a block erased by cleaning is reused after the older free blocks
// of its plane). Host and translation pages take planes of their pool in turn
// (ftl.plane_choice: round-robin, or the plane with the most free pages for
// that kind), skipping full planes, so that consecutive writes interleave
// over dies and planes; cleaning's moves take the victim's own plane first
// (copy-back applies there), another plane of its pool only when it is out of
// room.
//
// The core asks in two steps for a page in turn, turn() then take_in_turn(),
// so that foreground cleaning can run on the plane turn() names in between.
// A new way of placing data (host placement handles, an SLC cache) is a new
// kind of active block here, or another class with these calls; the core
// only names a kind. Calls are plain (non-virtual) members: they are on
// every page's path.
//
// Owns its part of the "PMAP" checkpoint section: each plane's active blocks
// and free list, the free block count and the allocation cursor of each pool.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "common/state_io.h"
#include "flash/geometry.h"
#include "flash/nand_array.h"
#include "ftl/ftl.h"
#include "ftl/page_mapped/page_mapped_keys.h"
#include "ftl/page_mapped/page_mapped_reclaim_units.h"
#include "ftl/pools.h"

namespace ssdlab::ftl::page_mapped {

constexpr flash::BlockId kNoBlock = ~flash::BlockId{0};

// What a page is written for; each plane has an active block of each kind.
// kSlc: host data in the SLC cache (page_mapped_slc_cache.h), blocks opened
// in SLC mode while the pool's SLC budget allows (set_slc_budget()).
enum class WriteKind : std::uint8_t { kHost, kCleaning, kTranslation, kSlc };
constexpr std::size_t kWriteKinds = 4;
// Host-guided placement (page_mapped_fdp.h): after the four kinds, each
// placement handle's host slot, then each handle's own cleaning slot
// (persistently isolated handles), used once enable_handles() is called.
constexpr std::size_t kActiveSlots = kWriteKinds + 2 * kMaxPlacementHandles;
constexpr WriteKind handle_host_kind(std::uint32_t handle) {
  return static_cast<WriteKind>(kWriteKinds + handle);
}
constexpr WriteKind handle_cleaning_kind(std::uint32_t handle) {
  return static_cast<WriteKind>(kWriteKinds + kMaxPlacementHandles + handle);
}

class Placement {
 public:
  // `data_pages`: the pages of a block that hold data (all, or all but its
  // summary page). `geometry`, `layout` and `nand` outlive this part. Every
  // block starts free.
  Placement(const flash::FastGeometry& geometry, const PoolLayout& layout,
            flash::NandArray& nand, PlaneChoice choice, std::uint32_t data_pages);

  // The plane the next page of `kind` in `pool` goes to if it has room
  // (PlaneChoice::kMostFree turns the pool's cursor to its plane with the
  // most free pages for this kind first; of equals, the first from the
  // cursor on).
  std::uint32_t turn(std::uint32_t pool, WriteKind kind) {
    if (choice_ == PlaneChoice::kMostFree) turn_to_most_free(pool, kind);
    return layout_.planes(pool)[pools_[pool].cursor];
  }
  // The next page of `kind` in `pool`: from the cursor on, the first plane
  // with room (the cursor then moves past it); kNoPage if no plane has room.
  flash::Ppn take_in_turn(std::uint32_t pool, WriteKind kind) {
    const auto& order = layout_.planes(pool);
    std::uint32_t& cursor = pools_[pool].cursor;
    // Round-robin over the pool's planes, skipping planes that are full.
    for (std::size_t tried = 0; tried < order.size(); ++tried) {
      const std::uint32_t plane = order[cursor];
      if (++cursor == order.size()) cursor = 0;
      if (has_room(plane, kind)) return take(plane, kind);
    }
    return flash::kNoPage;
  }
  // The next page of `kind` in `plane`, else in the first plane of its pool
  // with room; kNoPage if none has room.
  flash::Ppn take_near(std::uint32_t plane, WriteKind kind) {
    return has_room(plane, kind) ? take(plane, kind) : take_in_pool(plane, kind);
  }
  // The next page of `kind` in `plane`, kNoPage if it has no room.
  flash::Ppn take_in_plane(std::uint32_t plane, WriteKind kind) {
    return has_room(plane, kind) ? take(plane, kind) : flash::kNoPage;
  }

  // Placement handles on: every plane has an active block slot per handle
  // (host, and cleaning for persistent isolation), saved in checkpoints.
  void enable_handles() { slots_ = kActiveSlots; }
  // Whole reclaim units cleaned (ftl.fdp_reclaim = "unit"): `units` is told
  // of each block a slot opens (not null; outlives this part).
  void set_reclaim_units(ReclaimUnits* units) { reclaim_units_ = units; }

  // SLC blocks `pool` may still open (the SLC cache's budget, set before
  // each of its host writes).
  void set_slc_budget(std::uint32_t pool, std::uint32_t blocks) {
    pools_[pool].slc_budget = blocks;
    if (blocks > 0) pools_[pool].slc_spent = false;
  }
  // True if some plane of `pool` has room for a page of `kind`.
  bool pool_has_room(std::uint32_t pool, WriteKind kind) const {
    // With no SLC budget, only an SLC active block with room left has room,
    // and none becomes one until the budget grows: once a scan of the
    // pool's planes found none, the answer is no without a scan (a cache
    // full of data, bypassed by every host write, asks at every unit).
    const bool slc_spent = kind == WriteKind::kSlc && pools_[pool].slc_budget == 0;
    if (slc_spent && pools_[pool].slc_spent) return false;
    for (const std::uint32_t plane : layout_.planes(pool))
      if (has_room(plane, kind)) return true;
    if (slc_spent) pools_[pool].slc_spent = true;
    return false;
  }
  // `plane`'s active block of `kind`, or kNoBlock.
  flash::BlockId active_block(std::uint32_t plane, WriteKind kind) const {
    return planes_[plane].active[static_cast<std::size_t>(kind)];
  }
  // `pool`'s SLC active blocks (the SLC cache's consistency check).
  std::uint32_t active_blocks(std::uint32_t pool, WriteKind kind) const;

  // `block`, whose data pages are all written, is no plane's active block now.
  void closed(flash::BlockId block) {
    for (flash::BlockId& active : planes_[geometry_.plane_of_block(block)].active)
      if (active == block) active = kNoBlock;
  }
  // The erased `block` is free again: the last of its plane's free blocks.
  void freed(flash::BlockId block);
  // The open host block of a plane of `plane`'s pool (its own first) whose
  // slot of `kind` has no room becomes that slot's active block, its host
  // slot empty: the block, or kNoBlock if no plane has one.
  flash::BlockId hand_host_block(std::uint32_t plane, WriteKind kind);

  std::uint32_t pool_free_blocks(std::uint32_t pool) const { return pools_[pool].free_blocks; }
  std::uint32_t plane_free_blocks(std::uint32_t plane) const {
    return static_cast<std::uint32_t>(planes_[plane].free_blocks.size());
  }
  // Pages cleaning can still write in `pool`: its free blocks and what is
  // left of its cleaning and translation blocks.
  std::uint64_t cleaning_room(std::uint32_t pool) const;

  // Mount after a power cut: no block free or active, cursors at the start;
  // then freed() for each erased block and adopt() for the partly written.
  void clear();
  // `block`, partly written, becomes `kind`'s active block of its plane if
  // that plane has none (true).
  bool adopt(flash::BlockId block, WriteKind kind);

  // Consistency: every free block is an erased block of its plane, listed
  // once, the active blocks are not full and of their plane, and the counts
  // agree with the lists. Marks free and active blocks in `seen` (a count
  // per block); `in_service(block)` is false for retired blocks. Throws
  // std::logic_error.
  template <class InService>
  void check(std::vector<std::uint8_t>& seen, InService in_service) const;

  void save_state(StateWriter& out) const;
  void load_state(StateReader& in);

 private:
  struct PlaneState {
    PlaneState() { active.fill(kNoBlock); }
    std::array<flash::BlockId, kActiveSlots> active;
    std::deque<flash::BlockId> free_blocks;
  };

  bool has_room(std::uint32_t plane, WriteKind kind) const {
    const flash::BlockId active = planes_[plane].active[static_cast<std::size_t>(kind)];
    if (active != kNoBlock && !nand_.is_full(active)) return true;
    if (kind == WriteKind::kSlc && pools_[layout_.pool_of_plane(plane)].slc_budget == 0)
      return false;
    return !planes_[plane].free_blocks.empty();
  }
  // First page of room for one logical page in the active block of `kind`,
  // taking a free block of `plane` when it is full or unset.
  flash::Ppn take(std::uint32_t plane, WriteKind kind) {
    flash::BlockId& active = planes_[plane].active[static_cast<std::size_t>(kind)];
    if (active == kNoBlock || nand_.is_full(active)) {
      PlaneState& state = planes_[plane];
      active = state.free_blocks.front();
      state.free_blocks.pop_front();
      PoolState& pool = pools_[layout_.pool_of_plane(plane)];
      --pool.free_blocks;
      if (kind == WriteKind::kSlc) {
        nand_.set_slc(active);
        --pool.slc_budget;
        pool.slc_spent = false;  // (its new block has room)
      } else if (reclaim_units_) {
        reclaim_units_->opened(active, plane, static_cast<std::size_t>(kind));
      }
    }
    return geometry_.first_page(active) + nand_.write_pointer(active);
  }
  void turn_to_most_free(std::uint32_t pool, WriteKind kind);
  std::uint64_t free_pages(std::uint32_t plane, WriteKind kind) const;
  // take_near() when `plane` has no room: the first plane of its pool with room.
  flash::Ppn take_in_pool(std::uint32_t plane, WriteKind kind);
  [[noreturn]] static void fail(const std::string& what);

  const flash::FastGeometry& geometry_;
  const PoolLayout& layout_;
  flash::NandArray& nand_;
  PlaneChoice choice_;
  std::uint32_t data_pages_;
  std::vector<PlaneState> planes_;
  // What each pool changes at its pages, a cache line each: the pools'
  // threads of a parallel preconditioning (Ftl::set_pool_parallel) write
  // their own pool's at every page, and in one array the two cores took
  // the line from each other at every page (preconditioning
  // configs/agrawal-baseline.toml on two threads took longer than on one).
  struct alignas(64) PoolState {
    std::uint32_t free_blocks = 0;
    std::uint32_t cursor = 0;      // next position in its plane order
    std::uint32_t slc_budget = 0;  // SLC blocks it may still open
    // With no SLC budget, no SLC active block has room either
    // (pool_has_room's answer kept; cleared by a budget, an adopted or
    // loaded active block).
    mutable bool slc_spent = false;
  };
  std::vector<PoolState> pools_;
  std::size_t slots_ = kWriteKinds;         // active slots in use (saved) per plane
  ReclaimUnits* reclaim_units_ = nullptr;   // ftl.fdp_reclaim = "unit" only
};

template <class InService>
void Placement::check(std::vector<std::uint8_t>& seen, InService in_service) const {
  std::vector<std::uint32_t> free_per_pool(layout_.pools(), 0);
  for (std::uint32_t plane = 0; plane < planes_.size(); ++plane) {
    for (const flash::BlockId block : planes_[plane].free_blocks) {
      if (!nand_.is_erased(block) || geometry_.plane_of_block(block) != plane ||
          !in_service(block) || seen[block]++)
        fail("free list of plane " + std::to_string(plane) + ": block " + std::to_string(block) +
             " is not an erased block of that plane, or listed twice");
      ++free_per_pool[layout_.pool_of_plane(plane)];
    }
    for (const flash::BlockId active : planes_[plane].active) {
      if (active == kNoBlock) continue;
      if (seen[active]++ || nand_.is_full(active) || geometry_.plane_of_block(active) != plane)
        fail("plane " + std::to_string(plane) + ": active block " + std::to_string(active) +
             " is free, full, shared or foreign");
    }
  }
  for (std::size_t pool = 0; pool < pools_.size(); ++pool)
    if (free_per_pool[pool] != pools_[pool].free_blocks)
      fail("free block counts per pool disagree with the free lists");
}

}  // namespace ssdlab::ftl::page_mapped
