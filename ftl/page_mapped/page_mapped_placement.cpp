// Placement of the page-mapped FTL's writes: planes in turn for host and
// translation pages, the victim's plane first for cleaning's moves, and the
// placement's part of the checkpoint.
#include "ftl/page_mapped/page_mapped_placement.h"

#include <algorithm>
#include <stdexcept>

#include "common/error.h"

namespace ssdlab::ftl::page_mapped {

using flash::BlockId;
using flash::kNoPage;
using flash::Ppn;

Placement::Placement(const flash::FastGeometry& geometry, const PoolLayout& layout,
                     flash::NandArray& nand, PlaneChoice choice, std::uint32_t data_pages)
    : geometry_(geometry),
      layout_(layout),
      nand_(nand),
      choice_(choice),
      data_pages_(data_pages),
      planes_(geometry.planes()),
      pools_(layout.pools()) {
  for (std::uint32_t plane = 0; plane < geometry_.planes(); ++plane) {
    for (std::uint32_t i = 0; i < geometry_.blocks_per_plane; ++i)
      planes_[plane].free_blocks.push_back(plane * geometry_.blocks_per_plane + i);
    pools_[layout_.pool_of_plane(plane)].free_blocks += geometry_.blocks_per_plane;
  }
}

void Placement::turn_to_most_free(std::uint32_t pool, WriteKind kind) {
  const auto& order = layout_.planes(pool);
  std::uint32_t& cursor = pools_[pool].cursor;
  std::uint32_t best = cursor;
  std::uint64_t most = free_pages(order[cursor], kind);
  for (std::uint32_t i = 1; i < order.size(); ++i) {
    const std::uint32_t at = (cursor + i) % static_cast<std::uint32_t>(order.size());
    if (const std::uint64_t pages = free_pages(order[at], kind); pages > most)
      most = pages, best = at;
  }
  cursor = best;
}

Ppn Placement::take_in_pool(std::uint32_t plane, WriteKind kind) {
  for (const std::uint32_t other : layout_.planes(layout_.pool_of_plane(plane)))
    if (has_room(other, kind)) return take(other, kind);
  return kNoPage;
}

BlockId Placement::hand_host_block(std::uint32_t plane, WriteKind kind) {
  std::vector<std::uint32_t> order{plane};
  for (const std::uint32_t other : layout_.planes(layout_.pool_of_plane(plane)))
    if (other != plane) order.push_back(other);
  for (const std::uint32_t at : order) {
    auto& active = planes_[at].active;
    BlockId& host = active[static_cast<std::size_t>(WriteKind::kHost)];
    BlockId& to = active[static_cast<std::size_t>(kind)];
    if (host == kNoBlock || nand_.is_full(host) || (to != kNoBlock && !nand_.is_full(to))) continue;
    to = host;
    host = kNoBlock;
    return to;
  }
  return kNoBlock;
}

void Placement::freed(BlockId block) {
  const std::uint32_t plane = geometry_.plane_of_block(block);
  planes_[plane].free_blocks.push_back(block);
  ++pools_[layout_.pool_of_plane(plane)].free_blocks;
}

std::uint64_t Placement::free_pages(std::uint32_t plane, WriteKind kind) const {
  // The room of another kind's active block is not this kind's.
  const PlaneState& state = planes_[plane];
  const std::uint32_t block_pages =
      kind == WriteKind::kSlc ? nand_.slc_pages_per_block() : data_pages_;
  std::uint64_t pages = std::uint64_t{state.free_blocks.size()} * block_pages;
  if (const BlockId block = state.active[static_cast<std::size_t>(kind)];
      block != kNoBlock && nand_.write_pointer(block) < block_pages)
    pages += block_pages - nand_.write_pointer(block);
  return pages;
}

std::uint64_t Placement::cleaning_room(std::uint32_t pool) const {
  std::uint64_t room = std::uint64_t{pools_[pool].free_blocks} * data_pages_;
  for (const std::uint32_t plane : layout_.planes(pool))
    for (std::size_t slot = 0; slot < slots_; ++slot) {
      const bool cleaning = slot == static_cast<std::size_t>(WriteKind::kCleaning) ||
                            slot == static_cast<std::size_t>(WriteKind::kTranslation) ||
                            slot >= static_cast<std::size_t>(handle_cleaning_kind(0));
      if (const BlockId active = planes_[plane].active[slot]; cleaning && active != kNoBlock)
        room += data_pages_ - nand_.write_pointer(active);
    }
  return room;
}

std::uint32_t Placement::active_blocks(std::uint32_t pool, WriteKind kind) const {
  std::uint32_t blocks = 0;
  for (const std::uint32_t plane : layout_.planes(pool))
    blocks += planes_[plane].active[static_cast<std::size_t>(kind)] != kNoBlock ? 1 : 0;
  return blocks;
}

void Placement::clear() {
  planes_.assign(geometry_.planes(), PlaneState{});
  for (PoolState& pool : pools_) {  // (not the SLC budget: the cache sets it before its writes)
    pool.free_blocks = 0;
    pool.cursor = 0;
    pool.slc_spent = false;
  }
}

bool Placement::adopt(BlockId block, WriteKind kind) {
  BlockId& active = planes_[geometry_.plane_of_block(block)].active[static_cast<std::size_t>(kind)];
  if (active != kNoBlock) return false;
  active = block;
  for (PoolState& pool : pools_) pool.slc_spent = false;
  return true;
}

void Placement::fail(const std::string& what) {
  throw std::logic_error("page-mapped: " + what);
}

void Placement::save_state(StateWriter& out) const {
  out.u64(planes_.size());
  for (const PlaneState& plane : planes_) {
    // Host, cleaning, translation, SLC (then, with placement handles, theirs).
    for (std::size_t slot = 0; slot < slots_; ++slot) out.u32(plane.active[slot]);
    out.deque(plane.free_blocks);
  }
  std::vector<std::uint32_t> free_blocks, cursors;
  for (const PoolState& pool : pools_) {
    free_blocks.push_back(pool.free_blocks);
    cursors.push_back(pool.cursor);
  }
  out.vector(free_blocks);
  out.vector(cursors);
}

void Placement::load_state(StateReader& in) {
  for (PoolState& pool : pools_) pool.slc_spent = false;
  if (in.count(planes_.size(), "the planes") != planes_.size())
    throw make_error("corrupt: the config has {} planes", planes_.size());
  const auto check_block = [this](BlockId block) {
    if (block != kNoBlock && block >= geometry_.blocks())
      throw make_error("corrupt: a plane names block {} of {}", block, geometry_.blocks());
  };
  for (PlaneState& plane : planes_) {
    for (std::size_t slot = 0; slot < slots_; ++slot) plane.active[slot] = in.u32();
    in.deque(plane.free_blocks, geometry_.blocks_per_plane, "a free block list");
    for (const BlockId active : plane.active) check_block(active);
    for (const BlockId block : plane.free_blocks) check_block(block);
  }
  const std::size_t pools = layout_.pools();
  std::vector<std::uint32_t> free_blocks, cursors;
  in.vector(free_blocks, pools, "the free block counts");
  in.vector(cursors, pools, "the allocation cursors");
  for (std::size_t pool = 0; pool < pools; ++pool) {
    if (cursors[pool] >= layout_.planes(static_cast<std::uint32_t>(pool)).size())
      throw make_error("corrupt: allocation cursor {} of pool {}", cursors[pool], pool);
    pools_[pool].free_blocks = free_blocks[pool];
    pools_[pool].cursor = cursors[pool];
  }
}

}  // namespace ssdlab::ftl::page_mapped
