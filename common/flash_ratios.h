// The ratios of an FTL's counters (records/ftl_counters.h calls them), in
// common so that any report that has the counts derives them the same way.
// Each is 0 where its denominator is.
#pragma once

#include <cstdint>

namespace ssdlab {

// `part` over `whole`; 0 if whole is 0.
constexpr double share(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? 0.0 : static_cast<double>(part) / static_cast<double>(whole);
}

// Lookups that found their map entry cached (DFTL; Gupta et al. 2009).
constexpr double map_cache_hit_ratio(std::uint64_t hits, std::uint64_t misses) {
  return share(hits, hits + misses);
}

// Agrawal et al. §3.2: superseded pages over all pages of the cleaned blocks.
constexpr double cleaning_efficiency(std::uint64_t pages_reclaimed, std::uint64_t blocks_cleaned,
                                     std::uint32_t pages_per_block) {
  return share(pages_reclaimed, blocks_cleaned * pages_per_block);
}

// Flash pages programmed per host page written.
constexpr double write_amplification(std::uint64_t flash_pages, std::uint64_t host_pages) {
  return share(flash_pages, host_pages);
}

}  // namespace ssdlab
