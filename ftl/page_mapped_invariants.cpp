// The page-mapped FTL's consistency check (--verify, check_every): the map
// and the pages' reverse map agree, and every block is exactly one of free,
// active, the victim in progress, sealed with its true valid count, or
// retired.
#include <string>
#include <vector>

#include "ftl/page_mapped.h"

namespace ssdlab::ftl::page_mapped {

void PageMappedFtl::check_invariants() const {
  auto fail = [](const std::string& what) { throw std::logic_error("page-mapped: " + what); };
  nand_.check_invariants();
  // Map and reverse map (the OOB logical page) agree.
  std::uint64_t mapped_pages = 0;
  for (Lpn lpn = 0; lpn < map_.size(); ++lpn) {  // DFTL: translation pages too
    const Ppn first = map_[lpn];
    if (first == kNoPage) continue;
    for (std::uint32_t i = 0; i < pages_per_lpn_; ++i)
      if (!nand_.is_valid(first + i) || nand_.lpn_at(first + i) != lpn)
        fail(fmt::format("logical page {} -> page {} which holds {} ({})", lpn, first + i,
                         nand_.lpn_at(first + i),
                         nand_.is_valid(first + i) ? "valid" : "not valid"));
    mapped_pages += pages_per_lpn_;
  }
  // Every block is exactly one of: free, active, sealed (in the buckets with
  // its true valid count).
  std::vector<std::uint8_t> seen(geometry_.blocks(), 0);
  std::vector<std::uint32_t> free_per_pool(layout_.pools(), 0);
  std::uint64_t valid_pages = 0;
  for (std::uint32_t plane = 0; plane < planes_.size(); ++plane) {
    for (const BlockId block : planes_[plane].free_blocks) {
      if (!nand_.is_erased(block) || geometry_.plane_of_block(block) != plane ||
          wear_.is_retired(block) || seen[block]++)
        fail(
            fmt::format("free list of plane {}: block {} is not an erased block of that plane, "
                        "or listed twice",
                        plane, block));
      ++free_per_pool[layout_.pool_of_plane(plane)];
    }
    for (const BlockId active :
         {planes_[plane].host_active, planes_[plane].clean_active, planes_[plane].map_active}) {
      if (active == kNoBlock) continue;
      if (seen[active]++ || nand_.is_full(active) || geometry_.plane_of_block(active) != plane)
        fail(fmt::format("plane {}: active block {} is free, full, shared or foreign", plane,
                         active));
    }
  }
  for (std::uint32_t group = 0; group < in_progress_.size(); ++group) {
    const BlockId victim = in_progress_[group].victim;
    if (victim == kNoBlock) continue;
    if (seen[victim]++ || !nand_.is_full(victim) || buckets_.contains(victim) ||
        group_of_block(victim) != group)
      fail(
          fmt::format("victim in progress {} is free, active, sealed or of another group", victim));
  }
  for (BlockId block = 0; block < geometry_.blocks(); ++block) {
    valid_pages += nand_.valid_pages(block);
    if (seen[block]) continue;
    if (wear_.is_retired(block)) {
      if (!nand_.is_erased(block) || nand_.erase_count(block) != geometry_.pe_cycles)
        fail(fmt::format("retired block {} is in use or was erased {} times (rated {})", block,
                         nand_.erase_count(block), geometry_.pe_cycles));
      continue;
    }
    if (!buckets_.contains(block) || !nand_.is_full(block) ||
        buckets_.valid(block) != nand_.valid_pages(block) ||
        (summary_bytes_ != 0 &&
         nand_.lpn_at(geometry_.first_page(block) + data_pages_) != flash::kNoLpn))
      fail(
          fmt::format("block {} is neither free, active nor sealed with its valid count "
                      "({} recorded, {} true) and, with summary pages, no data in its last page",
                      block, buckets_.contains(block) ? std::int64_t{buckets_.valid(block)} : -1,
                      nand_.valid_pages(block)));
  }
  if (valid_pages != mapped_pages)
    fail(fmt::format("{} valid pages but {} mapped", valid_pages, mapped_pages));
  if (free_per_pool != free_blocks_)
    fail("free block counts per pool disagree with the free lists");
  if (cache_) cache_->check_invariants();
}

}  // namespace ssdlab::ftl::page_mapped
