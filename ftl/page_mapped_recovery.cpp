// Mount of the page-mapped FTL after a power cut: the map from the OOB scan
// (oob_scan.h; with summary pages, one summary page per closed block), then
// every block's role from what is on flash alone.
#include "ftl/oob_scan.h"
#include "ftl/page_mapped.h"

namespace ssdlab::ftl::page_mapped {

void PageMappedFtl::recover(RecoveryPolicy policy, CommandList& out, RecoveryReport& report) {
  // DFTL: translation pages are logical pages after the host's, so the scan
  // finds the GTD too; the map cache (DRAM) starts empty.
  const OobScan scan = scan_oob(nand_, map_.size(), pages_per_lpn_, policy, summary_bytes_ != 0);
  report.pages_read = scan.pages_read;
  nand_.forget_valid_pages();
  map_.assign(scan.latest.begin(), scan.latest.end());
  if (cache_) cache_->clear();
  for (Lpn lpn = 0; lpn < map_.size(); ++lpn)
    if (map_[lpn] != kNoPage)
      for (std::uint32_t i = 0; i < pages_per_lpn_; ++i) nand_.revalidate(map_[lpn] + i);
  const std::size_t before = out.size();
  adopt_blocks(out);
  if (cache_) rewrite_stale_translation_pages(out);  // DFTL
  report.mount_commands = out.size() - before;
}

void PageMappedFtl::adopt_blocks(CommandList& out) {
  buckets_ = VictimBuckets(geometry_.blocks(), groups(), geometry_.pages_per_block);
  policy_->clear();
  // A victim cleaned in part before the cut is a full block again: sealed.
  in_progress_.assign(groups(), InProgress{});
  planes_.assign(geometry_.planes(), PlaneState{});
  std::fill(free_blocks_.begin(), free_blocks_.end(), 0);
  std::fill(cursors_.begin(), cursors_.end(), 0);
  std::fill(retired_.begin(), retired_.end(), 0);
  wear_.restore_erase_counts();  // from the block headers
  for (BlockId block = 0; block < geometry_.blocks(); ++block) {
    const std::uint32_t plane = geometry_.plane_of_block(block);
    const std::uint32_t pool = pool_of_block(block);
    PlaneState& state = planes_[plane];
    if (nand_.is_erased(block)) {
      if (wear_.is_retired(block)) {
        ++retired_[pool];  // worn out: never allocated again
      } else {
        state.free_blocks.push_back(block);
        ++free_blocks_[pool];
      }
    } else if (nand_.is_full(block)) {
      insert_sealed(block);
    } else if (nand_.write_pointer(block) == data_pages_) {
      // Every data page written, the summary page not (not seen in practice:
      // the FTL writes both in one list, and a cut tears, never unwrites, a
      // page): closed now.
      Command closing = flash::page_command(Op::kProgram, kNoPage, flash::kNoLpn, 0);
      closing.cleaning = true;
      close_block(block, closing, out);
    } else if (cache_ && is_translation(nand_.lpn_at(geometry_.first_page(block))) &&
               state.map_active == kNoBlock) {
      state.map_active = block;  // DFTL: a translation block being filled
    } else if (state.host_active == kNoBlock) {
      // A partly written block was an active block before the cut; which
      // kind (host or cleaning) only mattered for hot/cold separation.
      state.host_active = block;
    } else if (state.clean_active == kNoBlock) {
      state.clean_active = block;
    } else {
      // More partly written blocks than a plane has active ones (not seen in
      // practice): closed by padding (and its summary page), then sealed like
      // a full one.
      Command pad = flash::page_command(Op::kProgram, kNoPage, flash::kNoLpn, 0);
      pad.cleaning = true;
      while (nand_.write_pointer(block) < data_pages_) {
        pad.ppn = geometry_.first_page(block) + nand_.write_pointer(block);
        nand_.pad(pad.ppn);
        out.push_back(pad);
      }
      close_block(block, pad, out);
    }
  }
}

}  // namespace ssdlab::ftl::page_mapped
