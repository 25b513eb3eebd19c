// Checkpoints of the page-mapped FTL: its own section "PMAP" (the map, each
// plane's active blocks and free list, per-pool counts and cursors), then the
// NAND array, victim buckets, wear leveler and counters, each in its own
// section. Sizes, layout and thresholds come from the config.
#include "ftl/page_mapped.h"

namespace ssdlab::ftl::page_mapped {
namespace {

// 2: each plane's translation block (DFTL), the victim policy's section
// "VPOL" after the victim buckets, and DFTL's map cache "DMAP" at the end.
// 3: the victims in progress (incremental cleaning), one per victim group.
constexpr std::uint32_t kStateVersion = 3;

}  // namespace

void PageMappedFtl::save_state(StateWriter& out) const {
  out.section("PMAP", kStateVersion);
  out.vector(map_);
  out.u64(planes_.size());
  for (const PlaneState& plane : planes_) {
    out.u32(plane.host_active);
    out.u32(plane.clean_active);
    out.u32(plane.map_active);
    out.deque(plane.free_blocks);
  }
  out.vector(free_blocks_);
  out.vector(cursors_);
  out.vector(retired_);
  out.u64(in_progress_.size());
  for (const InProgress& cleaning : in_progress_) {
    out.u32(cleaning.victim);
    out.u32(cleaning.next);
    out.u32(cleaning.moved);
  }
  nand_.save_state(out);
  buckets_.save_state(out);
  policy_->save_state(out);
  wear_.save_state(out);
  save_stats(out, stats_);
  if (cache_) cache_->save_state(out);
}

void PageMappedFtl::load_state(StateReader& in) {
  in.section("PMAP", kStateVersion);
  in.vector(map_, map_.size(), "the page map");
  const std::uint64_t pages = geometry_.pages();
  for (const Ppn ppn : map_)
    if (ppn != kNoPage && ppn >= pages)
      throw make_error("corrupt: the page map points at page {} of {}", ppn, pages);
  if (in.count(planes_.size(), "the planes") != planes_.size())
    throw make_error("corrupt: the config has {} planes", planes_.size());
  const auto check_block = [this](BlockId block) {
    if (block != kNoBlock && block >= geometry_.blocks())
      throw make_error("corrupt: a plane names block {} of {}", block, geometry_.blocks());
  };
  for (PlaneState& plane : planes_) {
    plane.host_active = in.u32();
    plane.clean_active = in.u32();
    plane.map_active = in.u32();
    in.deque(plane.free_blocks, geometry_.blocks_per_plane, "a free block list");
    check_block(plane.host_active);
    check_block(plane.clean_active);
    check_block(plane.map_active);
    for (const BlockId block : plane.free_blocks) check_block(block);
  }
  const std::size_t pools = layout_.pools();
  in.vector(free_blocks_, pools, "the free block counts");
  in.vector(cursors_, pools, "the allocation cursors");
  for (std::size_t pool = 0; pool < pools; ++pool)
    if (cursors_[pool] >= layout_.planes(static_cast<std::uint32_t>(pool)).size())
      throw make_error("corrupt: allocation cursor {} of pool {}", cursors_[pool], pool);
  in.vector(retired_, pools, "the retired block counts");
  if (in.count(in_progress_.size(), "the victims in progress") != in_progress_.size())
    throw make_error("corrupt: the config's cleaning scope has {} victim groups",
                     in_progress_.size());
  for (InProgress& cleaning : in_progress_) {
    cleaning.victim = in.u32();
    cleaning.next = in.u32();
    cleaning.moved = in.u32();
    check_block(cleaning.victim);
    if (cleaning.next > geometry_.pages_per_block || cleaning.moved > cleaning.next)
      throw make_error("corrupt: a victim in progress at page {} ({} moved)", cleaning.next,
                       cleaning.moved);
  }
  nand_.load_state(in);
  buckets_.load_state(in);
  policy_->load_state(in);
  wear_.load_state(in);
  load_stats(in, stats_);
  if (cache_) cache_->load_state(in);
}

}  // namespace ssdlab::ftl::page_mapped
