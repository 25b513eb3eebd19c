// Greedy victim selection without scanning blocks (Agrawal et al. §3.2:
// "choosing blocks to recycle based on potential cleaning efficiency").
//
// Sealed blocks (full, no longer written) of each pool sit in buckets by valid
// page count, as intrusive doubly linked lists. Updating a block's count is
// O(1); picking the block with the fewest valid pages scans at most
// pages_per_block + 1 bucket heads, so its cost does not grow with the device.
// Memory: 16 bytes per block (0.25 bytes per page on the baseline). A
// block's links, pool and count share one 16-byte record, so updating a
// block touches one cache line of its own (plus its list neighbours').
#pragma once

#include <cstdint>
#include <vector>

#include "common/huge_pages.h"
#include "common/prefetch.h"
#include "common/state_io.h"
#include "flash/geometry.h"

namespace ssdlab::ftl {

class VictimBuckets {
 public:
  static constexpr flash::BlockId kNone = ~flash::BlockId{0};

  VictimBuckets(std::uint32_t blocks, std::uint32_t pools, std::uint32_t pages_per_block);

  // Adds a sealed block of `pool` holding `valid` valid pages.
  void insert(flash::BlockId block, std::uint32_t pool, std::uint32_t valid);
  // Removes a block (it is being cleaned).
  void remove(flash::BlockId block);
  // The block's valid count dropped by one (a page was superseded).
  void decrement(flash::BlockId block);
  bool contains(flash::BlockId block) const { return blocks_[block].valid != kAbsent; }
  // Starts loading `block`'s record into the cache (a hint: changes nothing).
  void prefetch(flash::BlockId block) const { prefetch_for_write(&blocks_[block]); }

  // The sealed block of `pool` with the fewest valid pages (the oldest
  // inserted among equals), or kNone if the pool has no sealed block.
  flash::BlockId fewest_valid(std::uint32_t pool) const;
  // Valid pages of a sealed block, as last recorded.
  std::uint32_t valid(flash::BlockId block) const { return blocks_[block].valid; }
  // The pool a sealed block was inserted under.
  std::uint32_t pool(flash::BlockId block) const { return blocks_[block].pool; }
  std::uint32_t sealed_blocks(std::uint32_t pool) const { return sealed_[pool]; }
  // Up to `count` sealed blocks of `pool` with the fewest valid pages, in the
  // order fewest_valid() would take them (for --trace-ftl; O(count) plus the
  // bucket heads up to the last one listed).
  std::vector<flash::BlockId> fewest(std::uint32_t pool, std::size_t count) const;

  // Checkpoints: the lists as they are (section "VBKT"), so that blocks with
  // equal counts still leave in the order they came.
  void save_state(StateWriter& out) const;
  void load_state(StateReader& in);

 private:
  static constexpr std::uint16_t kAbsent = 0xffff;
  std::size_t head_index(std::uint32_t pool, std::uint32_t valid) const {
    return std::size_t{pool} * buckets_per_pool_ + valid;
  }
  void link(flash::BlockId block, std::size_t head);
  void unlink(flash::BlockId block);

  std::uint32_t buckets_per_pool_;
  std::vector<flash::BlockId> head_;  // first block of each (pool, valid) bucket
  std::vector<flash::BlockId> tail_;  // last block, so equals leave in insertion order
  struct Record {
    flash::BlockId next = kNone, prev = kNone;
    std::uint32_t pool = 0;
    std::uint16_t valid = kAbsent;  // kAbsent if not in a bucket
  };
  HugeVector<Record> blocks_;          // in huge pages once large (common/huge_pages.h)
  std::vector<std::uint32_t> sealed_;  // per pool
};

}  // namespace ssdlab::ftl
