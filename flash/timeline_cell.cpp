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

std::uint8_t FlashTimeline::read_page_class(const CommandList& commands) const {
  if (!multi_bit_) return 0;
  std::uint8_t slowest = 0;
  TimeNs slowest_ns = -1;
  for (const Command& command : commands) {
    if (command.op != Op::kRead || command.rides) continue;
    // A two-plane read's pages share their offset (and page type); each
    // page's block is its own, for SLC mode.
    for (const Ppn ppn : {command.ppn, command.ppn2}) {
      if (ppn == kNoPage) break;
      const bool slc = in_slc_mode(ppn);
      const std::uint32_t type = slc ? 0 : page_type(ppn);
      const TimeNs ns = slc ? timing_.cell.slc_read_ns : timing_.cell.read_ns[type];
      if (ns <= slowest_ns) continue;
      slowest_ns = ns;
      slowest = slc ? kSlcModeReadClass : static_cast<std::uint8_t>(1 + type);
    }
  }
  return slowest;
}

TimeNs FlashTimeline::cell_program_ns(Ppn ppn) const {
  if (in_slc_mode(ppn)) return timing_.cell.slc_program_ns;
  return timing_.cell.program_ns[ppn == kNoPage ? 0 : page_type(ppn)];
}

TimeNs FlashTimeline::cell_erase_ns(Ppn ppn) const {
  return in_slc_mode(ppn) ? timing_.cell.slc_erase_ns : timing_.cell.erase_ns;
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
    // Independent plane reads: the second page at an offset of its own.
    const bool apart = command.op == Op::kRead && command.two_plane() &&
                       timing_.independent_plane_reads;
    for (const Ppn ppn : {source, apart ? command.ppn2 : kNoPage}) {
      if (ppn == kNoPage) continue;
      const std::uint64_t counted = apart ? 1 : pages;
      if (in_slc_mode(ppn))
        stats_.slc_mode_reads += counted;
      else
        stats_.page_type_reads[page_type(ppn)] += counted;
    }
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
