#include "flash/nand_array.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
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

namespace {

// The messages of broken rules, out of line: the checks stay on every
// program's path, the formatting does not (no stack frame for it there).
[[noreturn, gnu::cold, gnu::noinline]] void out_of_order(Ppn ppn, std::uint32_t page, BlockId block,
                                                         std::uint32_t next) {
  throw std::logic_error(fmt::format(
      "program of page {} (offset {} in block {}) out of order: the block's next free page is {}",
      ppn, page, block, next));
}

[[noreturn, gnu::cold, gnu::noinline]] void not_valid(Ppn ppn) {
  throw std::logic_error(fmt::format("invalidate of page {}: not valid", ppn));
}

[[noreturn, gnu::cold, gnu::noinline]] void beyond_slc(Ppn ppn, BlockId block,
                                                       std::uint32_t pages) {
  throw std::logic_error(fmt::format(
      "program of page {}: block {} is in SLC mode and holds {} pages", ppn, block, pages));
}

}  // namespace

void NandArray::enable_slc_mode(std::uint32_t bits_per_cell) {
  if (bits_per_cell < 2 || geometry_.pages_per_block % bits_per_cell != 0)
    throw std::logic_error("SLC mode needs cells of several bits and whole wordlines per block");
  slc_.assign(blocks_.size(), 0);
  slc_pages_ = geometry_.pages_per_block / bits_per_cell;
}

void NandArray::set_slc(BlockId block) {
  if (slc_.empty() || !is_erased(block))
    throw std::logic_error(fmt::format("SLC mode for block {}: not erased, or no SLC mode", block));
  slc_[block] = 1;
}

void NandArray::program(Ppn ppn, Lpn lpn) {
  BlockState& block = blocks_[geometry_.block_of(ppn)];
  const std::uint32_t page = geometry_.page_in_block(ppn);
  if (page != block.write_pointer)
    out_of_order(ppn, page, geometry_.block_of(ppn), block.write_pointer);
  if (!slc_.empty() && page >= capacity(geometry_.block_of(ppn)))
    beyond_slc(ppn, geometry_.block_of(ppn), slc_pages_);
  oob_lpn_[ppn] = lpn;
  if (persistent_) persistent_->sequence[ppn] = persistent_->next++;
  valid_bits_[ppn >> 6] |= std::uint64_t{1} << (ppn & 63);
  ++block.write_pointer;
  ++block.valid_pages;
}

void NandArray::pad(Ppn ppn) {
  program(ppn, kNoLpn);
  invalidate(ppn);
}

void NandArray::invalidate(Ppn ppn) {
  if (!is_valid(ppn)) not_valid(ppn);
  valid_bits_[ppn >> 6] &= ~(std::uint64_t{1} << (ppn & 63));
  --blocks_[geometry_.block_of(ppn)].valid_pages;
}

void NandArray::erase(BlockId id) {
  BlockState& block = blocks_[id];
  if (block.valid_pages != 0)
    throw std::logic_error(
        fmt::format("erase of block {} which still holds {} valid pages", id, block.valid_pages));
  const Ppn first = geometry_.first_page(id);
  if (persistent_) persistent_->erased.push_back(image(id));
  for (std::uint32_t i = 0; i < block.write_pointer; ++i) oob_lpn_[first + i] = kNoLpn;
  if (persistent_)
    std::fill_n(persistent_->sequence.begin() + first, block.write_pointer, std::uint64_t{0});
  block.write_pointer = 0;
  ++block.erase_count;
  if (!slc_.empty()) slc_[id] = 0;
  if (!tags_.empty()) tags_[id] = 0;
}

namespace {

// The set bits of `bits` in [from, to), a word at a time.
std::uint32_t count_bits(const std::uint64_t* bits, std::uint64_t from, std::uint64_t to) {
  std::uint32_t count = 0;
  while (from < to) {
    const std::uint64_t word = bits[from >> 6];
    const unsigned shift = from & 63;
    const std::uint64_t take = std::min<std::uint64_t>(64 - shift, to - from);
    const std::uint64_t mask = take == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << take) - 1);
    count += static_cast<std::uint32_t>(std::popcount((word >> shift) & mask));
    from += take;
  }
  return count;
}

}  // namespace

void NandArray::check_invariants() const {
  const std::uint32_t per_block = geometry_.pages_per_block;
  for (BlockId id = 0; id < blocks_.size(); ++id) {
    const Ppn first = geometry_.first_page(id);
    const std::uint32_t written = blocks_[id].write_pointer;
    const std::uint32_t beyond = count_bits(valid_bits_.data(), first + written, first + per_block);
    const std::uint32_t valid = count_bits(valid_bits_.data(), first, first + written) + beyond;
    if (beyond != 0)
      for (std::uint32_t i = written; i < per_block; ++i)
        if (is_valid(first + i))
          throw std::logic_error(
              fmt::format("block {}: page {} valid beyond the write pointer {}", id, i, written));
    if (valid != blocks_[id].valid_pages)
      throw std::logic_error(fmt::format("block {}: valid count {} but {} valid pages", id,
                                         blocks_[id].valid_pages, valid));
    for (std::uint32_t i = blocks_[id].write_pointer; i < per_block; ++i)
      if (oob_lpn_[first + i] != kNoLpn || (persistent_ && persistent_->sequence[first + i] != 0))
        throw std::logic_error(
            fmt::format("block {}: page {} beyond the write pointer {} holds data", id, i,
                        blocks_[id].write_pointer));
  }
  if (checked_erase_counts_.empty()) checked_erase_counts_.assign(blocks_.size(), 0);
  for (BlockId id = 0; id < blocks_.size(); ++id) {
    if (blocks_[id].erase_count < checked_erase_counts_[id])
      throw std::logic_error(fmt::format("block {}: erase count fell from {} to {}", id,
                                         checked_erase_counts_[id], blocks_[id].erase_count));
    checked_erase_counts_[id] = blocks_[id].erase_count;
  }
}

// Version 2: OOB logical pages, valid bits, then per block its write
// pointer, valid count and erase count; the pages of a block in SLC mode (0:
// no SLC mode) and, if not 0, the SLC mode flag of every block.
constexpr std::uint32_t kNandStateVersion = 2;

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
  out.u32(slc_pages_);
  if (!slc_.empty()) out.vector(slc_);
  if (!tags_.empty()) out.vector(tags_);  // (only with placement: other states as before)
  if (!page_tags_.empty()) out.vector(page_tags_);  // (placement and an SLC cache)
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
  if (in.u32() != slc_pages_)
    throw make_error("the checkpoint's SLC mode does not match the config's ({} pages per block)",
                     slc_pages_);
  if (!slc_.empty()) {
    in.vector(slc_, blocks_.size(), "the SLC mode flags");
    for (BlockId id = 0; id < blocks_.size(); ++id)
      if (blocks_[id].write_pointer > capacity(id))
        throw make_error("corrupt: block {} in SLC mode has write pointer {}", id,
                         blocks_[id].write_pointer);
  }
  if (!tags_.empty()) in.vector(tags_, blocks_.size(), "the placement tags");
  if (!page_tags_.empty()) in.vector(page_tags_, geometry_.pages(), "the pages' placement tags");
}

}  // namespace ssdlab::flash

namespace ssdlab::flash {

void NandArray::record_sequence_numbers() {
  if (persistent_) return;
  for (BlockId block = 0; block < blocks_.size(); ++block)
    if (blocks_[block].write_pointer != 0)
      throw std::logic_error("sequence numbers must be recorded from the first program on");
  persistent_ = std::make_unique<Persistent>();
  persistent_->sequence.assign(geometry_.pages(), 0);
}

std::vector<NandArray::BlockImage> NandArray::take_erased_images() {
  std::vector<BlockImage> images;
  if (persistent_) images.swap(persistent_->erased);
  return images;
}

void NandArray::record_trim(Lpn first, Lpn end) {
  if (persistent_ && first < end) persistent_->trims.push_back({first, end, persistent_->next++});
}

std::span<const NandArray::TrimRecord> NandArray::trims() const {
  if (!persistent_) return {};
  return persistent_->trims;
}

void NandArray::tear(Ppn ppn) {
  if (!persistent_) throw std::logic_error("tear() needs record_sequence_numbers()");
  if (geometry_.page_in_block(ppn) >= blocks_[geometry_.block_of(ppn)].write_pointer)
    throw std::logic_error(fmt::format("tear of page {}, which was never programmed", ppn));
  if (is_valid(ppn)) invalidate(ppn);
  oob_lpn_[ppn] = kNoLpn;
  persistent_->sequence[ppn] = kTorn;
}

NandArray::BlockImage NandArray::image(BlockId block) const {
  const Ppn first = geometry_.first_page(block);
  const std::uint32_t written = blocks_[block].write_pointer;
  BlockImage image{block,
                   blocks_[block].write_pointer,
                   blocks_[block].erase_count,
                   is_slc(block),
                   placement_tag(block),
                   std::vector<Lpn>(oob_lpn_.begin() + first, oob_lpn_.begin() + first + written),
                   {}};
  if (persistent_)
    image.sequences.assign(persistent_->sequence.begin() + first,
                           persistent_->sequence.begin() + first + written);
  return image;
}

void NandArray::restore(const BlockImage& image) {
  const BlockId block = image.block;
  BlockState& state = blocks_[block];
  const Ppn first = geometry_.first_page(block);
  for (std::uint32_t i = 0; i < geometry_.pages_per_block; ++i)
    if (is_valid(first + i)) invalidate(first + i);
  std::fill_n(oob_lpn_.begin() + first, geometry_.pages_per_block, kNoLpn);
  std::copy(image.lpns.begin(), image.lpns.end(), oob_lpn_.begin() + first);
  if (persistent_) {
    std::fill_n(persistent_->sequence.begin() + first, geometry_.pages_per_block, 0);
    std::copy(image.sequences.begin(), image.sequences.end(),
              persistent_->sequence.begin() + first);
  }
  state.write_pointer = image.write_pointer;
  state.erase_count = image.erase_count;
  if (!slc_.empty()) slc_[block] = image.slc ? 1 : 0;
  if (!tags_.empty()) tags_[block] = image.tag;
  // The erase never happened: its count is not a decrease.
  if (!checked_erase_counts_.empty())
    checked_erase_counts_[block] = std::min(checked_erase_counts_[block], image.erase_count);
}

void NandArray::forget_valid_pages() {
  std::fill(valid_bits_.begin(), valid_bits_.end(), 0);
  for (BlockState& block : blocks_) block.valid_pages = 0;
}

void NandArray::revalidate(Ppn ppn) {
  const BlockId block = geometry_.block_of(ppn);
  if (is_valid(ppn) || geometry_.page_in_block(ppn) >= blocks_[block].write_pointer ||
      oob_lpn_[ppn] == kNoLpn)
    throw std::logic_error(fmt::format(
        "revalidate of page {}: already valid, never programmed, padding or torn", ppn));
  valid_bits_[ppn >> 6] |= std::uint64_t{1} << (ppn & 63);
  ++blocks_[block].valid_pages;
}

}  // namespace ssdlab::flash
