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
#include <memory>
#include <span>
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

  const FastGeometry& geometry() const { return geometry_; }

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
  bool is_full(BlockId block) const { return blocks_[block].write_pointer == capacity(block); }
  // Pages `block` holds: all its pages, or in SLC mode one per wordline.
  std::uint32_t capacity(BlockId block) const {
    return is_slc(block) ? slc_pages_ : geometry_.pages_per_block;
  }

  // --- SLC mode (an SLC cache on cells of several bits; flash/cell.h) ------------------
  // A block programmed one bit per cell holds one page per wordline, at page
  // offsets 0 .. pages_per_block / bits_per_cell - 1; the rest of its pages
  // stay unused until it is erased. The mode is set on an erased block when
  // an FTL opens it, and an erase returns the block to its native cells. It
  // is flash state (the block header records it, as the erase count): a
  // power cut keeps it. enable_slc_mode() allocates the per-block flags (one
  // byte per block; devices without an SLC cache have none).
  void enable_slc_mode(std::uint32_t bits_per_cell);
  bool slc_mode_enabled() const { return !slc_.empty(); }
  void set_slc(BlockId block);
  bool is_slc(BlockId block) const { return !slc_.empty() && slc_[block] != 0; }
  std::uint32_t slc_pages_per_block() const { return slc_pages_; }
  bool is_erased(BlockId block) const { return blocks_[block].write_pointer == 0; }

  // --- Placement tags (host-guided placement, ftl.placement; docs/fdp.md) -------------
  // The reclaim unit handle (or stream) whose data a block holds, as each
  // page's OOB area carries it: every page of a block carries the same (a
  // block belongs to one reclaim unit), so it is kept once per block. Flash
  // state: a power cut keeps it, an erase clears it (0). One byte per block
  // once enable_placement_tags() is called; devices without placement have none.
  void enable_placement_tags() { tags_.assign(blocks_.size(), 0); }
  void set_placement_tag(BlockId block, std::uint8_t tag) { tags_[block] = tag; }
  std::uint8_t placement_tag(BlockId block) const { return tags_.empty() ? 0 : tags_[block]; }
  // With an SLC cache beside placement, the cache's blocks hold pages of
  // every handle (the cache is a staging area in front of the handles'
  // reclaim units): each of their pages carries its own tag in its OOB
  // area, which folding reads to move it into its handle's reclaim unit.
  // One byte per page once enable_page_tags() is called; a program's page
  // is tagged by the FTL after it, an erase leaves the old tags (no page
  // reads them before its next program).
  void enable_page_tags() { page_tags_.assign(geometry_.pages(), 0); }
  void set_page_tag(Ppn ppn, std::uint8_t tag) { page_tags_[ppn] = tag; }
  std::uint8_t page_tag(Ppn ppn) const { return page_tags_.empty() ? 0 : page_tags_[ppn]; }

  // --- Power-loss simulation (sim/controller/power_cut.h) -----------------------------
  // What survives a power cut is only what is physically on flash: per page
  // its OOB area (logical page, write sequence number, or a torn marker), per
  // block whether it is erased (its write pointer: the scan finds the first
  // erased page) and its erase count (kept in the block header, as real FTLs
  // do). The valid bits and valid counts are controller RAM.
  //
  // Sequence numbers cost 8 bytes per page, so they exist only once
  // record_sequence_numbers() is called (power-cut runs); normal runs keep
  // NandArray's ~4.3 bytes per page. From then on every program and pad
  // stores the next number of one device-wide counter (persisted in the OOB
  // and found again at mount as the largest one seen). Must be called before
  // the first program (throws std::logic_error otherwise): pages written
  // earlier would have no order.
  void record_sequence_numbers();
  bool records_sequence_numbers() const { return persistent_ != nullptr; }
  // 0 for a page never programmed since the call, or torn.
  std::uint64_t sequence_at(Ppn ppn) const { return persistent_ ? persistent_->sequence[ppn] : 0; }
  std::uint64_t last_sequence() const { return persistent_ ? persistent_->next - 1 : 0; }
  // A trim is persisted as a record in a metadata log (not modelled as flash
  // pages): recovery must not bring the trimmed pages back.
  struct TrimRecord {
    Lpn first, end;  // [first, end)
    std::uint64_t sequence;
  };
  void record_trim(Lpn first, Lpn end);
  std::span<const TrimRecord> trims() const;
  // A program the cut interrupted: the page holds garbage that fails ECC; it
  // stays used (its block's write pointer is past it) but holds nothing.
  void tear(Ppn ppn);
  bool is_torn(Ppn ppn) const { return persistent_ && persistent_->sequence[ppn] == kTorn; }
  // Undoes an erase the cut interrupted: the block is back as it was.
  struct BlockImage {
    BlockId block;
    std::uint16_t write_pointer;
    std::uint32_t erase_count;
    bool slc;
    std::uint8_t tag;  // placement_tag()
    std::vector<Lpn> lpns;
    std::vector<std::uint64_t> sequences;
  };
  BlockImage image(BlockId block) const;
  void restore(const BlockImage& image);
  // The images of the blocks erased since the last call, in erase order
  // (power-cut runs: an erase the cut interrupts is undone from its image).
  std::vector<BlockImage> take_erased_images();
  // Drops the controller-RAM part of the state (valid bits and counts) as a
  // cut does; recovery then marks the pages it maps with revalidate().
  void forget_valid_pages();
  void revalidate(Ppn ppn);

  // Starts loading the state of `ppn` (valid bit, block counters) into the
  // cache, for a caller that will invalidate or program it soon. A hint:
  // changes nothing.
  void prefetch(Ppn ppn) const {
    prefetch_for_write(&valid_bits_[ppn >> 6]);
    prefetch_for_write(&blocks_[geometry_.block_of(ppn)]);
  }

  // The same for a caller that will read `ppn`'s state (valid bit, OOB
  // logical page) soon.
  void prefetch_for_check(Ppn ppn) const {
    prefetch_for_read(&valid_bits_[ppn >> 6]);
    prefetch_for_read(&oob_lpn_[ppn]);
  }

  // Recounts every block's valid pages from the valid bits; checks that no
  // page beyond a write pointer holds anything (a page is programmed at most
  // once between erases), and that no erase count went down since the last
  // check (the first check keeps a copy of the counts: 4 bytes per block,
  // verification runs only; an erase a power cut undid is not a decrease).
  // Throws std::logic_error on the first mismatch. O(pages); for tests and
  // verification runs.
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

  static constexpr std::uint64_t kTorn = ~std::uint64_t{0};
  struct Persistent {
    std::vector<std::uint64_t> sequence;  // per page; 0: erased, kTorn: torn
    std::uint64_t next = 1;
    std::vector<TrimRecord> trims;
    std::vector<BlockImage> erased;  // since take_erased_images()
  };

  FastGeometry geometry_;
  std::unique_ptr<Persistent> persistent_;  // power-cut runs only
  // Huge pages (common/huge_pages.h): each host write touches them at random.
  HugeVector<Lpn> oob_lpn_;
  HugeVector<std::uint64_t> valid_bits_;
  HugeVector<BlockState> blocks_;
  std::vector<std::uint8_t> slc_;  // per block, SLC mode (empty: never)
  std::vector<std::uint8_t> tags_;  // per block, placement tag (empty: no placement)
  std::vector<std::uint8_t> page_tags_;  // per page, placement tag (empty: not with an SLC cache)
  std::uint32_t slc_pages_ = 0;    // pages of a block in SLC mode
  mutable std::vector<std::uint32_t> checked_erase_counts_;  // check_invariants() only
};

}  // namespace ssdlab::flash
