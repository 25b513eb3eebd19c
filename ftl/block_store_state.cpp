// Checkpoints of the block store and the block-based FTLs over it (the
// counterpart of page_mapped_state.cpp): what is saved, and every loaded
// field checked against the device before it is used.
#include "common/error.h"
#include "ftl/block_store.h"

namespace ssdlab::ftl {

using flash::kNoPage;
using flash::Ppn;

void BlockStore::save_state(StateWriter& out) const {
  // Version 3: no write pointers (the NAND section has them).
  out.section("BSTO", 3);
  out.vector(copied_out_);
  for (const auto& free : free_) out.deque(free);
  out.u32(free_count_);
  out.vector(data_);
  // Version 2: the log index as (logical page, page) pairs, in page order.
  const auto entries = log_index_.sorted();
  out.u64(entries.size());
  for (const auto& [lpn, ppn] : entries) out.u32(lpn), out.u32(ppn);
  out.u8(next_merge_stage_);
  out.u32(retired_);
  nand_.save_state(out);
  wear_.save_state(out);
  save_stats(out, stats_);
}

void BlockStore::check_block(VBlock block) const {
  if (block != kNone && block >= virtual_blocks())
    throw make_error("corrupt: {} names virtual block {} of {}", name_, block, virtual_blocks());
}

void BlockStore::load_state(StateReader& in) {
  in.section("BSTO", 3);
  const std::uint32_t total = virtual_blocks();
  in.vector(copied_out_, total, "the virtual copy counts");
  for (VBlock block = 0; block < total; ++block)
    if (copied_out_[block] > block_pages_)
      throw make_error("corrupt: virtual block {} has {} pages copied out", block,
                       copied_out_[block]);
  for (auto& free : free_) {
    in.deque(free, geometry_.blocks_per_plane, "a free list");
    for (const VBlock block : free) check_block(block);
  }
  free_count_ = in.u32();
  in.vector(data_, logical_blocks_, "the block map");
  for (const VBlock block : data_) check_block(block);
  log_index_.reset(logical_pages());
  const std::uint64_t entries = in.u64();
  if (entries > logical_pages())
    throw make_error("corrupt: the log index has {} entries for {} logical pages", entries,
                     logical_pages());
  for (std::uint64_t i = 0; i < entries; ++i) {
    const Lpn lpn = in.u32();
    const Ppn ppn = in.u32();
    if (lpn >= logical_pages() || ppn >= geometry_.pages() || log_index_.contains(lpn))
      throw make_error("corrupt: the log index maps logical page {} to page {}", lpn, ppn);
    log_index_.set(lpn, ppn);
  }
  next_merge_stage_ = in.u8();
  retired_ = in.u32();
  nand_.load_state(in);
  for (VBlock block = 0; block < total; ++block)
    if (copied_out_[block] > written(block))
      throw make_error("corrupt: virtual block {} has {} pages copied out of {} written", block,
                       copied_out_[block], written(block));
  wear_.load_state(in);
  load_stats(in, stats_);
}

void BlockStoreFtl::save_state(StateWriter& out) const {
  store_.save_state(out);
  save_logs(out);
}

void BlockStoreFtl::load_state(StateReader& in) {
  store_.load_state(in);
  load_logs(in);
}

}  // namespace ssdlab::ftl
