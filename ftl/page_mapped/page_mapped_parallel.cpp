// The page-mapped FTL's allocation pools written in parallel (functional
// preconditioning on several threads, sim/state/precondition.h): when the
// pools share no state, and the counters kept per pool meanwhile.
#include "ftl/page_mapped/page_mapped.h"

namespace ssdlab::ftl::page_mapped {

std::uint32_t PageMappedFtl::parallel_pools() const {
  // Whole-page writes of one pool touch that pool's blocks, planes, free
  // lists, buckets and wear domain, and the map entries of its own logical
  // pages. Shared besides: the counters (kept per pool meanwhile), the
  // victim policy's clock and state (greedy has neither), the wear
  // leveler's generator (rate-limiting only), DFTL's cache, and the NAND
  // array's 64-page words of valid bits (a pool must own whole words).
  // Placement handles: the handle of the last write is shared too; moves in
  // turn count the cleaned victims in the shared counters (move_target_plane()).
  const PageMappedKeys& keys = config_.keys.get<PageMappedKeys>();
  const bool disjoint = !cache_ && !fdp_.on() && keys.victim.kind == VictimPolicyKind::kGreedy &&
                        keys.move_plane == MovePlane::kVictim && !wear_.config().rate_limit() &&
                        geometry_.pages() / layout_.pools() % 64 == 0;
  return disjoint && layout_.pools() > 1 ? layout_.pools() : 0;
}

void PageMappedFtl::set_pool_parallel(bool on) {
  if (on) {
    if (parallel_pools() == 0)
      throw std::logic_error("set_pool_parallel() where pools share state");
    FtlStats empty;
    empty.blocks_cleaned_per_pool.assign(layout_.pools(), 0);
    empty.wear_migrations_per_pool.assign(layout_.pools(), 0);
    pool_stats_.assign(layout_.pools(), empty);
    return;
  }
  for (const FtlStats& pool : pool_stats_) add_counters(stats_, pool);
  pool_stats_.clear();
}

}  // namespace ssdlab::ftl::page_mapped
