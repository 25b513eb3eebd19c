// Host-guided placement's host commands in the page-mapped FTL and DFTL
// (page_mapped_fdp.h; docs/fdp.md, "Reclaim Unit Handle Update"): TP4146's
// Reclaim Unit Handle Update (an I/O Management Send), and the report with
// each handle's status (what an I/O Management Receive returns) and what
// cleaning reclaimed.
#include "ftl/page_mapped/page_mapped.h"

namespace ssdlab::ftl::page_mapped {

void PageMappedFtl::update_reclaim_unit_handle(std::uint8_t id, CommandList& out) {
  if (!fdp_.on()) return;
  const std::optional<WriteKind> slot = fdp_.update(id);
  if (!slot) return;  // an invalid identifier: the event, nothing moves
  // The host names no reclaim group (a write's group follows from its
  // address: ftl.stripe_size), so the handle moves on in every group.
  for (std::uint32_t group = 0; group < layout_.pools(); ++group)
    close_reclaim_unit(*slot, group, false, out);
}

bool PageMappedFtl::close_reclaim_unit(WriteKind slot, std::uint32_t group, bool expired_only,
                                       CommandList& out) {
  // The handle's reclaim unit in the group is its active block on each
  // plane of the group; each written one is closed: the open wordline
  // completed by padding (one-shot cells: its pages are on flash only once
  // it is programmed), the rest of the block left unwritten
  // (close_unwritten()), and the block sealed as a full one (cleaning may
  // take it). The next write of the handle opens new blocks: a new unit.
  if (expired_only) {
    bool expired = false;
    for (const std::uint32_t plane : layout_.planes(group)) {
      const BlockId block = placement_.active_block(plane, slot);
      expired = expired || (block != kNoBlock && nand_.write_pointer(block) != 0 &&
                            !nand_.is_slc(block) && fdp_.expired(block));
    }
    if (!expired) return false;
  }
  Command padding = flash::page_command(Op::kProgram, kNoPage, flash::kNoLpn, 0);
  padding.cleaning = true;
  std::uint64_t unwritten = 0;
  bool closed = false;
  for (const std::uint32_t plane : layout_.planes(group)) {
    const BlockId block = placement_.active_block(plane, slot);
    if (block == kNoBlock || nand_.write_pointer(block) == 0) continue;
    closed = true;
    unwritten += data_pages_ - nand_.write_pointer(block);
    if (wordlines_.on()) pad_block(block, wordline_end(block), padding, out);
    if (placement_.active_block(plane, slot) != block) continue;  // the padding filled it
    close_unwritten(block, padding, out);
  }
  if (closed) fdp_.not_fully_written(unwritten * geometry_.page_size);
  return closed;
}

void PageMappedFtl::close_expired_reclaim_units(CommandList& out) {
  // ftl.fdp_ru_time_limit (TP4146's ERUTL): at a write, every reclaim unit a
  // handle has kept open past the limit is closed, and the handle moves on
  // to a new one in that group (the controller's own Reclaim Unit Handle
  // Update: events 0x01 and 0x81). (Between the FTL's calls nothing is
  // open in the controller's page buffer: map units' pages were padded.)
  for (std::uint32_t handle = 0; handle < fdp_.handles(); ++handle)
    for (std::uint32_t group = 0; group < layout_.pools(); ++group)
      if (close_reclaim_unit(handle_host_kind(handle), group, true, out))
        fdp_.time_limit_exceeded();
}

void PageMappedFtl::write_placed_run(const PageRange& range, CommandList& out) {
  // Each part of the run on its own handle (`[[placement]]` ranges: a run
  // of a buffer's flush, or of preconditioning, may cross a range's edge).
  for (std::uint32_t done = 0; done < range.count;) {
    PageRange part = range;
    part.first = range.first + done;
    part.count = fdp_.pages_on_one_handle(range.placement, part.first, range.count - done);
    part.partial_first = range.partial_first && done == 0;
    done += part.count;
    part.partial_last = range.partial_last && done == range.count;
    write_run(part, out);
  }
}

Ftl::PartRecords PageMappedFtl::part_records() const {
  PartRecords records;
  if (slc_.on()) records.slc_cache = slc_.stats();
  if (fdp_.on()) records.fdp = fdp_record();
  return records;
}

records::FdpCounters PageMappedFtl::fdp_record() const {
  // A handle's reclaim unit in a group: its active block on each plane; a
  // plane with none opens a whole block at the handle's next page there.
  const auto available = [this](WriteKind slot, std::uint32_t group) {
    std::uint64_t pages = 0;
    for (const std::uint32_t plane : layout_.planes(group)) {
      const BlockId block = placement_.active_block(plane, slot);
      pages += block == kNoBlock ? data_pages_ : data_pages_ - nand_.write_pointer(block);
    }
    return pages * geometry_.page_size;
  };
  records::FdpCounters report =
      fdp_.stats(stats_, geometry_, layout_.pools(), layout_.planes_per_pool(), available);
  report.reclaim = reclaim_units_.on() ? "unit" : "block";
  report.reclaim_units_cleaned = reclaim_units_.cleaned();
  return report;
}

}  // namespace ssdlab::ftl::page_mapped
