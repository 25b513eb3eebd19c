// Functional state of the NAND array: what is stored where, no timing.
//
// Per page: the logical page in its out-of-band area and a valid bit; per
// block: write pointer, valid-page count and erase count. That is 4 bytes and
// one bit per page plus 8 bytes per block, which keeps a 1 TiB device's flash
// state near 4.3 bytes per page.
//
// The NAND rules are enforced here, so an FTL bug cannot silently corrupt
// state: pages of a block are programmed in order from low to high (Agrawal
// et al. §2.1), a page is programmed at most once between erases, and a block
// is erased only when it holds no valid page. A violation throws
// std::logic_error: it is a bug in the FTL, not bad user input.
#pragma once

#include <cstdint>
#include <vector>

#include "common/huge_pages.h"
#include "common/prefetch.h"
#include "common/state_io.h"
#include "flash/command.h"
#include "flash/geometry.h"

namespace ssdlab::flash {

class NandArray {
 public:
  explicit NandArray(const Geometry& geometry);

  const Geometry& geometry() const { return geometry_; }

  // Programs the next free page of `ppn`'s block with logical page `lpn`; the
  // page becomes valid. `ppn` must be that block's write pointer.
  void program(Ppn ppn, Lpn lpn);
  // Programs the next free page of `ppn`'s block with no data (filler): the
  // page is used but never valid. Block-mapped FTLs pad a hole this way when a
  // later page of the block must be programmed (pages go in order).
  void pad(Ppn ppn);
  // Marks a valid page superseded.
  void invalidate(Ppn ppn);
  // Erases a block holding no valid page; its erase count grows by one.
  void erase(BlockId block);

  bool is_valid(Ppn ppn) const { return (valid_bits_[ppn >> 6] >> (ppn & 63)) & 1; }
  Lpn lpn_at(Ppn ppn) const { return oob_lpn_[ppn]; }  // kNoLpn if never programmed
  std::uint32_t write_pointer(BlockId block) const { return blocks_[block].write_pointer; }
  std::uint32_t valid_pages(BlockId block) const { return blocks_[block].valid_pages; }
  std::uint32_t erase_count(BlockId block) const { return blocks_[block].erase_count; }
  bool is_full(BlockId block) const {
    return blocks_[block].write_pointer == geometry_.pages_per_block;
  }
  bool is_erased(BlockId block) const { return blocks_[block].write_pointer == 0; }

  // Starts loading the state of `ppn` (valid bit, block counters) into the
  // cache, for a caller that will invalidate or program it soon. A hint:
  // changes nothing.
  void prefetch(Ppn ppn) const {
    prefetch_for_write(&valid_bits_[ppn >> 6]);
    prefetch_for_write(&blocks_[geometry_.block_of(ppn)]);
  }

  // Recounts every block's valid pages from the valid bits and checks that no
  // valid page lies beyond a write pointer. Throws std::logic_error on the first
  // mismatch. O(pages); for tests and verification runs.
  void check_invariants() const;

  // Checkpoints (common/state_io.h): the whole array as section "NAND".
  // load_state() expects an array built for the same geometry; it throws
  // ssdlab::Error if the section does not fit it.
  void save_state(StateWriter& out) const;
  void load_state(StateReader& in);

 private:
  struct BlockState {
    std::uint16_t write_pointer = 0;
    std::uint16_t valid_pages = 0;
    std::uint32_t erase_count = 0;
  };

  Geometry geometry_;
  // Huge pages (common/huge_pages.h): each host write touches them at random.
  HugeVector<Lpn> oob_lpn_;
  HugeVector<std::uint64_t> valid_bits_;
  HugeVector<BlockState> blocks_;
};

}  // namespace ssdlab::flash
