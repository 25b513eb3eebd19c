// Mount of the block-based FTLs after a power cut (BlockStore::recover).
#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "common/error.h"
#include "ftl/block_store.h"
#include "ftl/oob_scan.h"

namespace ssdlab::ftl {

using flash::kNoPage;
using flash::Ppn;

std::uint32_t BlockStore::page_in_vblock(Ppn ppn) const {
  const std::uint32_t k = plane_slot_[geometry_.plane_of(ppn)] % width_;
  return geometry_.page_in_block(ppn) * width_ + k;
}

std::uint32_t BlockStore::vblock_valid(VBlock block) const {
  std::uint32_t valid = 0;
  for (std::uint32_t k = 0; k < width_; ++k) valid += nand_.valid_pages(flash_block(block, k));
  return valid;
}

void BlockStore::recover(RecoveryPolicy policy, CommandList& out, RecoveryReport& report) {
  const OobScan scan = scan_oob(nand_, logical_pages(), 1, policy);
  report.pages_read = scan.pages_read;
  nand_.forget_valid_pages();
  for (const Ppn ppn : scan.latest)
    if (ppn != kNoPage) nand_.revalidate(ppn);
  adopt_free_blocks();
  choose_data_blocks(scan.latest);
  // Every page found outside its logical block's data block is a log page
  // until the merges below.
  log_index_.reset(logical_pages());
  for (Lpn lpn = 0; lpn < logical_pages(); ++lpn) {
    const Ppn ppn = scan.latest[lpn];
    if (ppn != kNoPage && vblock_of(ppn) != data_[lbn_of(lpn)]) log_index_.set(lpn, ppn);
  }
  const std::size_t before = out.size();
  begin_request();
  const Work work = merge_work();
  for (VBlock block = 0; block < virtual_blocks(); ++block) release_if_empty(block, work, out);
  merge_found_logs(out);
  report.mount_commands = out.size() - before;
}

void BlockStore::adopt_free_blocks() {
  std::fill(copied_out_.begin(), copied_out_.end(), 0);
  wear_.restore_erase_counts();  // from the block headers: each virtual block's most erased
  for (auto& free : free_) free.clear();
  free_count_ = 0;
  retired_ = 0;
  for (VBlock block = 0; block < virtual_blocks(); ++block) {
    if (written(block) != 0) continue;
    if (wear_.is_retired(block)) {
      ++retired_;
      continue;
    }
    free_[group_of(block)].push_back(block);
    ++free_count_;
  }
}

void BlockStore::choose_data_blocks(const std::vector<Ppn>& latest) {
  // A candidate data block of logical block `lbn` holds only pages of `lbn`,
  // each at its own offset.
  constexpr std::uint32_t kMixed = kNone - 1;
  std::vector<std::uint32_t> owner(virtual_blocks(), kNone);
  std::vector<std::uint32_t> valid(virtual_blocks(), 0);
  for (Lpn lpn = 0; lpn < logical_pages(); ++lpn) {
    if (latest[lpn] == kNoPage) continue;
    const VBlock block = vblock_of(latest[lpn]);
    ++valid[block];
    const bool in_place = page_in_vblock(latest[lpn]) == offset_of(lpn);
    if (!in_place || (owner[block] != kNone && owner[block] != lbn_of(lpn)))
      owner[block] = kMixed;
    else if (owner[block] != kMixed)
      owner[block] = lbn_of(lpn);
  }
  std::vector<std::pair<std::uint32_t, VBlock>> candidates;
  for (VBlock block = 0; block < virtual_blocks(); ++block)
    if (owner[block] != kNone && owner[block] != kMixed)
      candidates.emplace_back(owner[block], block);
  std::sort(candidates.begin(), candidates.end());
  data_.assign(logical_blocks_, kNone);
  // Best: one whose write pointer lies before every page of its logical
  // block found elsewhere (completed in place); then the fullest.
  auto completable = [&](std::uint32_t lbn, VBlock block) {
    for (std::uint32_t offset = 0; offset < written(block); ++offset) {
      const Ppn ppn = latest[lpn_of(lbn, offset)];
      if (ppn != kNoPage && vblock_of(ppn) != block) return false;
    }
    return true;
  };
  for (std::size_t i = 0; i < candidates.size();) {
    const std::uint32_t lbn = candidates[i].first;
    VBlock best = kNone;
    bool best_completable = false;
    for (; i < candidates.size() && candidates[i].first == lbn; ++i) {
      const VBlock block = candidates[i].second;
      const bool can = completable(lbn, block);
      if (best == kNone || (can && !best_completable) ||
          (can == best_completable && valid[block] > valid[best])) {
        best = block;
        best_completable = can;
      }
    }
    data_[lbn] = best;
  }
}

void BlockStore::release_if_empty(VBlock block, Work work, CommandList& out) {
  // Data blocks are never empty: they were chosen among blocks holding data,
  // and a merge's old data block is no longer one.
  if (written(block) == 0 || vblock_valid(block) != 0) return;
  release(block, work, out);
}

void BlockStore::merge_found_logs(CommandList& out) {
  std::vector<std::uint32_t> lbns;
  for (Lpn lpn = 0; lpn < logical_pages(); ++lpn)
    if (log_index_.contains(lpn) && (lbns.empty() || lbns.back() != lbn_of(lpn)))
      lbns.push_back(lbn_of(lpn));
  // Merges in place first: they free blocks that full merges need.
  auto in_place = [&](std::uint32_t lbn) {
    const VBlock data = data_[lbn];
    if (data == kNone) return false;
    for (std::uint32_t offset = 0; offset < written(data); ++offset)
      if (log_index_.contains(lpn_of(lbn, offset))) return false;
    return true;
  };
  std::stable_partition(lbns.begin(), lbns.end(), in_place);
  std::vector<VBlock> sources;
  for (const std::uint32_t lbn : lbns) {
    sources.clear();
    for (std::uint32_t offset = 0; offset < block_pages_; ++offset)
      if (log_index_.contains(lpn_of(lbn, offset)))
        sources.push_back(vblock_of(log_index_.get(lpn_of(lbn, offset))));
    const Work work = merge_work();
    if (in_place(lbn)) {
      fill(data_[lbn], lbn, block_pages_, false, work, out);
      ++stats_.partial_merges;
    } else {
      if (free_count_ == 0)
        throw make_error(
            "{}: recovery after the power cut needs a free virtual block to merge logical "
            "block {} and none is left",
            name_, lbn);
      const VBlock old = data_[lbn];
      const VBlock fresh = allocate(old == kNone ? group_of(sources.front()) : group_of(old));
      fill(fresh, lbn, block_pages_, false, work, out);
      make_data(lbn, fresh);
      if (old != kNone) release_if_empty(old, work, out);
      ++stats_.full_merges;
    }
    for (const VBlock block : sources) release_if_empty(block, work, out);
  }
}

}  // namespace ssdlab::ftl
