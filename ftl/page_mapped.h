// Page-mapped FTL (Agrawal et al. §3.1-3.2): a full map from logical page to
// physical location, static striping of logical pages over allocation pools,
// and inside each pool one host active block and one cleaning active block per
// plane, planes handed out round-robin so that consecutive writes interleave
// over dies and planes.
//
// Cleaning: when a pool's free blocks fall below the low-water mark, the
// sealed block the victim policy picks (victim_policy.h; by default greedy:
// the fewest valid pages) is cleaned: its valid pages move to the cleaning
// block of the same plane by copy-back where allowed, by an inter-plane move
// (read, bus, program) otherwise, then it is erased.
//
// DFTL (dftl.cpp) is this class with a map cache (`demand_mapped`): the map
// then also holds the translation pages' locations, and each plane has a
// third active block for translation pages.
//
// A logical page may span several physical pages (logical_page_size a multiple
// of the page size); they are then consecutive pages of one block. Writing part
// of a logical page is a read-modify-write.
//
// Scope and granularity (ftl.clean_scope, ftl.clean_granularity; see
// page_mapped_trigger.cpp): the mark and the victim choice per pool or per
// plane; each trigger cleans until back at the mark, one victim, or at most
// clean_incremental_pages page moves of a victim kept in progress between
// writes (checkpointed), whole blocks only below an emergency floor.
//
// Wear leveling (Agrawal et al. §5, wear_leveler.h): a greedy victim may be
// passed over by rate-limiting; a worn victim, once erased, may receive the
// data of a cold block, which is erased and freed in its place (migration);
// a block reaching its rated cycles is retired. When a pool's live blocks no
// longer hold its share of the logical space plus the cleaning reserve, the
// device has reached its end of life (EndOfLife).
//
// Memory: 4 bytes of map per logical page, the NAND array's ~4.3 bytes per
// physical page, and ~36 bytes per block (victim buckets 16, wear counters
// 16, free lists 4; the wear leveler's erase-order queue, up to 32 more, only
// with migration): about 8.3 bytes per physical page at 15%
// over-provisioning and 64 pages per block (README "Performance").
//
// The class is split over page_mapped.cpp (mapping, host writes, reads,
// trim, invariants), page_mapped_cleaning.cpp (victims, cleaning, wear
// leveling, end of life), page_mapped_state.cpp (checkpoints),
// page_mapped_recovery.cpp (mount after a power cut) and dftl.cpp (DFTL's
// translation pages and map cache). Internal to ftl/: the
// registry makes it by name.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <deque>
#include <stdexcept>

#include "common/error.h"
#include "common/huge_pages.h"
#include "common/prefetch.h"
#include "ftl/dftl_map_cache.h"
#include "ftl/ftl.h"
#include "ftl/pools.h"
#include "ftl/victim_buckets.h"
#include "ftl/victim_policy.h"
#include "ftl/wear_leveler.h"

namespace ssdlab::ftl::page_mapped {

using flash::BlockId;
using flash::Command;
using flash::kNoPage;
using flash::Op;
using flash::Ppn;

constexpr BlockId kNoBlock = ~BlockId{0};

class PageMappedFtl final : public Ftl {
 public:
  // `demand_mapped`: DFTL (dftl.cpp) rather than the plain page-mapped FTL.
  explicit PageMappedFtl(const FtlContext& context, bool demand_mapped = false);

  std::string_view name() const override { return cache_ ? "dftl" : "page-mapped"; }
  void prefetch(Lpn soon, Lpn later) const override;
  std::uint64_t logical_pages() const override { return logical_pages_; }
  // A host and a cleaning block open per plane (DFTL: and a translation
  // block), and the low-water free blocks of every pool.
  SpareBlocks spare_blocks() const override {
    return {std::uint64_t{geometry_.planes()} * (cache_ ? 3 : 2),
            std::uint64_t{low_water_blocks_} * layout_.pools()};
  }
  void write(const PageRange& range, CommandList& out) override;
  void read(const PageRange& range, CommandList& out) override;
  void trim(const PageRange& range, CommandList& out) override;
  bool is_mapped(Lpn lpn) const override { return map_[lpn] != kNoPage; }
  bool wants_background_cleaning(std::uint32_t pool) const override;
  void clean_in_background(std::uint32_t pool, CommandList& out) override;
  void check_invariants() const override;
  flash::NandArray* flash_for_power_cut() override { return &nand_; }
  Ppn locate(Lpn lpn) const override { return map_[lpn]; }
  void recover(RecoveryPolicy policy, CommandList& out, RecoveryReport& report) override;
  const FtlStats& stats() const override { return stats_; }
  const FtlConfig& config() const override { return config_; }
  const flash::NandArray& nand() const override { return nand_; }
  std::uint32_t parallel_pools() const override;
  std::uint32_t pool_of_page(Lpn lpn) const override { return pool_of(lpn); }
  void set_pool_parallel(bool on) override;
  // page_mapped_state.cpp
  void save_state(StateWriter& out) const override;
  void load_state(StateReader& in) override;

 private:
  struct PlaneState {
    BlockId host_active = kNoBlock;
    BlockId clean_active = kNoBlock;
    BlockId map_active = kNoBlock;  // DFTL: translation pages (host and cleaning)
    // Erased blocks, first in first out: a block erased by cleaning is reused
    // after the older free blocks of its plane.
    std::deque<BlockId> free_blocks;
  };

  // A victim being cleaned a few pages at a time (incremental granularity):
  // out of the victim candidates, its pages before `next` done (`moved` of
  // them moved, the others superseded).
  struct InProgress {
    BlockId victim = kNoBlock;
    std::uint32_t next = 0;
    std::uint32_t moved = 0;
  };

  // The counters `pool`'s work adds to: its own during parallel writes.
  FtlStats& counters(std::uint32_t pool) {
    return pool_stats_.empty() ? stats_ : pool_stats_[pool];
  }
  std::uint32_t pool_of(Lpn lpn) const {
    return layout_.pool_of_stripe(stripe_lpns_.quotient(lpn));
  }
  std::uint32_t pool_of_block(BlockId block) const {
    return layout_.pool_of_plane(geometry_.plane_of_block(block));
  }
  // Room for one logical page in `active` or in a free block of `plane`.
  bool has_room(const BlockId& active, std::uint32_t plane) const;
  // First page of room for one logical page in `active`, taking a free block
  // of `plane` when it is full or unset.
  Ppn take_room(BlockId& active, std::uint32_t plane);
  Ppn allocate_host(std::uint32_t pool, CommandList& out);
  Ppn allocate_for_cleaning(std::uint32_t victim_plane);
  // The two ways of taking a page from one kind of active block (`active`):
  // after foreground cleaning, a plane of the pool by ftl.plane_choice (host
  // writes, DFTL's translation writes); or the victim's plane first, then
  // its pool's (cleaning moves). `what` names it in the errors.
  Ppn allocate_in_turn(std::uint32_t pool, CommandList& out, BlockId PlaneState::*active,
                       const char* what);
  Ppn allocate_near(std::uint32_t victim_plane, BlockId PlaneState::*active, const char* what);
  // PlaneChoice::kMostFree: points the pool's cursor at its plane with the
  // most free pages for this kind of write (its free blocks and the room left
  // in its `active` block; the room of the cleaning's active block is not
  // the host's); of equals, the first from the cursor on (ties go in turn).
  void turn_to_most_free(std::uint32_t pool, BlockId PlaneState::*active);
  std::uint64_t free_pages(std::uint32_t plane, BlockId PlaneState::*active) const;
  // Programs `command`'s page with its logical page on the NAND array and
  // appends the command to `out`; a block's last data page closes it.
  void program(const Command& command, CommandList& out);
  // Closes `block`, whose data pages are all written: with summary pages its
  // summary page's program (in `closing`'s stage, cleaning if it is), then
  // the seal.
  void close_block(BlockId block, const Command& closing, CommandList& out);
  void supersede(Ppn ppn);
  void unmap(Lpn lpn);
  void append_reads(Lpn lpn, std::uint8_t stage, CommandList& out);
  // Synchronous gangs: rewrites the mapped `lpn`, which the host writes in
  // part, by one copy-back with the host's data into its own plane. False
  // (and nothing done but cleaning) if that plane has no room.
  bool rewrite_by_copy_back(Lpn lpn, CommandList& out);
  // page_mapped_trigger.cpp: the cleaning a page allocation in `pool` runs
  // first, at the configured scope and granularity; `plane` is the plane the
  // page will go to (the plane scope cleans there).
  void clean_before_write(std::uint32_t pool, std::uint32_t plane, CommandList& out);
  // Victim groups: the unit that keeps a mark and chooses victims (a pool,
  // or with the plane scope a plane).
  std::uint32_t group_of_block(BlockId block) const {
    const std::uint32_t plane = geometry_.plane_of_block(block);
    return plane_scope_ ? plane : layout_.pool_of_plane(plane);
  }
  std::uint32_t groups() const { return plane_scope_ ? geometry_.planes() : layout_.pools(); }
  std::uint32_t pool_of_group(std::uint32_t group) const {
    return plane_scope_ ? layout_.pool_of_plane(group) : group;
  }
  std::uint32_t free_in_group(std::uint32_t group) const {
    return plane_scope_ ? static_cast<std::uint32_t>(planes_[group].free_blocks.size())
                        : free_blocks_[group];
  }
  // page_mapped_trigger.cpp: can `group` free a block (a victim in progress,
  // or a sealed block not full of valid data)?
  bool cleanable(std::uint32_t group) const;
  // Cleans in `group`: a whole victim (kWholeBlocks) or up to `budget` page
  // moves (their number in `moved`). With the plane scope, a plane that
  // cannot free a block has the pool's best plane clean one victim instead:
  // false then.
  bool clean_step(std::uint32_t group, std::uint32_t budget, CommandList& out,
                  std::uint32_t* moved = nullptr);
  static constexpr std::uint32_t kWholeBlocks = ~std::uint32_t{0};
  // Cleans one whole victim of `group` (the one in progress, if any).
  void clean_one(std::uint32_t group, CommandList& out);
  // Takes the victim policy's choice for `group` out of the candidates as the
  // victim in progress. Throws if nothing can be freed.
  void start_victim(std::uint32_t group);
  // Moves up to `budget` valid pages of `group`'s victim in progress; erases
  // it when none is left. Returns the pages moved.
  std::uint32_t continue_victim(std::uint32_t group, std::uint32_t budget, CommandList& out);
  void erase_victim(BlockId victim, std::uint32_t moved, CommandList& out);
  // Background cleaning: the group of `pool` to clean next, or kNoBlock.
  std::uint32_t background_group(std::uint32_t pool) const;
  // Starts loading what superseding page `old` touches (its NAND state and
  // its block's victim-bucket entry) into the cache.
  void prefetch_page_state(Ppn old) const {
    nand_.prefetch(old);
    buckets_.prefetch(geometry_.block_of(old));
  }
  // Starts loading the map entries of the valid pages of the block whose
  // first page is `first` (a cleaning victim) into the cache.
  void prefetch_map_entries(Ppn first) const;
  // The victim policy's choice for `pool`, after rate-limiting (§5) passed
  // over some. With WearOrder::kMigrationFirst a worn candidate that can
  // receive cold data is taken without rate-limiting (§5's order).
  BlockId choose_victim(std::uint32_t group);
  // §5: true if `victim` is below retirementAge and a cold block of `pool`
  // is there to refill it (migration-first order only).
  bool receives_cold_data(BlockId victim, std::uint32_t pool);
  // The cold block whose data would refill the worn block `worn`, or kNoBlock
  // (WearConfig::order says which rules pick it).
  BlockId find_cold_block(BlockId worn, std::uint32_t pool);
  // Pages cleaning can still write in `pool`: its free blocks and what is
  // left of its cleaning (and translation) blocks.
  std::uint64_t cleaning_room(std::uint32_t pool) const;
  // §5 migration: fills the erased, worn `worn` with the valid data of a cold
  // block of its pool and erases that one. False if no block is cold.
  bool migrate_cold_data(BlockId worn, std::uint32_t pool, CommandList& out);
  void seal(BlockId block);
  // A sealed block enters or leaves the victim candidates (buckets and policy).
  void insert_sealed(BlockId block);
  void remove_sealed(BlockId block);
  // A block set aside by rate-limiting comes back (keeping its seal time).
  void restore_sealed(BlockId block);
  // The victim policy's logical clock (victim_policy.h): host pages written.
  std::uint64_t clock() const { return stats_.host_pages_written; }
  // The block just erased wore out: it is out of service for good (in no
  // free list); throws EndOfLife if the pool can no longer hold its data.
  void retire(std::uint32_t pool);
  // Recovery: gives every block its role from what the scan found.
  void adopt_blocks(CommandList& out);
  [[noreturn]] void end_of_life(std::uint32_t pool, const std::string& why) const;

  // DFTL (dftl.cpp): demand-based mapping over this FTL's data path.
  // Capacity: translation pages and their active blocks out of the spare
  // space; returns the number of translation pages.
  std::uint64_t set_up_translation(std::uint64_t capacity_entries);
  bool is_translation(Lpn lpn) const { return lpn != flash::kNoLpn && lpn >= logical_pages_; }
  // The map lookup of a host request for `lpn`: a cache hit, or a miss that
  // evicts (writing back dirty translation pages) and reads its translation page.
  void translate(Lpn lpn, CommandList& out);
  // Writes translation page `page` (read-modify-write) with its cached entries.
  void write_back(std::uint32_t page, CommandList& out);
  // Evicts until the cache has room for `entries` more.
  void make_room(CommandList& out, std::uint64_t entries);
  Ppn allocate_translation(std::uint32_t pool, CommandList& out);
  Ppn allocate_translation_for_cleaning(std::uint32_t victim_plane);
  // Cleaning moved logical page `lpn` (data or translation page) to `target`.
  void note_moved(Lpn lpn);
  // Mount: rewrites every translation page older than a data page or trim
  // of its range (the dirty cache entries the cut lost).
  void rewrite_stale_translation_pages(CommandList& out);
  // Host data commands come after the request's translation reads and writes.
  std::uint8_t data_stage(std::uint8_t stage) const {
    return cache_ ? static_cast<std::uint8_t>(stage + kTranslationStages) : stage;
  }
  static constexpr std::uint8_t kTranslationStages = 2;  // reads, then writes

  flash::FastGeometry geometry_;
  FtlConfig config_;
  flash::NandArray nand_;
  PoolLayout layout_;
  bool plane_scope_;  // ftl.clean_scope = "plane" (before buckets_: groups())
  VictimBuckets buckets_;
  std::unique_ptr<VictimPolicy> policy_;
  // superseded() for a sealed block holding at least this many valid pages:
  // 0 (every page), pages_per_block (a full block's first) or never.
  std::uint32_t policy_tracks_from_;
  std::uint32_t pages_per_lpn_;
  // Data pages per block: all of them, or with summary pages (ftl.summary_page)
  // all but the last, and the bytes a summary page moves (0: none).
  std::uint32_t data_pages_;
  std::uint16_t summary_bytes_;
  FastDiv stripe_lpns_;  // logical pages per stripe (a divisor: pool_of())
  // Partial writes of a logical page are copy-backs with the host's data
  // (a synchronous gang, copy-back on, one gang page per logical page).
  bool rmw_by_copy_back_;
  CleanGranularity granularity_;
  std::uint32_t incremental_pages_;
  std::uint32_t low_water_blocks_;   // per pool
  std::uint32_t plane_low_water_;    // per plane (plane scope)
  // Below these free blocks, every granularity cleans whole blocks until
  // back at them (the emergency floor: cleaning always has room to work).
  std::uint32_t pool_floor_;
  std::uint32_t plane_floor_;
  std::vector<InProgress> in_progress_;  // per victim group
  std::uint32_t high_water_blocks_;  // per pool; 0 = no background cleaning
  std::uint64_t logical_pages_;
  // lpn -> first physical page, or kNoPage (in huge pages). DFTL: then one
  // entry per translation page, its global translation directory (GTD).
  HugeVector<Ppn> map_;
  std::unique_ptr<MapCache> cache_;  // DFTL only
  std::uint32_t entries_per_translation_page_ = 0;
  // Translation pages the current request read or wrote: the controller
  // still holds them, so a later miss on one reads no flash (per request).
  std::vector<Lpn> request_written_;
  std::vector<PlaneState> planes_;
  std::vector<std::uint32_t> free_blocks_;  // per pool
  std::vector<std::uint32_t> cursors_;      // per pool: next position in its plane order
  WearLeveler wear_;
  std::vector<std::uint32_t> retired_;  // per pool
  std::uint32_t needed_blocks_;         // per pool: its logical share plus the cleaning reserve
  std::vector<BlockId> deferred_;       // choose_victim() scratch
  FtlStats stats_;
  std::vector<FtlStats> pool_stats_;  // per pool, between set_pool_parallel(true) and (false)
};

}  // namespace ssdlab::ftl::page_mapped
