// What every FTL's checkpoint shares: the refusal of FTLs that cannot save,
// and the counters.
#include "ftl/ftl.h"

namespace ssdlab::ftl {

void Ftl::save_state(StateWriter& /*out*/) const {
  throw make_error("the {} FTL cannot save its state (it does not implement save_state)", name());
}

void Ftl::load_state(StateReader& /*in*/) {
  throw make_error("the {} FTL cannot load a state (it does not implement load_state)", name());
}

namespace {

// The scalar counters in a fixed order; the per-pool vectors follow.
template <typename Stats, typename Visit>
void each_counter(Stats& s, Visit visit) {
  for (auto* counter : {&s.host_pages_written,
                        &s.flash_pages_written,
                        &s.host_pages_read,
                        &s.flash_pages_read,
                        &s.rmw_pages_read,
                        &s.unmapped_pages_read,
                        &s.erases,
                        &s.copy_backs,
                        &s.inter_plane_moves,
                        &s.trimmed_pages,
                        &s.blocks_cleaned,
                        &s.background_blocks_cleaned,
                        &s.pages_reclaimed,
                        &s.switch_merges,
                        &s.partial_merges,
                        &s.full_merges,
                        &s.padding_pages,
                        &s.blocks_retired,
                        &s.wear_deferrals,
                        &s.wear_migrations,
                        &s.wear_migrated_pages,
                        // version 2: DFTL
                        &s.map_cache_hits,
                        &s.map_cache_misses,
                        &s.translation_pages_read,
                        &s.translation_pages_written,
                        &s.translation_blocks_cleaned})
    visit(*counter);
}

}  // namespace

void save_stats(StateWriter& out, const FtlStats& stats) {
  out.section("STAT", 2);
  each_counter(stats, [&out](const std::uint64_t& counter) { out.u64(counter); });
  out.vector(stats.blocks_cleaned_per_pool);
  out.vector(stats.wear_migrations_per_pool);
}

void load_stats(StateReader& in, FtlStats& stats) {
  in.section("STAT", 2);
  each_counter(stats, [&in](std::uint64_t& counter) { counter = in.u64(); });
  in.vector(stats.blocks_cleaned_per_pool, stats.blocks_cleaned_per_pool.size(),
            "the per-pool cleaning counts");
  in.vector(stats.wear_migrations_per_pool, stats.wear_migrations_per_pool.size(),
            "the per-pool migration counts");
}

}  // namespace ssdlab::ftl
