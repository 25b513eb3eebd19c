// Mount of the page-mapped FTL after a power cut: the map from the OOB scan
// (oob_scan.h; with summary pages, one summary page per closed block), then
// every block's role from what is on flash alone.
#include <algorithm>

#include "ftl/oob_scan.h"
#include "ftl/page_mapped/page_mapped.h"

namespace ssdlab::ftl::page_mapped {

void PageMappedFtl::recover(RecoveryPolicy policy, CommandList& out, RecoveryReport& report) {
  // DFTL: translation pages are logical pages after the host's, so the scan
  // finds the GTD too; the map cache (DRAM) starts empty.
  const OobScan scan = scan_oob(nand_, map_.size(), pages_per_lpn_, policy, summary_bytes_ != 0);
  report.pages_read = scan.pages_read;
  nand_.forget_valid_pages();
  wordlines_.clear();  // (controller RAM)
  map_.assign(scan.latest.begin(), scan.latest.end());
  if (cache_) cache_->clear();
  for (Lpn lpn = 0; lpn < map_.size(); ++lpn)
    if (map_[lpn] != kNoPage)
      for (std::uint32_t i = 0; i < pages_per_lpn_; ++i) nand_.revalidate(map_[lpn] + i);
  recount_mapped();
  const std::size_t before = out.size();
  adopt_blocks(out);
  if (cache_) rewrite_stale_translation_pages(out);  // DFTL
  report.mount_commands = out.size() - before;
}

void PageMappedFtl::adopt_blocks(CommandList& out) {
  victims_.clear();  // a victim cleaned in part before the cut: sealed below
  placement_.clear();
  slc_.clear();
  std::vector<std::pair<std::uint64_t, BlockId>> slc_sealed;  // by write order
  std::fill(retired_.begin(), retired_.end(), 0);
  wear_.restore_erase_counts();  // from the block headers
  for (BlockId block = 0; block < geometry_.blocks(); ++block) {
    if (nand_.is_erased(block)) {
      if (wear_.is_retired(block))
        ++retired_[pool_of_block(block)];  // worn out: never allocated again
      else
        placement_.freed(block);
    } else if (nand_.is_slc(block)) {
      // An SLC cache block: full ones wait to be folded (in the order they
      // were written: their first page's sequence number), a partly written
      // one is its plane's SLC block again, or closed by padding.
      const bool full = nand_.is_full(block) || !placement_.adopt(block, WriteKind::kSlc);
      if (full && !nand_.is_full(block)) pad_and_close(block, out);
      slc_.adopt(pool_of_block(block));
      if (full) slc_sealed.emplace_back(nand_.sequence_at(geometry_.first_page(block)), block);
    } else if (nand_.is_full(block)) {
      victims_.sealed(block, nand_.valid_pages(block), clock());
    } else if (nand_.write_pointer(block) == data_pages_) {
      // Every data page written, the summary page not (not seen in practice:
      // the FTL writes both in one list, and a cut tears, never unwrites, a
      // page): closed now.
      Command closing = flash::page_command(Op::kProgram, kNoPage, flash::kNoLpn, 0);
      closing.cleaning = true;
      close_block(block, closing, out);
    } else if (cache_ && is_translation(nand_.lpn_at(geometry_.first_page(block))) &&
               placement_.adopt(block, WriteKind::kTranslation)) {
      // DFTL: a translation block being filled.
    } else if (fdp_.on() ? placement_.adopt(block, fdp_.slot_of(block))
                         : placement_.adopt(block, WriteKind::kHost) ||
                               placement_.adopt(block, WriteKind::kCleaning)) {
      // A partly written block was an active block before the cut; which
      // kind (host or cleaning) only mattered for hot/cold separation. With
      // placement handles, its tag (the OOB's handle) gives it back to its
      // handle's slot, so that the handle's isolation holds after the mount.
    } else {
      // More partly written blocks than a plane has active ones (not seen in
      // practice): closed by padding (and its summary page), then sealed like
      // a full one.
      pad_and_close(block, out);
    }
  }
  // Which blocks formed a reclaim unit was controller memory: each is a
  // unit of its own after the mount.
  reclaim_units_.clear();
  for (BlockId block = 0; block < geometry_.blocks(); ++block)
    if (!nand_.is_erased(block) && !nand_.is_slc(block)) reclaim_units_.alone(block);
  std::sort(slc_sealed.begin(), slc_sealed.end());
  for (const auto& [sequence, block] : slc_sealed) slc_.sealed(pool_of_block(block), block);
}

void PageMappedFtl::pad_and_close(BlockId block, CommandList& out) {
  Command pad = flash::page_command(Op::kProgram, kNoPage, flash::kNoLpn, 0);
  pad.cleaning = true;
  const std::uint32_t end = nand_.is_slc(block) ? nand_.capacity(block) : data_pages_;
  while (nand_.write_pointer(block) < end) {
    pad.ppn = geometry_.first_page(block) + nand_.write_pointer(block);
    nand_.pad(pad.ppn);
    out.push_back(pad);
  }
  if (!nand_.is_slc(block)) close_block(block, pad, out);
  else placement_.closed(block);
}

}  // namespace ssdlab::ftl::page_mapped
