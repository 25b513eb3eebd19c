// The page-mapped FTL's consistency check (--verify, check_every): the map
// and the pages' reverse map agree, and every block is exactly one of free,
// active, the victim in progress, sealed with its true valid count, or
// retired.
#include <string>
#include <vector>

#include "ftl/page_mapped/page_mapped.h"

namespace ssdlab::ftl::page_mapped {

void PageMappedFtl::check_invariants() const {
  auto fail = [](const std::string& what) { throw std::logic_error("page-mapped: " + what); };
  nand_.check_invariants();
  // Map and reverse map (the OOB logical page) agree.
  std::uint64_t mapped_pages = 0;
  // (Each entry's page is a cache miss: the pages of the entries a few ahead
  // load meanwhile. Every load of a checkpoint runs this check.)
  constexpr Lpn kAhead = 64;
  for (Lpn lpn = 0; lpn < map_.size(); ++lpn) {  // DFTL: translation pages too
    if (lpn + kAhead < map_.size() && map_[lpn + kAhead] != kNoPage)
      nand_.prefetch_for_check(map_[lpn + kAhead]);
    const Ppn first = map_[lpn];
    if (first == kNoPage) continue;
    for (std::uint32_t i = 0; i < pages_per_lpn_; ++i)
      if (!nand_.is_valid(first + i) || nand_.lpn_at(first + i) != lpn)
        fail(fmt::format("logical page {} -> page {} which holds {} ({})", lpn, first + i,
                         nand_.lpn_at(first + i),
                         nand_.is_valid(first + i) ? "valid" : "not valid"));
    mapped_pages += pages_per_lpn_;
  }
  // Every block is exactly one of: free, active, the victim in progress,
  // sealed (a candidate with its true valid count) or retired.
  std::vector<std::uint8_t> seen(geometry_.blocks(), 0);
  placement_.check(seen, [this](BlockId block) { return !wear_.is_retired(block); });
  std::uint64_t valid_pages = 0;
  for (std::uint32_t group = 0; group < trigger_.groups(); ++group) {
    const BlockId victim = victims_.in_progress(group).victim;
    if (victim == kNoBlock) continue;
    if (seen[victim]++ || !nand_.is_full(victim) || victims_.is_candidate(victim) ||
        trigger_.group_of_block(victim) != group)
      fail(
          fmt::format("victim in progress {} is free, active, sealed or of another group", victim));
  }
  for (BlockId block = 0; block < geometry_.blocks(); ++block) {
    valid_pages += nand_.valid_pages(block);
    if (seen[block]) continue;
    if (nand_.is_slc(block) && nand_.is_full(block) && !victims_.is_candidate(block))
      continue;  // a sealed SLC cache block (slc_.check() below lists them)
    if (wear_.is_retired(block)) {
      if (!nand_.is_erased(block) || nand_.erase_count(block) != geometry_.pe_cycles)
        fail(fmt::format("retired block {} is in use or was erased {} times (rated {})", block,
                         nand_.erase_count(block), geometry_.pe_cycles));
      continue;
    }
    if (!victims_.is_candidate(block) || !nand_.is_full(block) ||
        victims_.valid(block) != nand_.valid_pages(block) ||
        (summary_bytes_ != 0 &&
         nand_.lpn_at(geometry_.first_page(block) + data_pages_) != flash::kNoLpn))
      fail(fmt::format(
          "block {} is neither free, active nor sealed with its valid count "
          "({} recorded, {} true) and, with summary pages, no data in its last page",
          block, victims_.is_candidate(block) ? std::int64_t{victims_.valid(block)} : -1,
          nand_.valid_pages(block)));
  }
  if (valid_pages != mapped_pages)
    fail(fmt::format("{} valid pages but {} mapped", valid_pages, mapped_pages));
  if (cache_) cache_->check_invariants();
  if (slc_.on()) {
    std::vector<std::uint32_t> active_slc(layout_.pools());
    for (std::uint32_t pool = 0; pool < layout_.pools(); ++pool)
      active_slc[pool] = placement_.active_blocks(pool, WriteKind::kSlc);
    slc_.check(active_slc);
  }
}

}  // namespace ssdlab::ftl::page_mapped
