#include "flash/nand_array.h"

#include <fmt/format.h>

#include <stdexcept>

#include "common/error.h"

namespace ssdlab::flash {

NandArray::NandArray(const Geometry& geometry)
    : geometry_(geometry),
      oob_lpn_(geometry.pages(), kNoLpn),
      valid_bits_((geometry.pages() + 63) / 64, 0),
      blocks_(geometry.blocks()) {
  if (geometry.pages_per_block > 0xffff)
    throw std::logic_error("pages_per_block must fit in 16 bits");
}

void NandArray::program(Ppn ppn, Lpn lpn) {
  BlockState& block = blocks_[geometry_.block_of(ppn)];
  const std::uint32_t page = geometry_.page_in_block(ppn);
  if (page != block.write_pointer)
    throw std::logic_error(fmt::format(
        "program of page {} (offset {} in block {}) out of order: the block's next free page is {}",
        ppn, page, geometry_.block_of(ppn), block.write_pointer));
  oob_lpn_[ppn] = lpn;
  valid_bits_[ppn >> 6] |= std::uint64_t{1} << (ppn & 63);
  ++block.write_pointer;
  ++block.valid_pages;
}

void NandArray::pad(Ppn ppn) {
  program(ppn, kNoLpn);
  invalidate(ppn);
}

void NandArray::invalidate(Ppn ppn) {
  if (!is_valid(ppn)) throw std::logic_error(fmt::format("invalidate of page {}: not valid", ppn));
  valid_bits_[ppn >> 6] &= ~(std::uint64_t{1} << (ppn & 63));
  --blocks_[geometry_.block_of(ppn)].valid_pages;
}

void NandArray::erase(BlockId id) {
  BlockState& block = blocks_[id];
  if (block.valid_pages != 0)
    throw std::logic_error(
        fmt::format("erase of block {} which still holds {} valid pages", id, block.valid_pages));
  const Ppn first = geometry_.first_page(id);
  for (std::uint32_t i = 0; i < block.write_pointer; ++i) oob_lpn_[first + i] = kNoLpn;
  block.write_pointer = 0;
  ++block.erase_count;
}

void NandArray::check_invariants() const {
  const std::uint32_t per_block = geometry_.pages_per_block;
  for (BlockId id = 0; id < blocks_.size(); ++id) {
    std::uint32_t valid = 0;
    const Ppn first = geometry_.first_page(id);
    for (std::uint32_t i = 0; i < per_block; ++i) {
      if (!is_valid(first + i)) continue;
      ++valid;
      if (i >= blocks_[id].write_pointer)
        throw std::logic_error(fmt::format("block {}: page {} valid beyond the write pointer {}",
                                           id, i, blocks_[id].write_pointer));
    }
    if (valid != blocks_[id].valid_pages)
      throw std::logic_error(fmt::format("block {}: valid count {} but {} valid pages", id,
                                         blocks_[id].valid_pages, valid));
  }
}

// Version 1: OOB logical pages, valid bits, then per block its write
// pointer, valid count and erase count.
constexpr std::uint32_t kNandStateVersion = 1;

void NandArray::save_state(StateWriter& out) const {
  out.section("NAND", kNandStateVersion);
  out.vector(oob_lpn_);
  out.vector(valid_bits_);
  out.u64(blocks_.size());
  for (const BlockState& block : blocks_) {
    out.u16(block.write_pointer);
    out.u16(block.valid_pages);
    out.u32(block.erase_count);
  }
}

void NandArray::load_state(StateReader& in) {
  in.section("NAND", kNandStateVersion);
  in.vector(oob_lpn_, geometry_.pages(), "the OOB area");
  in.vector(valid_bits_, (geometry_.pages() + 63) / 64, "the valid bits");
  if (in.count(blocks_.size(), "the blocks") != blocks_.size())
    throw make_error("corrupt: the block table does not have the config's {} blocks",
                     blocks_.size());
  for (BlockState& block : blocks_) {
    block.write_pointer = in.u16();
    block.valid_pages = in.u16();
    block.erase_count = in.u32();
    if (block.write_pointer > geometry_.pages_per_block || block.valid_pages > block.write_pointer)
      throw make_error("corrupt: a block has write pointer {} and {} valid pages",
                       block.write_pointer, block.valid_pages);
  }
}

}  // namespace ssdlab::flash
