// The controller's flash read error part (read_errors.h): its construction
// and read reclaim, which rewrites the blocks it has due.
#include "common/error.h"
#include "ftl/page_runs.h"
#include "ftl/placement_tag.h"
#include "sim/controller/ssd.h"

namespace ssdlab::sim {

void Ssd::make_read_errors() {
  const ReadErrorsConfig& e = config_.errors;
  if (!e.on()) return;
  const bool reclaim = e.reclaim_reads || e.reclaim_retries;
  // A zoned device's pages are rewritten by the host, zone by zone: the
  // device cannot move them.
  if (reclaim && ftl_->zoned())
    throw make_error(
        "{}: errors.reclaim_reads and errors.reclaim_retries rewrite blocks through the FTL; a "
        "zoned device (ftl.type = \"zoned\") has no such rewrite (leave them 0)",
        config_.source);
  const flash::NandArray& nand = ftl_->nand();
  errors_ = std::make_unique<ReadErrors>(e, nand, nand.geometry().page_size);
}

void Ssd::reclaim_blocks(TimeNs now) {
  const flash::NandArray& nand = ftl_->nand();
  const flash::FastGeometry& g = nand.geometry();
  for (flash::BlockId block; (block = errors_->take_reclaim()) != ReadErrors::kNoBlock;) {
    // Its valid pages, but those the write buffer holds a newer copy of.
    commands_.clear();
    reclaim_lpns_.clear();
    const flash::Ppn first = g.first_page(block);
    for (flash::Ppn ppn = first; ppn < first + nand.write_pointer(block); ++ppn) {
      const flash::Lpn lpn = nand.lpn_at(ppn);
      if (!nand.is_valid(ppn) || (buffer_ && buffer_->holds(lpn))) continue;
      reclaim_lpns_.push_back(lpn);
      flash::Command read = flash::page_command(flash::Op::kRead, ppn, lpn);
      read.cleaning = true;
      commands_.push_back(read);
    }
    errors_->count_reclaim(reclaim_lpns_.size());
    if (reclaim_lpns_.empty()) continue;
    ftl_->media_reallocated(reclaim_lpns_.size());
    // Read out (the ECC corrects them), then written again where the FTL
    // puts them: the old copies are superseded, and the block is cleaned
    // as any other. All of it is background work (cleaning's class).
    ftl::page_runs(reclaim_lpns_, reclaim_runs_);
    // With host-guided placement, under the block's own handle: a handle's
    // data stays apart from the others' (persistent isolation).
    if (const std::uint8_t tag = nand.placement_tag(block); tag != 0)
      for (ftl::PageRange& run : reclaim_runs_)
        run.placement = static_cast<std::uint8_t>(ftl::tag_handle(tag));
    reclaim_writes_.clear();
    ftl_->write_runs(reclaim_runs_, reclaim_writes_);
    ftl_->close_wordlines(reclaim_writes_);
    for (flash::Command command : reclaim_writes_) {
      command.stage = static_cast<std::uint8_t>(command.stage + 1);
      command.cleaning = true;
      commands_.push_back(command);
    }
    emit(CommandSource::kBackground, nullptr);
    schedule(now, {flash::WorkClass::kCleaning, flash::HostWait::kNone,
                   needs_times_at_once() ? kWait : kBackground});
  }
}

}  // namespace ssdlab::sim
