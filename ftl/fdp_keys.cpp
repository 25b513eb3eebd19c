// The placement keys of the page-mapped FTL and DFTL (ftl.placement,
// ftl.fdp_*; fdp_config.h, docs/fdp.md): read and checked, echoed only when
// placement is on (other configs echo as before), and described.
#include <fmt/format.h>

#include <iterator>

#include "ftl/page_mapped/page_mapped_keys.h"
#include "ftl/pools.h"

namespace ssdlab::ftl {

// Bytes of the one reclaim-unit size modelled: a block on each plane of a
// reclaim group (an allocation pool).
std::uint64_t reclaim_unit_bytes(const flash::Geometry& g, const FtlConfig& f) {
  const std::uint32_t pools = PoolLayout::pool_count(g, f.pool);
  return std::uint64_t{g.planes() / pools} * g.pages_per_block * g.page_size;
}

void read_placement_keys(KeyReader& r, const flash::Geometry& g, FtlConfig& f) {
  PlacementConfig& p = f.placement;
  r.named("ftl", "placement", p.mode, placement_mode_name(p.mode), parse_placement_mode,
          "a placement mode (allowed: none, fdp, streams)");
  r.integer("ftl", "fdp_handles", p.handles, 1, kMaxPlacementHandles);
  r.size("ftl", "fdp_ru_size", p.ru_size, 0, std::uint64_t{1} << 50);
  r.integer("ftl", "fdp_groups", p.groups, 0, 1 << 20);
  r.named("ftl", "fdp_isolation", p.isolation, isolation_name(p.isolation), parse_isolation,
          "a reclaim unit handle type (allowed: initially, persistently)");
  std::string reclaim = p.reclaim_units ? "unit" : "block";
  r.string("ftl", "fdp_reclaim", reclaim);
  r.integer("ftl", "fdp_ru_time_limit", p.ru_time_limit_s, 0, std::int64_t{1} << 30);
  const auto fail = [&r](const char* key, const std::string& what) {
    const auto [node, dotted] = r.find("ftl", key);
    r.fail(dotted, node, what);
  };
  if (!p.on()) {
    for (const char* key : {"fdp_handles", "fdp_ru_size", "fdp_groups", "fdp_isolation",
                            "fdp_reclaim", "fdp_ru_time_limit"})
      if (r.find("ftl", key).first)
        fail(key, "only ftl.placement = \"fdp\" or \"streams\" uses it");
    return;
  }
  if (reclaim != "block" && reclaim != "unit")
    fail("fdp_reclaim",
         fmt::format("'{}' is not what cleaning reclaims (allowed: block, unit)", reclaim));
  p.reclaim_units = reclaim == "unit";
  const PageMappedKeys& keys = f.keys.get<PageMappedKeys>();
  if (p.reclaim_units && keys.clean_scope != CleanScope::kPool)
    fail("fdp_reclaim",
         "reclaim units span the planes of a reclaim group: whole units need "
         "ftl.clean_scope = \"pool\"");
  if (p.reclaim_units && keys.victim.kind != VictimPolicyKind::kGreedy &&
      keys.victim.kind != VictimPolicyKind::kCostBenefit)
    fail("fdp_reclaim", fmt::format("whole reclaim units are chosen greedily or by cost-benefit, "
                                    "not by ftl.victim_policy = \"{}\"",
                                    victim_policy_name(keys.victim)));
  if (p.mode == PlacementMode::kStreams)
    for (const char* key :
         {"fdp_ru_size", "fdp_groups", "fdp_isolation", "fdp_reclaim", "fdp_ru_time_limit"})
      if (r.find("ftl", key).first)
        fail(key, "streams have no reclaim groups or handle types (use placement = \"fdp\")");
  const std::uint64_t ru = reclaim_unit_bytes(g, f);
  if (p.ru_size != 0 && p.ru_size != ru)
    fail("fdp_ru_size",
         fmt::format("a reclaim unit is one block on each plane of a reclaim group: {} bytes "
                     "with ftl.allocation_pool = \"{}\" (got {})",
                     ru, pool_scope_name(f.pool), p.ru_size));
  const std::uint32_t pools = PoolLayout::pool_count(g, f.pool);
  if (p.groups != 0 && p.groups != pools)
    fail("fdp_groups",
         fmt::format("reclaim groups are the allocation pools: {} with ftl.allocation_pool = "
                     "\"{}\" (got {})",
                     pools, pool_scope_name(f.pool), p.groups));
}

void echo_placement_keys(const FtlConfig& f, nlohmann::json& ftl_table) {
  const PlacementConfig& p = f.placement;
  if (!p.on()) return;  // an echo from before the keys loads back the same
  ftl_table["placement"] = placement_mode_name(p.mode);
  ftl_table["fdp_handles"] = p.handles;
  if (!p.ranges.empty()) {  // [[placement]], as [[ftl.placement_map]]
    nlohmann::json ranges = nlohmann::json::array();
    for (const PlacementConfig::Range& range : p.ranges)
      ranges.push_back({{"offset", range.offset}, {"size", range.size}, {"handle", range.handle}});
    ftl_table["placement_map"] = ranges;
  }
  if (p.mode != PlacementMode::kFdp) return;
  ftl_table["fdp_ru_size"] = p.ru_size;
  ftl_table["fdp_groups"] = p.groups;
  ftl_table["fdp_isolation"] = isolation_name(p.isolation);
  if (p.reclaim_units) ftl_table["fdp_reclaim"] = "unit";  // (an echo from before loads the same)
  if (p.ru_time_limit_s != 0) ftl_table["fdp_ru_time_limit"] = p.ru_time_limit_s;
}

void describe_placement(const FtlDescription& d, std::string& out) {
  const PlacementConfig& p = d.config.placement;
  if (!p.on()) return;
  if (p.mode == PlacementMode::kStreams) {
    fmt::format_to(std::back_inserter(out),
                   "  placement   {} streams, each its own active block per plane, kept apart by "
                   "cleaning\n",
                   p.handles);
    return;
  }
  fmt::format_to(std::back_inserter(out),
                 "  placement   FDP: {} {} isolated handles, {} reclaim groups (the pools), "
                 "reclaim units of {} bytes{}{}\n",
                 p.handles, isolation_name(p.isolation),
                 PoolLayout::pool_count(d.geometry, d.config.pool),
                 reclaim_unit_bytes(d.geometry, d.config),
                 p.reclaim_units ? ", cleaned a whole unit at a time" : "",
                 p.ru_time_limit_s != 0 ? fmt::format(", closed after {} s open", p.ru_time_limit_s)
                                        : std::string());
}

}  // namespace ssdlab::ftl
