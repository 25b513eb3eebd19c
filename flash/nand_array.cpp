#include "flash/nand_array.h"

#include <fmt/format.h>

#include <stdexcept>

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

}  // namespace ssdlab::flash
