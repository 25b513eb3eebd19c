// What the SLC cache did ([slc_cache]; ftl/page_mapped/page_mapped_slc_cache.h), over
// the pools: summary.json's "slc_cache" block, declared once. The cache
// fills it when asked (ftl::Ftl::part_records(), not per page: its
// per-page counts are its pools'), and the summary writes and reads it
// through the field list below. Pages are physical pages; blocks are
// SLC-mode blocks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "records/field_list.h"

namespace ssdlab::records {

struct SlcCacheCounters {
  std::string mode;  // ftl::slc_cache_mode_name: "static" or "dynamic"
  std::uint64_t pages_per_block = 0;      // pages of one SLC-mode block
  std::uint64_t capacity_blocks = 0;      // the most it may hold (static part included)
  std::uint64_t static_blocks = 0;        // its static part
  std::uint64_t blocks_in_use = 0, peak_blocks = 0;  // now, and the most at once
  std::uint64_t blocks_opened = 0;        // blocks taken into SLC mode
  std::uint64_t host_pages_absorbed = 0;  // host pages written in SLC mode
  std::uint64_t host_pages_bypassed = 0;  // host pages written to native cells (cache full)
  std::uint64_t pages_folded = 0;         // valid pages moved into native cells
  std::uint64_t blocks_folded = 0;        // cache blocks folded and erased
  std::uint64_t foreground_folds = 0;     // of them, folded on a host write's path
  // Its size over time, one entry each per sample, taken after every 1% of
  // the logical capacity written by the host (from preconditioning on):
  // the host pages written then, and the blocks in use.
  std::vector<std::uint64_t> size_host_pages, size_blocks;
  bool operator==(const SlcCacheCounters&) const = default;
};

template <typename V, RecordOf<SlcCacheCounters> R>
void fields(V& v, R& c) {
  v("mode", c.mode);
  v("pages_per_block", c.pages_per_block);
  v("capacity_blocks", c.capacity_blocks);
  v("static_blocks", c.static_blocks);
  v("blocks_in_use", c.blocks_in_use);
  v("peak_blocks", c.peak_blocks);
  v("blocks_opened", c.blocks_opened);
  v("host_pages_absorbed", c.host_pages_absorbed);
  v("host_pages_bypassed", c.host_pages_bypassed);
  v("pages_folded", c.pages_folded);
  v("blocks_folded", c.blocks_folded);
  v("foreground_folds", c.foreground_folds);
  v("size_host_pages", c.size_host_pages);
  v("size_blocks", c.size_blocks);
}

}  // namespace ssdlab::records
