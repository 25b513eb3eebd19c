// FAST, fully-associative sector translation (Lee et al. 2007; Desnoyers §4):
// block-mapped data blocks, ftl.log_blocks random-write (RW) log blocks shared
// by all logical blocks, and one sequential-write (SW) log block.
//
// Where a write goes:
//  - offset 0 of a logical block starts a new sequential log: the current SW
//    log is merged first;
//  - the next offset of the SW log's logical block appends to the SW log;
//  - anything else is appended to the current RW log, whatever its logical
//    block. When the RW logs are all full, the oldest is reclaimed: every
//    logical block with a valid page in it gets a full merge, then it is
//    erased (first in, first out).
// Merges (counted in FtlStats):
//  - switch: the SW log holds a whole logical block in order: it becomes the
//    data block and the old data block is erased;
//  - partial: the SW log holds a prefix: the rest is copied into it (from the
//    data block or the RW logs), then as above;
//  - full: the latest version of every page of one logical block is copied
//    into a fresh block, which becomes the data block (the old one is erased;
//    so is the SW log if it held that block).
// Desnoyers §4 ("Random write speed", Figure 2): random writes stay fast while
// the region written fits in the RW logs' shared space; past that each
// reclaimed log costs one full merge per logical block it touches.
#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <stdexcept>

#include "ftl/block_store.h"
#include "ftl/ftl.h"

namespace ssdlab::ftl {
namespace {

using VBlock = BlockStore::VBlock;
constexpr VBlock kNone = BlockStore::kNone;

class FastFtl final : public BlockStoreFtl {
 public:
  // Held back: the RW logs, the SW log and the fresh block of a full merge.
  explicit FastFtl(const FtlContext& context)
      : BlockStoreFtl(context, context.config.keys.get<BlockKeys>().log_blocks + 2, "fast") {}

  void write(const PageRange& range, CommandList& out) override;
  void check_invariants() const override;

 private:
  void release_logs(std::uint32_t lbn, const BlockStore::Work& work, CommandList& out) override;
  void forget_logs() override {
    sw_ = kNone;
    rw_.clear();
  }
  void save_logs(StateWriter& out) const override;
  void load_logs(StateReader& in) override;
  // The log block the write of `lpn` goes to, merging or reclaiming first if
  // needed.
  VBlock place(Lpn lpn, CommandList& out);
  void merge_sequential_log(CommandList& out);
  void reclaim_oldest_rw_log(CommandList& out);
  void full_merge(std::uint32_t lbn, BlockStore::Work work, CommandList& out);

  VBlock sw_ = kNone;         // the sequential log ...
  std::uint32_t sw_lbn_ = 0;  // ... and its logical block
  std::deque<VBlock> rw_;     // RW logs, oldest first; the last one is being filled
};

void FastFtl::write(const PageRange& range, CommandList& out) {
  if (range.count == 0) return;
  store_.begin_request();
  const std::size_t start = out.size();
  for (Lpn lpn = range.first; lpn < range.first + range.count; ++lpn) {
    const VBlock block = place(lpn, out);
    const std::uint8_t stage = store_.read_if_partial(range, lpn, out);
    store_.program(block, lpn, true, {stage, false}, out);
  }
  store_.stats().host_pages_written += range.count;
  store_.finish(out, start);
}

VBlock FastFtl::place(Lpn lpn, CommandList& out) {
  const std::uint32_t lbn = store_.lbn_of(lpn);
  const std::uint32_t offset = store_.offset_of(lpn);
  if (offset == 0) {
    merge_sequential_log(out);
    const VBlock data = store_.data(lbn);
    sw_ = store_.allocate(data == kNone ? kNone : store_.group_of(data));
    sw_lbn_ = lbn;
    return sw_;
  }
  if (sw_ != kNone && sw_lbn_ == lbn && offset == store_.written(sw_)) return sw_;
  if (rw_.empty() || store_.is_full(rw_.back())) {
    if (rw_.size() == store_.keys().log_blocks) reclaim_oldest_rw_log(out);
    rw_.push_back(store_.allocate());
  }
  return rw_.back();
}

void FastFtl::merge_sequential_log(CommandList& out) {
  if (sw_ == kNone) return;
  const BlockStore::Work work = store_.merge_work();
  const std::uint32_t copied = store_.fill(sw_, sw_lbn_, store_.block_pages(), false, work, out);
  ++(copied == 0 ? store_.stats().switch_merges : store_.stats().partial_merges);
  const VBlock old = store_.make_data(sw_lbn_, sw_);
  if (old != kNone) store_.release(old, work, out);
  sw_ = kNone;
}

void FastFtl::reclaim_oldest_rw_log(CommandList& out) {
  const VBlock victim = rw_.front();
  rw_.pop_front();
  // Every logical block with a live page in the victim, once each.
  std::vector<std::uint32_t> lbns;
  for (std::uint32_t page = 0; page < store_.written(victim); ++page) {
    const flash::Ppn ppn = store_.ppn(victim, page);
    if (store_.nand().is_valid(ppn)) lbns.push_back(store_.lbn_of(store_.nand().lpn_at(ppn)));
  }
  std::sort(lbns.begin(), lbns.end());
  lbns.erase(std::unique(lbns.begin(), lbns.end()), lbns.end());
  // Each merge in stages of its own: a block one erases may be the next's.
  BlockStore::Work work = store_.merge_work();
  for (const std::uint32_t lbn : lbns) full_merge(lbn, work = store_.merge_work(), out);
  store_.release(victim, work, out);
}

void FastFtl::full_merge(std::uint32_t lbn, BlockStore::Work work, CommandList& out) {
  const VBlock data = store_.data(lbn);
  const VBlock fresh = store_.allocate(data == kNone ? kNone : store_.group_of(data));
  store_.fill(fresh, lbn, store_.block_pages(), false, work, out);
  ++store_.stats().full_merges;
  const VBlock old = store_.make_data(lbn, fresh);
  if (old != kNone) store_.release(old, work, out);
  if (sw_ != kNone && sw_lbn_ == lbn) {  // its pages were copied too
    store_.release(sw_, work, out);
    sw_ = kNone;
  }
}

// RW logs are shared: they wait for their turn to be reclaimed.
void FastFtl::release_logs(std::uint32_t lbn, const BlockStore::Work& work, CommandList& out) {
  if (sw_ != kNone && sw_lbn_ == lbn) {
    store_.release(sw_, work, out);
    sw_ = kNone;
  }
}

void FastFtl::save_logs(StateWriter& out) const {
  out.section("FAST", 1);
  out.u32(sw_);
  out.u32(sw_lbn_);
  out.deque(rw_);
}

void FastFtl::load_logs(StateReader& in) {
  in.section("FAST", 1);
  sw_ = in.u32();
  sw_lbn_ = in.u32();
  in.deque(rw_, store_.keys().log_blocks, "the FAST random-write logs");
  store_.check_block(sw_);
  for (const VBlock block : rw_) {
    if (block == kNone) throw make_error("corrupt: a FAST random-write log is no block");
    store_.check_block(block);
  }
  if (sw_lbn_ >= store_.logical_blocks())
    throw make_error("corrupt: FAST's sequential log is of logical block {}", sw_lbn_);
}

void FastFtl::check_invariants() const {
  if (rw_.size() > store_.keys().log_blocks)
    throw std::logic_error(fmt::format("fast: {} RW log blocks in use, at most {} allowed",
                                       rw_.size(), store_.keys().log_blocks));
  std::vector<VBlock> logs(rw_.begin(), rw_.end());
  if (sw_ != kNone) {
    logs.push_back(sw_);
    for (std::uint32_t page = 0; page < store_.written(sw_); ++page) {
      const flash::Ppn ppn = store_.ppn(sw_, page);
      if (store_.nand().is_valid(ppn) && store_.nand().lpn_at(ppn) != store_.lpn_of(sw_lbn_, page))
        throw std::logic_error(
            fmt::format("fast: page {} of the sequential log is out of sequence", page));
    }
  }
  store_.check_invariants(logs);
}

}  // namespace

std::unique_ptr<Ftl> make_fast_ftl(const FtlContext& context) {
  return std::make_unique<FastFtl>(context);
}

}  // namespace ssdlab::ftl
