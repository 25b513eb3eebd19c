// Checkpoints of the page-mapped FTL: its own section "PMAP" (the map, then
// the placement's active blocks, free lists and cursors, the retired block
// counts, and the victims in progress), then the NAND array, the victim
// candidates (buckets and policy), wear leveler and counters, each in its
// own section. Each part writes and reads its own pieces; this file fixes
// their order (the format). Sizes, layout and thresholds come from the
// config.
#include "ftl/page_mapped/page_mapped.h"

namespace ssdlab::ftl::page_mapped {
namespace {

// 2: each plane's translation block (DFTL), the victim policy's section
// "VPOL" after the victim buckets, and DFTL's map cache "DMAP" at the end.
// 3: the victims in progress (incremental cleaning), one per victim group.
// 4: each plane's SLC cache block (WriteKind::kSlc), and with an SLC cache
// its section "SLCC" after the counters. (With ftl.placement on, a config
// no earlier checkpoint can have, each plane's handle slots after these and
// the section "FDPS" after the SLC cache's: other checkpoints are unchanged.)
constexpr std::uint32_t kStateVersion = 4;
constexpr const char* kHostInSlcSection = "HSLC";

}  // namespace

void PageMappedFtl::save_state(StateWriter& out) const {
  // (Between calls: every call ends with its pages programmed, its victims erased.)
  if (!unerased_.empty()) throw std::logic_error("a checkpoint with a cleaned victim unerased");
  out.section("PMAP", kStateVersion);
  out.vector(map_);
  placement_.save_state(out);
  out.vector(retired_);
  victims_.save_progress(out);
  nand_.save_state(out);
  victims_.save_candidates(out);
  wear_.save_state(out);
  save_stats(out, stats_);
  if (slc_.on()) slc_.save_state(out);
  // One-shot cells with an SLC cache: whether each pool's last host write
  // went to a block in SLC mode (host_wordline_pages(): how a write buffer
  // packs the next flush). A section of its own, optional on load: a
  // checkpoint written before it keeps the constructor's (SLC mode).
  if (!host_in_slc_.empty()) {
    out.section(kHostInSlcSection, 1);
    out.vector(host_in_slc_);
  }
  if (fdp_.on()) fdp_.save_state(out);
  reclaim_units_.save_state(out);  // (ftl.fdp_reclaim = "unit" only)
  if (cache_) cache_->save_state(out);
}

void PageMappedFtl::load_state(StateReader& in) {
  in.section("PMAP", kStateVersion);
  in.vector(map_, map_.size(), "the page map");
  const std::uint64_t pages = geometry_.pages();
  for (const Ppn ppn : map_)
    if (ppn != kNoPage && ppn >= pages)
      throw make_error("corrupt: the page map points at page {} of {}", ppn, pages);
  placement_.load_state(in);
  in.vector(retired_, layout_.pools(), "the retired block counts");
  victims_.load_progress(in);
  nand_.load_state(in);
  victims_.load_candidates(in);
  wear_.load_state(in);
  load_stats(in, stats_);
  if (slc_.on()) slc_.load_state(in);
  if (!host_in_slc_.empty() && in.at_section(kHostInSlcSection)) {
    in.section(kHostInSlcSection, 1);
    in.vector(host_in_slc_, layout_.pools(), "where each pool's last host write went");
  }
  recount_mapped();
  if (fdp_.on()) fdp_.load_state(in);
  reclaim_units_.load_state(in);
  if (cache_) cache_->load_state(in);
}

}  // namespace ssdlab::ftl::page_mapped
