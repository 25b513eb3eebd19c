// The counters every FTL keeps (ftl::Ftl::stats(); ftl/ftl.h calls them
// FtlStats), declared once: the FTL increments them per page, the
// simulator snapshots them (sim/report/device_snapshot.cpp) into
// summary.json's device counters, and the FTL's checkpoint saves them
// (section STAT), all through the one field list below (field_list.h).
// Units are physical pages unless named otherwise.
#pragma once

#include <cstdint>
#include <vector>

#include "common/flash_ratios.h"
#include "records/field_list.h"

namespace ssdlab::records {

struct FtlCounters {
  std::uint64_t host_pages_written = 0;     // pages the host asked to write
  std::uint64_t flash_pages_written = 0;    // pages programmed (host, RMW, moves, summary pages)
  std::uint64_t summary_pages_written = 0;  // summary pages programmed (ftl.summary_page)
  std::uint64_t host_pages_read = 0;
  std::uint64_t flash_pages_read = 0;     // pages read for host reads and RMW
  std::uint64_t rmw_pages_read = 0;       // reads done for read-modify-write
  std::uint64_t unmapped_pages_read = 0;  // host reads of never-written pages (no flash access)
  std::uint64_t erases = 0;
  std::uint64_t copy_backs = 0;
  std::uint64_t inter_plane_moves = 0;
  std::uint64_t trimmed_pages = 0;
  std::uint64_t blocks_cleaned = 0;  // victims erased, foreground and background
  std::uint64_t background_blocks_cleaned = 0;
  std::uint64_t pages_reclaimed = 0;  // superseded pages in the victims
  std::vector<std::uint64_t> blocks_cleaned_per_pool;
  // Block-mapped and hybrid FTLs (Desnoyers §4; BAST and FAST). A merge makes
  // a logical block's data whole again in one flash block: a switch merge
  // turns a fully, sequentially written log block into the data block (no
  // copy); a partial merge completes a sequentially written log block by
  // copying the rest of the old data block into it; a full merge copies the
  // latest version of every page into a fresh block.
  std::uint64_t switch_merges = 0;
  std::uint64_t partial_merges = 0;
  std::uint64_t full_merges = 0;
  std::uint64_t padding_pages = 0;  // pages programmed with no data to keep pages in order
  // Wear (Agrawal et al. §5). Retired: blocks that reached their rated P/E
  // cycles and are never allocated again. Deferrals: greedy victims passed
  // over by rate-limiting. Migrations: worn blocks refilled with the data of
  // a cold block (which is recycled instead); migrated pages are moved too
  // (also in copy_backs/inter_plane_moves).
  std::uint64_t blocks_retired = 0;
  std::uint64_t wear_deferrals = 0;
  std::uint64_t wear_migrations = 0;
  std::uint64_t wear_migrated_pages = 0;
  std::vector<std::uint64_t> wear_migrations_per_pool;
  // DFTL (Gupta et al. 2009; ftl/dftl.h): map lookups that found their entry
  // in the cached mapping table or not, translation pages read (misses and
  // the read half of write-backs) and written (write-backs of dirty entries,
  // batched per translation page), and cleaned blocks that held translation
  // pages. Translation pages written are also in flash_pages_written, and
  // translation pages moved by cleaning in copy_backs/inter_plane_moves.
  std::uint64_t map_cache_hits = 0;
  std::uint64_t map_cache_misses = 0;
  std::uint64_t translation_pages_read = 0;
  std::uint64_t translation_pages_written = 0;
  std::uint64_t translation_blocks_cleaned = 0;

  double map_cache_hit_ratio() const {
    return ssdlab::map_cache_hit_ratio(map_cache_hits, map_cache_misses);
  }
  double cleaning_efficiency(std::uint32_t pages_per_block) const {
    return ssdlab::cleaning_efficiency(pages_reclaimed, blocks_cleaned, pages_per_block);
  }
  double write_amplification() const {
    return ssdlab::write_amplification(flash_pages_written, host_pages_written);
  }
  bool operator==(const FtlCounters&) const = default;
};

// The list, under summary.json's names. Its scalar counters, in this order,
// then the two per-pool lists are the checkpoint's section STAT (version 2:
// the DFTL counters are its last five): a new counter goes after them and
// raises the section's version (ftl/ftl_state.cpp).
template <typename V, RecordOf<FtlCounters> R>
void fields(V& v, R& f) {
  v("host_pages_written", f.host_pages_written);
  v("flash_pages_written", f.flash_pages_written);
  v("host_pages_read", f.host_pages_read);
  v("flash_pages_read", f.flash_pages_read);
  v("rmw_pages_read", f.rmw_pages_read);
  v("unmapped_pages_read", f.unmapped_pages_read);
  v("erases", f.erases);
  v("copy_backs", f.copy_backs);
  v("inter_plane_moves", f.inter_plane_moves);
  v("trimmed_pages", f.trimmed_pages);
  v("blocks_cleaned", f.blocks_cleaned);
  v("background_blocks_cleaned", f.background_blocks_cleaned);
  v("pages_reclaimed", f.pages_reclaimed);
  v("switch_merges", f.switch_merges);
  v("partial_merges", f.partial_merges);
  v("full_merges", f.full_merges);
  v("padding_pages", f.padding_pages);
  v("blocks_retired", f.blocks_retired);
  v("wear_deferrals", f.wear_deferrals);
  v("wear_migrations", f.wear_migrations);
  v("wear_migrated_pages", f.wear_migrated_pages);
  v("map_cache_hits", f.map_cache_hits);
  v("map_cache_misses", f.map_cache_misses);
  v("translation_pages_read", f.translation_pages_read);
  v("translation_pages_written", f.translation_pages_written);
  v("translation_blocks_cleaned", f.translation_blocks_cleaned);
  v("blocks_cleaned_per_pool", f.blocks_cleaned_per_pool);
  v("wear_migrations_per_pool", f.wear_migrations_per_pool);
  // Also in flash_pages_written; summary.json and STAT never had it.
  v.unreported("summary_pages_written", f.summary_pages_written);
  v.derived("pages_moved", f.copy_backs + f.inter_plane_moves);
  // DFTL: lookups that found their map entry cached.
  v.derived("map_cache_hit_ratio", f.map_cache_hit_ratio());
}

}  // namespace ssdlab::records
