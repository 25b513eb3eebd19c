// The SLC cache of the page-mapped FTL and DFTL (`[slc_cache]`,
// slc_cache_config.h; docs/reference/config.md, "SLC cache"): host writes go
// to blocks run one bit per cell (flash::NandArray's SLC mode: one page per
// wordline, at SLC read and program times) while the cache has room; full
// cache blocks are folded later, their valid pages moved into the native
// cells like a cleaning victim's, and erased.
//
// How much the cache may hold, per allocation pool:
//  - static: a fixed number of blocks (size_gib of SLC data), taken out of
//    the spare area (a static SLC region does not shrink the capacity a
//    drive exports; only where the spare cannot hold it does the capacity
//    give way), present at any fill;
//  - dynamic: free blocks, up to size_gib (plus a static part, static_gib,
//    as above), as long as the free blocks left still hold what folding the
//    cache would write (its blocks / bits per cell, native blocks) above the
//    cleaning reserve. As the logical space fills, the free blocks shrink and
//    so does the cache: must_shrink() asks for foreground folding. An
//    approximation: the cache's blocks count as full of valid data. With a
//    size_by_fill table (the firmware's rule, as makers publish it) the cache
//    opens no block beyond the table's size at the fill of the native cells
//    (the logical pages mapped less those in the cache), the free-space rule
//    staying an upper bound; blocks above it fold as usual.
// When it has no room, a host write goes to the native cells, or waits for
// the oldest (or emptiest: fold_order) cache block to be folded
// (when_full). In idle time the controller's background cleaner folds
// sealed cache blocks (idle_fold), preemptibly like background cleaning.
//
// This part keeps the cache's blocks and counters and decides; the FTL core
// moves the pages (page_mapped_cleaning.cpp). Owns its checkpoint section
// "SLCC".
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "common/state_io.h"
#include "flash/geometry.h"
#include "flash/nand_array.h"
#include "ftl/ftl.h"
#include "ftl/page_mapped/page_mapped_placement.h"
#include "ftl/pools.h"
#include "ftl/slc_cache_config.h"

namespace ssdlab::ftl::page_mapped {

class SlcCache {
 public:
  // `floor_blocks`: the free blocks a pool keeps for cleaning (its reserve).
  // Throws ssdlab::Error when the config cannot have a cache (cells of one
  // bit, summary pages, a logical page that does not fit an SLC block).
  SlcCache(const flash::FastGeometry& geometry, const PoolLayout& layout,
           flash::NandArray& nand, const FtlConfig& config, std::uint32_t pages_per_lpn,
           std::uint32_t floor_blocks);

  bool on() const { return config_.on(); }
  const SlcCacheConfig& config() const { return config_; }
  // Blocks per pool the static part holds (out of the spare area).
  std::uint32_t static_blocks() const { return static_blocks_; }

  // SLC blocks `pool` may open now, given its free blocks.
  std::uint32_t open_budget(std::uint32_t pool, std::uint32_t free_blocks) const;
  // The free blocks of `pool` no longer hold what folding its dynamic part
  // needs: fold a block before the next write.
  bool must_shrink(std::uint32_t pool, std::uint32_t free_blocks) const;

  // Placement opened an SLC block in `pool`.
  void opened(std::uint32_t pool);
  // A full SLC block: it waits to be folded.
  void sealed(std::uint32_t pool, flash::BlockId block) { sealed_[pool].push_back(block); }
  bool has_sealed(std::uint32_t pool) const { return !sealed_[pool].empty(); }
  // The sealed block folding empties next (fold_order); taken out of the
  // sealed blocks. Only if has_sealed().
  flash::BlockId take_next(std::uint32_t pool);
  // Idle folding: the next sealed block (fold_order) of each plane of `pool`
  // that has one, taken out of the sealed blocks, so that one round folds on
  // every such plane at once (a drive folds on all its dies; one block at a
  // time used one plane of the pool: fidelity review G2).
  std::vector<flash::BlockId> take_one_per_plane(std::uint32_t pool);
  // A cache block was folded (moved and erased): one block less in use.
  void folded(std::uint32_t pool, std::uint32_t moved, bool foreground);
  void absorbed(std::uint32_t pool, std::uint32_t pages) { pools_[pool].absorbed += pages; }
  void bypassed(std::uint32_t pool, std::uint32_t pages) { pools_[pool].bypassed += pages; }
  // Records the cache's size whenever the host has written another
  // `interval` pages (set once the logical capacity is known).
  void sample_every(std::uint64_t interval) { sample_every_ = next_sample_ = interval; }
  // The logical pages of the device and how many are mapped (the fill of a
  // size_by_fill table): set once known, then kept by mapped() and
  // unmapped() as host writes and trims change it (a recount after a load
  // or a mount).
  void set_logical_pages(std::uint64_t pages) { logical_pages_ = pages; }
  // Whether a size_by_fill table needs the count (a recount scans the map).
  bool counts_mapped() const { return !config_.size_by_fill.empty(); }
  void set_mapped(std::uint64_t pages) { mapped_ = pages; }
  void mapped() { ++mapped_; }
  void unmapped() { --mapped_; }
  // One point of the cache's size over time, if `host_pages` written is due.
  void sample(std::uint64_t host_pages);

  std::uint32_t blocks_in_use(std::uint32_t pool) const { return pools_[pool].in_use; }
  // What it did (summary.json "slc_cache"), over the pools.
  records::SlcCacheCounters stats() const;

  // Mount after a power cut: nothing in use; then adopt() counts each SLC
  // block the scan finds in `pool`, and sealed() takes the full ones in the
  // order they were written.
  void clear();
  void adopt(std::uint32_t pool);

  // Consistency: every sealed block is a full SLC block of its pool, listed
  // once; `active_slc` (per pool, Placement's SLC active blocks) plus the
  // sealed ones are the blocks in use. Throws std::logic_error.
  void check(const std::vector<std::uint32_t>& active_slc) const;

  void save_state(StateWriter& out) const;
  void load_state(StateReader& in);

 private:
  struct Pool {
    std::uint32_t in_use = 0;  // SLC blocks open or sealed
    std::uint64_t absorbed = 0, bypassed = 0, folded_pages = 0, folded_blocks = 0,
                  foreground_folds = 0, opened = 0;
    std::uint32_t peak = 0;
  };
  // Blocks of one pool `gib` of SLC data needs.
  std::uint32_t blocks_for(double gib) const;
  // The most blocks per pool the cache may hold now: most_blocks_, or with a
  // size_by_fill table its size at the fill (never below the static part).
  std::uint32_t limit_blocks() const;
  // A registered fold order's key of each sealed block of `pool`, in seal order.
  std::vector<std::uint64_t> registered_keys(std::uint32_t pool) const;
  // The greedy fold order: `a` holds fewer valid pages than `b`.
  bool emptier(flash::BlockId a, flash::BlockId b) const {
    return nand_.valid_pages(a) < nand_.valid_pages(b);
  }

  const flash::FastGeometry& geometry_;
  const PoolLayout& layout_;
  const flash::NandArray& nand_;
  SlcCacheConfig config_;
  std::uint32_t floor_blocks_ = 0;
  std::uint32_t pages_per_lpn_ = 1;
  std::uint32_t static_blocks_ = 0;  // per pool
  std::uint32_t most_blocks_ = 0;    // per pool, static part included
  std::vector<Pool> pools_;
  std::vector<std::deque<flash::BlockId>> sealed_;  // per pool, in seal order
  // Its size over time (records::SlcCacheCounters::size_host_pages).
  struct Sample {
    std::uint64_t host_pages = 0, blocks = 0;
  };
  std::vector<Sample> samples_;
  std::uint64_t next_sample_ = 0, sample_every_ = 0;
  std::uint64_t logical_pages_ = 0, mapped_ = 0;
};

}  // namespace ssdlab::ftl::page_mapped
