// Page-mapped FTL (Agrawal et al. §3.1-3.2): a full map from logical page to physical location,
// static striping of logical pages over allocation pools, and inside each pool one host active
// block and one cleaning active block per plane, planes handed out round-robin so that consecutive
// writes interleave over dies and planes.
//
// Cleaning: when a pool's free blocks fall below the low-water mark, the sealed block the victim
// policy picks (victim_policy.h; by default greedy: the fewest valid pages) is cleaned: its valid
// pages move to the cleaning block of the same plane by copy-back where allowed, by an inter-plane
// move (read, bus, program) otherwise, then it is erased.
//
// DFTL (dftl.cpp) is this class with a map cache (`demand_mapped`): the map then also holds
// the translation pages' locations, and each plane has a third active block for them.
//
// A logical page may span several physical pages (logical_page_size a multiple of the page
// size): consecutive pages of one block. Writing part of one is a read-modify-write.
//
// Scope and granularity (ftl.clean_scope, ftl.clean_granularity; page_mapped_trigger.h): the mark
// and the victim choice per pool or per plane; each trigger cleans until back at the mark, one
// victim, or at most clean_incremental_pages page moves of a victim kept in progress between writes
// (checkpointed), whole blocks only below an emergency floor.
//
// Wear leveling (Agrawal et al. §5, wear_leveler.h): a greedy victim may be passed over by
// rate-limiting; a worn victim, once erased, may receive the data of a cold block, which is erased
// and freed in its place (migration); a block reaching its rated cycles is retired. When a pool's
// live blocks no longer hold its share of the logical space plus the cleaning reserve, the device
// has reached its end of life (EndOfLife).
//
// Memory: 4 bytes of map per logical page, the NAND array's ~4.3 bytes per physical page, and ~36
// bytes per block (victim buckets 16, wear counters 16, free lists 4; the wear leveler's
// erase-order queue, up to 32 more, only with migration): about 8.3 bytes per physical page at 15%
// over-provisioning and 64 pages per block (README "Performance").
//
// Parts, each with its own state and piece of the checkpoint: Placement (page_mapped_placement.h:
// active blocks, free lists, plane choice), CleaningTrigger (page_mapped_trigger.h: marks, scope,
// granularity), VictimChoice (page_mapped_victims.h: sealed blocks, the victim policy, victims in
// progress, rate-limiting, the cold-block search). The core keeps the map, data path and page
// moves: page_mapped.cpp (mapping, host writes, reads, trim), page_mapped_cleaning.cpp (moving a
// victim's pages, erasing, migration, retirement, end of life), page_mapped_state.cpp
// (checkpoints), page_mapped_recovery.cpp (mount after a power cut), page_mapped_invariants.cpp,
// dftl.cpp (DFTL's translation pages, map cache). Internal to ftl/: the registry makes it by name.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <stdexcept>

#include "common/error.h"
#include "common/huge_pages.h"
#include "common/prefetch.h"
#include "ftl/dftl_map_cache.h"
#include "ftl/ftl.h"
#include "ftl/page_mapped/page_mapped_fdp.h"
#include "ftl/page_mapped/page_mapped_placement.h"
#include "ftl/page_mapped/page_mapped_slc_cache.h"
#include "ftl/page_mapped/page_mapped_trigger.h"
#include "ftl/page_mapped/page_mapped_units.h"
#include "ftl/page_mapped/page_mapped_victims.h"
#include "ftl/page_mapped/page_mapped_wordlines.h"
#include "ftl/pools.h"
#include "ftl/wear_leveler.h"

namespace ssdlab::ftl::page_mapped {

using flash::BlockId;
using flash::Command;
using flash::kNoPage;
using flash::Op;
using flash::Ppn;

class PageMappedFtl final : public Ftl, private CleaningWork {
 public:
  // `demand_mapped`: DFTL (dftl.cpp) rather than the plain page-mapped FTL.
  explicit PageMappedFtl(const FtlContext& context, bool demand_mapped = false);

  std::string_view name() const override { return cache_ ? "dftl" : "page-mapped"; }
  void prefetch(Lpn soon, Lpn later) const override;
  std::uint64_t logical_pages() const override { return logical_pages_; }
  // The open blocks of every plane and the static SLC blocks; the pools' low-water free blocks.
  SpareBlocks spare_blocks() const override {
    return {std::uint64_t{geometry_.planes()} * open_blocks_per_plane(cache_ != nullptr) +
                std::uint64_t{slc_.static_blocks()} * layout_.pools(),
            std::uint64_t{trigger_.low_water_blocks()} * layout_.pools()};
  }
  void write(const PageRange& range, CommandList& out) override;
  // With map units, the units of all runs fill pages together (a write
  // buffer's flush packs them); padded only where pages are left open.
  void write_runs(PageRuns runs, CommandList& out) override;
  void read(const PageRange& range, CommandList& out) override;
  void trim(const PageRange& range, CommandList& out) override;
  void close_wordlines(CommandList& out, bool align_pairs = false) override;
  void close_wordlines_functionally() override;
  bool is_mapped(Lpn lpn) const override { return map_[lpn] != kNoPage; }
  // Idle folding waits for the host to stop ("when write activity stops",
  // docs/current-devices.md [S9]): between requests the cache keeps taking
  // writes, as drives do, and a write buffer's gaps between flushes are no
  // folding time. Cleaning (ftl.clean_high_water) runs on idle dies either way.
  bool wants_background_cleaning(std::uint32_t pool, bool host_idle) const override {
    return trigger_.wants_background(pool) ||
           (host_idle && slc_.on() && slc_.config().idle_fold && slc_.has_sealed(pool));
  }
  void clean_in_background(std::uint32_t pool, CommandList& out) override;
  void check_invariants() const override;
  flash::NandArray* flash_for_power_cut() override { return &nand_; }
  Ppn locate(Lpn lpn) const override { return map_[lpn]; }
  void recover(RecoveryPolicy policy, CommandList& out, RecoveryReport& report) override;
  const FtlStats& stats() const override { return stats_; }
  const FtlConfig& config() const override { return config_; }
  const flash::NandArray& nand() const override { return nand_; }
  PartRecords part_records() const override;
  void update_reclaim_unit_handle(std::uint8_t id, CommandList& out) override;
  void set_time(TimeNs now) override { fdp_.set_time(now); }
  void media_reallocated(std::uint64_t pages) override { fdp_.reallocated(pages); }
  std::uint32_t parallel_pools() const override;
  std::uint32_t pool_of_page(Lpn lpn) const override { return pool_of(lpn); }
  std::uint32_t write_handle(Lpn lpn, std::uint8_t placement) const override {
    return fdp_.on() ? fdp_.handle_of(placement, lpn) : 0;
  }
  std::uint32_t host_wordline_pages(std::uint32_t pool) const override {
    return !host_in_slc_.empty() && host_in_slc_[pool] ? 1 : config_.wordline_pages;
  }
  void set_pool_parallel(bool on) override;
  void set_lists_unread(bool unread) override { lists_unread_ = unread; }
  void explain_victims(VictimExplanations* into) override { victims_.explain_into(into); }
  // page_mapped_state.cpp
  void save_state(StateWriter& out) const override;
  void load_state(StateReader& in) override;

 private:
  records::FdpCounters fdp_record() const;  // (placement on: part_records())
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
  // A pool's cleaning reserve in blocks: its low-water mark, two partly filled active blocks
  // per plane (and those of placement handles) and one more block.
  std::uint32_t reserve_blocks() const {
    return trigger_.low_water_blocks() +
           (2 + fdp_.extra_active_per_plane()) * layout_.planes_per_pool() + 1;
  }
  // Blocks open per plane: host, cleaning, FDP handles', the SLC cache's, `dftl` translation.
  std::uint32_t open_blocks_per_plane(bool dftl) const {
    return 2 + fdp_.extra_active_per_plane() + (slc_.on() ? 1 : 0) + (dftl ? 1 : 0);
  }
  // Data pages outside the reserve and open blocks (spare_blocks(); `dftl`: translation blocks).
  std::uint64_t workable_pages(bool dftl = false) const;
  // The logical pages the host sees (DFTL may take some back for its
  // translation pages). Throws if not one stripe over all pools is left.
  std::uint64_t exported_pages(double overprovisioning) const;
  // A page of `kind` in turn in `pool` (host data, DFTL's translation pages), after the
  // foreground cleaning the trigger asks for; or near the victim's plane (cleaning's moves).
  // `what` names it in the errors.
  Ppn allocate_in_turn(std::uint32_t pool, WriteKind kind, CommandList& out, const char* what) {
    trigger_.before_write(pool, placement_.turn(pool, kind), out);  // foreground cleaning
    if (kind == WriteKind::kTranslation) end_translation_wordlines(pool, true, out);
    const Ppn ppn = placement_.take_in_turn(pool, kind);
    if (ppn == kNoPage) [[unlikely]]
      no_room(pool, what);
    return ppn;
  }
  Ppn allocate_near(std::uint32_t victim_plane, WriteKind kind, const char* what,
                    CommandList& out) {
    const Ppn ppn = placement_.take_near(victim_plane, kind);
    if (ppn == kNoPage) [[unlikely]]
      return room_near(victim_plane, kind, what, out);
    return ppn;
  }
  // Throws: no room in `pool`, or near `victim_plane` even after room_near() (waiting victims
  // erased, a host block handed over); EndOfLife once blocks of its pool have been retired.
  [[noreturn]] void no_room(std::uint32_t pool, const char* what) const;
  Ppn room_near(std::uint32_t victim_plane, WriteKind kind, const char* what, CommandList& out);
  // Programs `command`'s page with its logical page on the NAND array and
  // place()s the command.
  void program(const Command& command, CommandList& out) {
    nand_.program(command.ppn, command.lpn);
    place(command, out);
  }
  // Appends a program's `command` to `out` (map units: with the rest of its
  // flash page, UnitPages); a block's last data page closes it.
  void place(const Command& command, CommandList& out);
  // Map units: pads every flash page still partly written (with
  // `cleaning_only`, those cleaning writes: before an erase) and appends its
  // commands (page_mapped_units.h); a block that fills is closed, but for
  // `closed_by_caller`. At the end of each call that programs.
  void close_open_pages(CommandList& out, BlockId closed_by_caller = kNoBlock,
                        bool cleaning_only = false);
  void close_page_of(Ppn ppn, CommandList& out);  // (the open page holding a move to `ppn`)
  void pad_unit(const Command& padding, BlockId closed_by_caller, CommandList& out);  // (one slot)
  // One-shot wordlines: pads each open one of `pool` (with `cleaning_only`, those of cleaning's
  // writes: before an erase) and appends its commands, flash pages closed first
  // (page_mapped_wordlines.h); pad_wordline() pads one to its end, in its last program's stage.
  void pad_wordlines(std::uint32_t pool, CommandList& out, bool cleaning_only);
  void pad_wordline(const OpenWordlines::Open& open, CommandList& out);
  // DFTL on one-shot cells: pads the open wordlines of `pool`'s translation
  // blocks the other chain (`of_cleaning`: cleaning) wrote (page_mapped_units.cpp).
  void end_translation_wordlines(std::uint32_t pool, bool of_cleaning, CommandList& out);
  // Two-plane programs need their planes at one page offset: pads the host block of each plane
  // pair that is behind its pair's (a partly flushed stripe, the SLC cache's last write) up to the
  // other's offset (close_wordlines(out, true)).
  void align_plane_pairs(CommandList& out);
  // Programs `block`'s pages from its write pointer up to `end` (at most its
  // data pages) with no data: `padding` at each (counted in padding_pages).
  void pad_block(BlockId block, std::uint32_t end, Command padding, CommandList& out);
  // One-shot wordlines: the end of `block`'s wordline its write pointer is in.
  std::uint32_t wordline_end(BlockId block) const;
  // One-shot wordlines, for two-plane merges (ftl/pools.h): the page before a page in its
  // wordline, kNoPage for a wordline's first; null without.
  std::function<Ppn(Ppn)> wordline_order() const;
  // Host data of up to `count` logical pages of one pool from `lpn` on: the first where
  // placement puts it (after the foreground cleaning and folding it needs), with map units
  // the next ones in the rest of its flash page. Returns the pages written (1 without units).
  std::uint32_t write_host_pages(Lpn lpn, std::uint32_t count, WriteKind host_kind,
                                 std::uint8_t stage, CommandList& out);
  // One range of write_runs(), before open pages are closed.
  void write_run(const PageRange& range, CommandList& out);
  void write_placed_run(const PageRange& range, CommandList& out);  // (FDP: page_mapped_ruh.cpp)
  // Closes the reclaim unit of handle `slot` in `group` (with `expired_only`, if the time limit
  // ended one of its blocks); whether it closed one. The time limit's, before each write.
  bool close_reclaim_unit(WriteKind slot, std::uint32_t group, bool expired_only, CommandList& out);
  void close_expired_reclaim_units(CommandList& out);
  // Map units or one-shot wordlines: the page for a host unit of `kind` in `pool`, the next
  // of the flash page (wordline) the call is filling there if any, else a page in turn;
  // fill_from() notes the next after a write ending at `next`.
  Ppn allocate_filling(std::uint32_t pool, WriteKind kind, CommandList& out);
  void fill_from(std::uint32_t pool, Ppn next, WriteKind kind);
  // Closes `block`, whose data pages are all written: with summary pages its
  // summary page's program (in `closing`'s stage, cleaning if it is), then
  // the seal (a victim candidate, no longer active).
  void close_block(BlockId block, const Command& closing, CommandList& out);
  // Closes `block` before its data pages are all written: the rest stay
  // unwritten until its erase (no flash time: the controller records that
  // the block is closed), then close_block().
  void close_unwritten(BlockId block, const Command& closing, CommandList& out);
  void supersede(Ppn ppn) {
    nand_.invalidate(ppn);
    victims_.superseded(geometry_.block_of(ppn));
  }
  void unmap(Lpn lpn, CommandList& out);
  void append_reads(Lpn lpn, std::uint8_t stage, CommandList& out);
  // SLC cache (page_mapped_slc_cache.h): where the next host page of `pool`
  // goes, SLC or native cells (`native`: the host write's own kind, its
  // placement handle's), after the foreground folding the cache needs.
  WriteKind cache_write_kind(std::uint32_t pool, WriteKind native, CommandList& out);
  // Counts the host page the last allocation placed at `first` (`kind`),
  // and the SLC block it opened, if it did; samples the cache's size.
  // `fresh`: the logical page was not mapped before (the fill grows).
  void after_cache_write(std::uint32_t pool, WriteKind kind, Ppn first, bool fresh);
  // The SLC cache's count of mapped logical pages, from the map (after a
  // load or a mount; only where a size_by_fill table uses it).
  void recount_mapped();
  // Folds `pool`'s next sealed cache block: its valid pages into native
  // cells (as cleaning moves them), then its erase (page_mapped_cleaning.cpp).
  void fold(std::uint32_t pool, bool foreground, CommandList& out);
  // Folds `block`, a sealed cache block of `pool` taken out of the cache's list.
  void fold_block(std::uint32_t pool, BlockId block, bool foreground, CommandList& out);
  // Erases a block no longer holding valid data: on the NAND array, as a
  // cleaning command of `stage` in `out`, and counted.
  void erase_block(BlockId block, std::uint8_t stage, CommandList& out);
  // erase_block(), then the block is free again (or retired, worn out).
  void erase_and_free(BlockId block, std::uint8_t stage, CommandList& out);
  // Synchronous gangs: rewrites the mapped `lpn`, which the host writes in
  // part, by one copy-back with the host's data into its own plane. False
  // (and nothing done but cleaning) if that plane has no room.
  bool rewrite_by_copy_back(Lpn lpn, WriteKind kind, CommandList& out);
  // Starts loading what superseding page `old` touches (its NAND state and
  // its block's victim-bucket entry) into the cache.
  void prefetch_page_state(Ppn old) const {
    nand_.prefetch(old);
    victims_.prefetch(geometry_.block_of(old));
  }
  // Starts loading the map entries of the valid pages from `next` up to
  // `end` (of a cleaning victim) into the cache; `next` ends past them.
  void prefetch_map_entries(Ppn& next, Ppn end) const;

  // CleaningWork (page_mapped_cleaning.cpp), for the trigger.
  bool cleanable(std::uint32_t group) const override { return victims_.cleanable(group); }
  bool has_victim_in_progress(std::uint32_t group) const override {
    return victims_.in_progress(group).victim != kNoBlock;
  }
  std::uint32_t fewest_valid_pages(std::uint32_t group) const override {
    return victims_.fewest_valid_pages(group);
  }
  std::uint32_t waiting_erases(std::uint32_t group) const override;  // map units: unerased_
  void clean_victim(std::uint32_t group, CommandList& out) override;
  std::uint32_t clean_pages(std::uint32_t group, std::uint32_t budget, CommandList& out) override;
  void cleaning_done(CommandList& out) override;  // map units: unerased_'s erases
  // Takes the victim choice's block for `group` as its victim in progress. Throws if nothing
  // can be freed; false if, instead, the victims waiting for their erase were erased.
  bool start_victim(std::uint32_t group, CommandList& out);
  // ftl.fdp_reclaim = "unit": the next block of the reclaim unit cleaning
  // takes in `pool`, or ReclaimUnits::kNoUnitBlock (page_mapped_reclaim_units.h).
  BlockId unit_victim(std::uint32_t pool);
  // Moves up to `budget` valid pages of `group`'s victim in progress; erases it when none is
  // left (map units: once its units are programmed, erase_unerased()). Returns the pages moved.
  std::uint32_t continue_victim(std::uint32_t group, std::uint32_t budget, CommandList& out);
  // Moves up to `budget` valid pages of `cleaning`'s block from its `next` page on (to
  // move_target_plane() first); returns the pages moved; done when `next` is at its end.
  std::uint32_t move_pages(InProgress& cleaning, std::uint32_t budget, CommandList& out);
  std::uint32_t move_target_plane(BlockId victim);  // its own, or in turn (ftl.move_plane)
  void erase_victim(BlockId victim, std::uint32_t moved, CommandList& out);
  void erase_unerased(CommandList& out);     // the cleaned victims whose moves are on flash
  bool moves_on_flash(BlockId block) const;  // map units: no open page or wordline holds one
  // §5 migration: fills the erased, worn `worn` with the valid data of a cold
  // block of its pool and erases that one. False if no block is cold.
  bool migrate_cold_data(BlockId worn, std::uint32_t pool, CommandList& out);
  // The victim policy's logical clock (victim_policy.h): host pages written.
  std::uint64_t clock() const { return stats_.host_pages_written; }
  // The block just erased wore out: it is out of service for good (in no
  // free list); throws EndOfLife if the pool can no longer hold its data.
  void retire(std::uint32_t pool);
  // Recovery: gives every block its role from what the scan found.
  void adopt_blocks(CommandList& out);
  // Recovery: programs padding up to the end of `block`'s data pages and
  // closes it (an SLC block is sealed into the cache by the caller).
  void pad_and_close(BlockId block, CommandList& out);
  [[noreturn]] void end_of_life(std::uint32_t pool, const std::string& why) const;

  // DFTL (dftl.cpp): demand-based mapping over this FTL's data path.
  // Capacity: translation pages and their active blocks out of the spare
  // space; returns the number of translation pages.
  std::uint64_t set_up_translation(std::uint64_t capacity_entries);
  bool is_translation(Lpn lpn) const { return lpn != flash::kNoLpn && lpn >= logical_pages_; }
  // The map lookup of a host request for `lpn`: a cache hit, or a miss that
  // evicts (writing back dirty translation pages) and reads its translation page.
  void translate(Lpn lpn, CommandList& out);
  void translate_all(PageRuns runs, CommandList& out);  // each page of a request's runs
  // Writes translation page `page` (read-modify-write) with its cached entries.
  void write_back(std::uint32_t page, CommandList& out);
  // Evicts until the cache has room for `entries` more.
  void make_room(CommandList& out, std::uint64_t entries);
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

  // The FTL's pages: the flash's, or its map units (page_mapped_units.h).
  UnitPages units_;
  // Map units or one-shot wordlines: per pool, the next free slot of the
  // host page (wordline) the current call is filling and its kind (kNoPage:
  // none; reset when pages close).
  struct FillingPage {
    Ppn next = kNoPage;
    WriteKind kind = WriteKind::kHost;
  };
  std::vector<FillingPage> filling_;
  flash::FastGeometry geometry_;
  FtlConfig config_;
  flash::NandArray nand_;
  PoolLayout layout_;
  OpenWordlines wordlines_;
  std::uint32_t pages_per_lpn_;
  // Data pages per block: all of them, or with summary pages (ftl.summary_page)
  // all but the last, and the bytes a summary page moves (0: none).
  std::uint32_t data_pages_;
  std::uint16_t summary_bytes_;
  FastDiv stripe_lpns_;  // logical pages per stripe (a divisor: pool_of())
  // Partial writes of a logical page are copy-backs with the host's data
  // (a synchronous gang, copy-back on, one gang page per logical page).
  bool rmw_by_copy_back_;
  WearLeveler wear_;
  // The parts (after what they refer to).
  Placement placement_;
  FdpPlacement fdp_;            // host-guided placement (before what sizes the reserve)
  ReclaimUnits reclaim_units_;  // cleaning by whole reclaim units (ftl.fdp_reclaim)
  CleaningTrigger trigger_;
  VictimChoice victims_;
  SlcCache slc_;
  std::uint64_t logical_pages_;
  // lpn -> first physical page, or kNoPage (in huge pages). DFTL: then one
  // entry per translation page, its global translation directory (GTD).
  HugeVector<Ppn> map_;
  std::unique_ptr<MapCache> cache_;  // DFTL only
  std::uint32_t entries_per_translation_page_ = 0;
  // Translation pages the current request read or wrote: the controller
  // still holds them, so a later miss on one reads no flash (per request).
  std::vector<Lpn> request_written_;
  std::vector<std::pair<BlockId, std::uint32_t>> unerased_;  // cleaned victims (and moved units)
  std::vector<std::uint32_t> retired_;                       // per pool
  std::vector<std::uint8_t> host_in_slc_;  // per pool: its last host write went to SLC (one-shot)
  std::uint32_t needed_blocks_;            // per pool: its logical share plus the cleaning reserve
  FtlStats stats_;
  std::vector<FtlStats> pool_stats_;  // per pool, between set_pool_parallel(true) and (false)
  bool lists_unread_ = false;         // set_lists_unread()
};

}  // namespace ssdlab::ftl::page_mapped
