// The array times of cells of several bits (flash/cell.h), by page type and
// SLC mode, and their counters: the part of FlashTimeline an SLC device never
// calls (FlashTimeline::multi_bit_).
#include "flash/nand_array.h"
#include "flash/timeline.h"

namespace ssdlab::flash {

bool FlashTimeline::in_slc_mode(Ppn ppn) const {
  return nand_ != nullptr && ppn != kNoPage && nand_->is_slc(geometry_.block_of(ppn));
}

// A two-plane command's pages share their offset, so their page type; its
// first page's block decides SLC mode for both. `ppn` may be kNoPage (a cost
// asked for no page in particular): the lower page's time.
TimeNs FlashTimeline::cell_read_ns(Ppn ppn) const {
  if (in_slc_mode(ppn)) return timing_.cell.slc_read_ns;
  return timing_.cell.read_ns[ppn == kNoPage ? 0 : page_type(ppn)];
}

TimeNs FlashTimeline::cell_program_ns(Ppn ppn) const {
  if (in_slc_mode(ppn)) return timing_.cell.slc_program_ns;
  return timing_.cell.program_ns[ppn == kNoPage ? 0 : page_type(ppn)];
}

TimeNs FlashTimeline::cell_erase_ns(Ppn ppn) const {
  return in_slc_mode(ppn) ? timing_.cell.slc_erase_ns : timing_.cell.erase_ns;
}

// unloaded_ns() with the cell's times: a copy-back or move reads at its
// source's time and programs at its target's.
TimeNs FlashTimeline::cell_unloaded_ns(const Command& command) const {
  const TimeNs transfer = page_transfer_ns_ * (command.two_plane() ? 2 : 1);
  const TimeNs cycles = timing_.command_ns;
  switch (command.op) {
    case Op::kRead:
      return cycles + cell_read_ns(command.ppn) + read_transfer_ns(command);
    case Op::kProgram:
      return cycles + program_transfer_ns(command) + cell_program_ns(command.ppn);
    case Op::kErase:
      return cycles + cell_erase_ns(command.ppn);
    case Op::kCopyBack:
      return cycles + cell_read_ns(command.src) + (command.host_data ? page_transfer_ns_ : 0) +
             cell_program_ns(command.ppn);
    case Op::kMove:
      return 2 * cycles + cell_read_ns(command.src) + 2 * transfer + cell_program_ns(command.ppn);
  }
  return 0;
}

void FlashTimeline::count_cells(const Command& command) {
  if (command.cleaning)
    stats_.cleaning_flash_ns += unloaded_ns(command);
  else
    count_other_host(command);
  const std::uint64_t pages = command.two_plane() ? 2 : 1;
  const bool reads = command.op == Op::kRead || command.op == Op::kCopyBack ||
                     command.op == Op::kMove;
  const bool programs = command.op != Op::kRead && command.op != Op::kErase;
  if (reads) {
    const Ppn source = command.op == Op::kRead ? command.ppn : command.src;
    if (in_slc_mode(source))
      stats_.slc_mode_reads += pages;
    else
      stats_.page_type_reads[page_type(source)] += pages;
  }
  if (programs) {
    if (in_slc_mode(command.ppn)) {
      stats_.slc_mode_programs += pages;
      stats_.wordline_programs += pages;
    } else if (page_type(command.ppn) + 1 == bits_.divisor()) {
      stats_.wordline_programs += pages;
    }
  }
}

}  // namespace ssdlab::flash
