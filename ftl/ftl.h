// The FTL interface: a functional state machine that never looks at a clock.
//
// For a host request an FTL updates its maps and appends the flash commands
// that must happen to a CommandList (DESIGN.md, "what and when"); the
// controller decides when they run. A new FTL is one .cpp file plus one line in
// registry.cpp; its own config keys live in that file too (ftl_keys.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "common/state_io.h"
#include "common/units.h"
#include "flash/command.h"
#include "flash/geometry.h"
#include "flash/nand_array.h"
#include "ftl/fdp_config.h"
#include "ftl/ftl_keys.h"
#include "ftl/slc_cache_config.h"
#include "ftl/wear_leveler.h"
#include "ftl/zones.h"
#include "records/fdp_counters.h"
#include "records/ftl_counters.h"
#include "records/slc_cache_counters.h"

namespace ssdlab::ftl {

using flash::CommandList;
struct VictimExplanations;  // ftl/victim_explanation.h
using flash::Lpn;

// Scope of an allocation pool (Agrawal et al. §3.1): each logical page is
// statically mapped to one pool by striping; inside the pool it is mapped
// dynamically.
enum class PoolScope { kSsd, kChannel, kPackage, kDie, kPlane };
const char* pool_scope_name(PoolScope scope);

struct FtlConfig {
  std::string type = "page-mapped";
  std::uint32_t logical_page_size = 4096;  // bytes mapped by one map entry
  std::uint32_t stripe_size = 4096;        // bytes of consecutive logical space per pool
  PoolScope pool = PoolScope::kPackage;
  double overprovisioning = 0.15;  // fraction of physical space hidden from the host
  bool two_plane = true;           // merge same-die programs/reads on allowed pairs
  bool copy_back = true;           // move pages inside a plane without the bus
  // Foreground cleaning starts when a pool's free blocks fall below this
  // fraction of its blocks (Agrawal et al. §4.3: 5%).
  double clean_low_water = 0.05;
  // Background cleaning: while a pool's dies are idle, clean until its free
  // blocks reach this fraction. 0 turns it off.
  double clean_high_water = 0.0;
  // Does a write that triggers foreground cleaning wait for it (Agrawal §4.1:
  // "additional delay is introduced to account for it")? If not, cleaning
  // only competes with host commands for buses and dies.
  bool cleaning_blocks_writes = true;
  // Wear leveling (Agrawal et al. §5; wear_leveler.h). Blocks that reach the
  // rated cycles (geometry pe_cycles) are retired whatever the mode.
  WearConfig wear;
  // Page-mapped and DFTL: an SLC cache on cells of several bits
  // (`[slc_cache]`, slc_cache_config.h). The other FTLs refuse one.
  SlcCacheConfig slc_cache;
  // Page-mapped and DFTL: host-guided data placement (`ftl.placement`,
  // fdp_config.h): FDP reclaim unit handles or streams. Off: none.
  PlacementConfig placement;
  // Derived, not a key (the config reader sets it from timing.cell.program):
  // the pages of a wordline the flash programs at once, the bits per cell of
  // a one-shot multi-bit cell (flash/cell.h), for the FTLs that make the
  // wordline the unit of durability (FtlKeyHooks::one_shot_wordlines: a page
  // of such a wordline is on flash only when its wordline is programmed, and
  // they pad one they cannot fill, close_wordlines()); else 1.
  std::uint32_t wordline_pages = 1;
  // The host sector (host.sector_size; the config reader copies it here):
  // the unit of the summary page's transfer (summary_page_bytes()).
  std::uint32_t sector_size = 512;
  // The chosen FTL's own keys, as its `read` hook parsed them (ftl_keys.h):
  // keys.get<MyKeys>() in its factory (page-mapped's cleaning scope,
  // granularity, victim policy, plane choice and summary page:
  // PageMappedKeys, page_mapped_keys.h, which dftl holds too beside its map
  // cache's DftlKeys, dftl_map_cache.h; the block FTLs' virtual blocks and
  // log blocks: BlockKeys, block_keys.h).
  FtlKeys keys;
};

// Bytes one summary page moves over the bus, written or read at mount: whole
// sectors of `sector_size` data bytes, each with its share of the page's OOB
// (sector_size * oob_size / page_size: 512 + 16 = 528 B on the baseline, as
// DiskSim's SSD_BYTES_PER_SECTOR, ssd.h:225-227). It takes as many sectors as
// 8 bytes per data page (4 for its logical page, 4 for its write sequence
// number past the block's first) plus the 8-byte first one need: one for a
// 64-page block (63 * 8 + 8 = 512), as DiskSim's SSD_SECTORS_PER_SUMMARY_PAGE
// (ssd.h:230).
std::uint32_t summary_page_bytes(const flash::Geometry& geometry, std::uint32_t sector_size);

// Bytes of DRAM one cached DFTL map entry takes (logical and physical page
// number, 4 bytes each, as in Gupta et al.'s Cached Mapping Table).
constexpr std::uint64_t kDftlCacheEntryBytes = 8;

// Logical pages [first, first + count). A partial page is one the host request
// covers only in part: writing it is a read-modify-write.
struct PageRange {
  Lpn first = 0;
  std::uint32_t count = 0;
  bool partial_first = false;
  bool partial_last = false;
  // The write's placement identifier (HostIo::placement): its handle or
  // stream, 0 the default. Only FTLs with ftl.placement on look at it.
  std::uint8_t placement = 0;
};

// Several host writes' ranges written as one (a write buffer's flush, a
// batch of preconditioning writes; ftl/page_runs.h builds them): sorted by
// first page, disjoint, of whole logical pages.
using PageRuns = std::span<const PageRange>;

// The counters every FTL keeps (records/ftl_counters.h, which says what
// each counts): one struct, which the FTL fills and the summary and the
// checkpoint walk through its field list. FtlStats is its name in the FTL
// interface (out-of-tree FTLs use it).
using FtlStats = records::FtlCounters;

// How recovery picks a logical page's latest instance in the OOB scan:
// by write sequence number (what a correct FTL does), or the last instance in
// block order (deliberately wrong: tests show it loses writes).
enum class RecoveryPolicy { kSequenceNumbers, kLastInBlockOrder };

// What a mount after a power cut did (oob_scan.h).
struct RecoveryReport {
  std::uint64_t pages_read = 0;      // OOB reads of the scan
  std::uint64_t mount_commands = 0;  // flash commands recovery appended (merges, padding)
};

class Ftl {
 public:
  virtual ~Ftl() = default;

  virtual std::string_view name() const = 0;
  // Logical pages exported to the host (capacity after over-provisioning).
  virtual std::uint64_t logical_pages() const = 0;
  std::uint32_t logical_page_size() const { return config().logical_page_size; }
  // Flash blocks that hold no superseded data in steady state besides the
  // exported capacity's: `open`, the partly written blocks the FTL writes
  // into (page-mapped: a host and a cleaning block per plane), and
  // `kept_free`, the free blocks cleaning keeps in reserve (its low-water
  // mark). Over-provisioning beyond them is what cleaning can use. Zeros
  // where an FTL does not say (the block-based FTLs, whose spare is their
  // log blocks).
  struct SpareBlocks {
    std::uint64_t open = 0;
    std::uint64_t kept_free = 0;
  };
  virtual SpareBlocks spare_blocks() const { return {}; }

  // Appends the commands for a host write, read or trim of `range`, which lies
  // inside [0, logical_pages()). Reads of never-written pages append nothing.
  virtual void write(const PageRange& range, CommandList& out) = 0;
  // The write of several ranges (PageRuns) in one call: an FTL that packs
  // logical pages into larger flash pages fills them from all of them (the
  // page-mapped FTL's map units); by default, one write() per range.
  virtual void write_runs(PageRuns runs, CommandList& out) {
    for (const PageRange& run : runs) write(run, out);
  }
  // A hint: the host accesses `soon` next and `later` after it (kNoLpn:
  // unknown). Starts loading the state they will touch into the cache (the
  // map entry of `later`, and what `soon`'s entry, loaded by the hint
  // before, points to), so that the two dependent cache misses of an access
  // overlap with the work before it. Changes nothing.
  virtual void prefetch(Lpn /*soon*/, Lpn /*later*/) const {}
  // One-shot wordlines (FtlConfig::wordline_pages > 1; issue 54 item 1): the
  // controller has nothing more for the wordlines the commands in `out`
  // left partly programmed (a host write it cannot hold, a write buffer's
  // flush): the FTL programs their remaining pages with no data (padding,
  // counted in padding_pages) and appends those commands, so that each
  // page's command list ends with its wordline's program. With
  // `align_pairs` (a write buffer's flush, whose planes program their
  // wordlines together) also the host block of each two-plane pair that is
  // behind its pair's, up to the same page offset. FTLs that keep no partly
  // programmed wordlines, or cannot pad one, do nothing.
  virtual void close_wordlines(CommandList& /*out*/, bool /*align_pairs*/ = false) {}
  // The end of functional writes (preconditioning, prefill; no time passes):
  // the wordlines they left open are padded with no flash work (still
  // counted), so that what they wrote is on flash as a functional write
  // promises, and the first timed request pays for none of it.
  virtual void close_wordlines_functionally() {}
  virtual void read(const PageRange& range, CommandList& out) = 0;
  virtual void trim(const PageRange& range, CommandList& out) = 0;
  // True if `lpn` holds data (written and not trimmed since).
  virtual bool is_mapped(Lpn lpn) const = 0;

  // Foreground cleaning happens inside write(): its commands are appended with
  // `cleaning` set. Background cleaning is offered by the controller when a
  // pool is idle, `host_idle` when the host has nothing outstanding (an idle
  // period) rather than between its requests; FTLs that do not clean in the
  // background keep these defaults.
  virtual bool wants_background_cleaning(std::uint32_t /*pool*/, bool /*host_idle*/) const {
    return false;
  }
  virtual void clean_in_background(std::uint32_t /*pool*/, CommandList& /*out*/) {}
  // --trace-ftl: while `into` is set and wants them, each victim's candidates
  // are appended to it (victim_explanation.h). FTLs that do not say keep this.
  virtual void explain_victims(VictimExplanations* /*into*/) {}

  // Throws std::logic_error if any internal invariant is broken (maps and
  // reverse maps agree, valid counts, free lists). O(device size).
  virtual void check_invariants() const = 0;

  virtual const FtlStats& stats() const = 0;
  virtual const FtlConfig& config() const = 0;

  // Preconditioning on several threads (sim/state/precondition.h). Non-zero
  // (the number of pools) if, as configured, writes of whole logical pages of
  // different pools (pool_of_page()) touch disjoint state, so that between
  // set_pool_parallel(true) and set_pool_parallel(false) each pool's writes
  // may run on a thread of their own, one page per write(), and leave
  // exactly the state (counters included) that the same writes leave one
  // after another. 0: this FTL cannot; the defaults.
  virtual std::uint32_t parallel_pools() const { return 0; }
  virtual std::uint32_t pool_of_page(Lpn /*lpn*/) const { return 0; }
  // With host-guided placement, the handle a host write of `lpn` with
  // placement identifier `placement` (HostIo::placement's identifier) goes
  // to; 0 without. Writes of one pool and handle fill the same flash pages:
  // a write buffer packs them per pool and handle (sim/controller/
  // page_packing.h).
  virtual std::uint32_t write_handle(Lpn /*lpn*/, std::uint8_t /*placement*/) const { return 0; }
  // The pages of a wordline the next host writes of `pool` fill (a write
  // buffer packs its flushes in them): FtlConfig::wordline_pages, or 1
  // while they go to blocks in SLC mode (an SLC cache).
  virtual std::uint32_t host_wordline_pages(std::uint32_t /*pool*/) const {
    return config().wordline_pages;
  }
  virtual void set_pool_parallel(bool /*on*/) {}
  // Between set_lists_unread(true) and (false) no one reads the command
  // lists write() and write_runs() emit (functional writes with no observer,
  // power-cut recorder or error part: sim/controller/ssd.cpp): the FTL may
  // skip work that only shapes a list (two-plane merging, or the page-mapped
  // FTL's whole-page programs, which it then leaves out). Its state is the
  // same either way.
  virtual void set_lists_unread(bool /*unread*/) {}
  virtual const flash::NandArray& nand() const = 0;
  // The counter records of the FTL's parts (records/), each present when its
  // part is on; the summary collects them. A new part adds its record to
  // PartRecords, not a getter to every FTL.
  struct PartRecords {
    std::optional<records::SlcCacheCounters> slc_cache;  // what the SLC cache did ([slc_cache])
    std::optional<records::FdpCounters> fdp;  // what host-guided placement did (ftl.placement)
  };
  virtual PartRecords part_records() const { return {}; }
  // Host-guided placement: TP4146's Reclaim Unit Handle Update (an I/O
  // Management Send) for placement identifier `id`: its handle moves on to
  // a new reclaim unit in every reclaim group, leaving the current ones
  // not fully written. Only FTLs with ftl.placement on get one (the run
  // refuses the plan key elsewhere).
  virtual void update_reclaim_unit_handle(std::uint8_t /*id*/, CommandList& /*out*/) {}
  // The simulated time of the writes that follow (the FTL keeps no clock of
  // its own): host-guided placement's reclaim unit time limit needs it
  // (ftl.fdp_ru_time_limit; the controller sets it only then).
  virtual void set_time(TimeNs /*now*/) {}
  // The controller's read reclaim rewrote `pages` valid pages of a block (a
  // media reallocation: TP4146's Media Reallocated event with placement on).
  virtual void media_reallocated(std::uint64_t /*pages*/) {}
  // A zoned device's zone commands (zones.h; ftl.type = "zoned"); null for
  // a conventional FTL, whose logical space the host writes anywhere.
  virtual ZonedDevice* zoned() { return nullptr; }
  const ZonedDevice* zoned() const { return const_cast<Ftl*>(this)->zoned(); }

  // Power-loss simulation (sim/controller/power_cut.h). The NAND array a cut acts on:
  // what was on flash at the cut; null if this FTL cannot recover from a cut.
  virtual flash::NandArray* flash_for_power_cut() { return nullptr; }
  // The first flash page of `lpn`'s latest version, or kNoPage if unmapped
  // (the read-back check after a mount). FTLs that cannot recover keep this.
  virtual flash::Ppn locate(Lpn /*lpn*/) const { return flash::kNoPage; }
  // Mount after a power cut: forgets all controller RAM (maps, free lists,
  // victim buckets, wear-leveler queues, log blocks, the NAND valid bits) and
  // rebuilds it from what is on flash by an OOB scan (oob_scan.h). Appends
  // the flash commands the mount needs to `out` (hybrid FTLs merge the log
  // blocks they found). Afterwards check_invariants() holds. The default
  // refuses: an FTL that keeps no OOB sequence numbers cannot recover.
  virtual void recover(RecoveryPolicy policy, CommandList& out, RecoveryReport& report);
  // Checkpoints (README, "Checkpoints"): writes everything later requests
  // depend on (maps, NAND array, free lists, victim buckets, wear state and
  // its generator, stats) so that an FTL of the same config that loads it
  // emits the same commands from then on. What the config determines (sizes,
  // layout, thresholds) is rebuilt by the constructor, not saved; each part
  // writes its own versioned section. load_state() is called on a freshly
  // built FTL; it throws ssdlab::Error if the data does not fit it (the FTL
  // must then be discarded). An FTL that does not implement them (a student's,
  // at first) refuses with an Error naming it.
  virtual void save_state(StateWriter& out) const;
  virtual void load_state(StateReader& in);
};

// The counters of every FTL as section "STAT" (shared by all of them).
void save_stats(StateWriter& out, const FtlStats& stats);
void load_stats(StateReader& in, FtlStats& stats);
// Adds every counter of `from` (per-pool ones element by element) to `into`.
void add_counters(FtlStats& into, const FtlStats& from);

// The device can no longer keep its logical capacity: too many blocks are
// retired (worn out). Not a bug: the end of a lifetime run. The FTL's state
// may be half-way through a request; only its stats and NAND array may be
// read afterwards.
class EndOfLife : public Error {
 public:
  using Error::Error;
};

// What a factory gets to build an FTL.
struct FtlContext {
  flash::Geometry geometry;
  FtlConfig config;
  std::uint64_t seed = 0;
};

// Builds the FTL named `context.config.type`; throws ssdlab::Error listing the
// known names if there is none by that name.
std::unique_ptr<Ftl> make_ftl(const FtlContext& context);
std::vector<std::string> ftl_names();

// Ftl::set_lists_unread(true) for a scope, when `unread`, and (false) at
// its end, even when a write in it throws (the device's end of life).
class UnreadLists {
 public:
  UnreadLists(Ftl& ftl, bool unread) : ftl_(unread ? &ftl : nullptr) {
    if (ftl_) ftl_->set_lists_unread(true);
  }
  ~UnreadLists() {
    if (ftl_) ftl_->set_lists_unread(false);
  }
  UnreadLists(const UnreadLists&) = delete;
  UnreadLists& operator=(const UnreadLists&) = delete;

 private:
  Ftl* ftl_;
};

}  // namespace ssdlab::ftl
