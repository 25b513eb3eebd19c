// What the FTLs' key hooks share (ftl_keys.h): which FTLs take a key, and the
// generic lines of `ssdlab config`.
#include "ftl/ftl_keys.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "common/toml_keys.h"
#include "common/units.h"
#include "ftl/ftl.h"
#include "ftl/page_mapped/page_mapped_keys.h"
#include "ftl/pools.h"

namespace ssdlab::ftl {

const FtlKeyHooks no_ftl_keys{};

std::vector<std::string> ftls_reading(const std::string& dotted, const flash::Geometry& geometry) {
  std::vector<std::string> names;
  for (const std::string& name : ftl_names()) {
    toml::table root;
    root.insert("ftl", toml::table{});
    KeyReader probe(root, "(probe)", {"ftl"}, {});
    FtlConfig config;
    config.type = name;
    // Defaults may fail a check on an odd geometry; the keys asked for
    // before it still count.
    try {
      if (const auto read = ftl_key_hooks(name).read) read(probe, geometry, config);
    } catch (const Error&) {
    }
    if (probe.was_read(dotted)) names.push_back(name);
  }
  return names;
}

std::vector<const FtlPartKeys*> ftl_parts() {
  std::vector<const FtlPartKeys*> parts;
  for (const std::string& name : ftl_names())
    for (const FtlPartKeys* part : ftl_key_hooks(name).parts)
      if (std::find(parts.begin(), parts.end(), part) == parts.end()) parts.push_back(part);
  return parts;
}

std::vector<std::string> ftls_taking(const FtlPartKeys& part) {
  std::vector<std::string> names;
  for (const std::string& name : ftl_names()) {
    const auto parts = ftl_key_hooks(name).parts;
    if (std::find(parts.begin(), parts.end(), &part) != parts.end()) names.push_back(name);
  }
  return names;
}

void describe_pools(const FtlDescription& d, std::string& out) {
  const auto& g = d.geometry;
  const FtlConfig& f = d.config;
  const std::uint32_t pools = PoolLayout::pool_count(g, f.pool);
  auto it = std::back_inserter(out);
  fmt::format_to(
      it, "  ftl         {}, {} allocation pools ({} each: {} planes, {} blocks), stripe {}\n",
      f.type, pools, pool_scope_name(f.pool), g.planes() / pools, g.blocks() / pools,
      format_size(f.stripe_size));
  describe_two_plane(d, out);
}

void describe_two_plane(const FtlDescription& d, std::string& out) {
  const FtlConfig& f = d.config;
  // ftl.two_plane is the FTL's own merging; with plane interleaving the flash
  // scheduler joins queued commands into two-plane ones whatever it says
  // (the personas review: "off" while a run issued 228,128 of them).
  const bool scheduler_joins = d.geometry.interleaving == flash::Interleaving::kPlanes;
  fmt::format_to(std::back_inserter(out), "  two-plane   FTL {}{}; copy-back {}\n",
                 f.two_plane ? "on" : "off",
                 scheduler_joins ? "; the flash scheduler joins queued commands "
                                   "(geometry.interleaving = \"planes\")"
                                 : "",
                 f.copy_back ? "on" : "off");
}

void describe_cleaning(const FtlDescription& d, std::string& out) {
  const FtlConfig& f = d.config;
  const PageMappedKeys& keys = f.keys.get<PageMappedKeys>();
  auto it = std::back_inserter(out);
  const std::string policy = keys.victim.kind == VictimPolicyKind::kDChoices
                                 ? fmt::format("d-choices (d = {})", keys.victim.choices)
                                 : victim_policy_name(keys.victim);
  fmt::format_to(
      it, "  cleaning    {}; foreground below {:.1f}% free blocks per {} ({}); background {}\n",
      policy, f.clean_low_water * 100, clean_scope_name(keys.clean_scope),
      f.cleaning_blocks_writes ? (d.cleaning_wait == flash::HostWait::kPackage
                                      ? "the part of a write on a cleaning package waits for it"
                                      : "writes wait for it")
                               : "in parallel with writes",
      f.clean_high_water > 0
          ? fmt::format("up to {:.1f}% while a pool is idle", f.clean_high_water * 100)
          : std::string("off"));
  const CleanGranularity granularity = keys.clean_granularity;
  fmt::format_to(it, "  granularity {}\n",
                 granularity == CleanGranularity::kUntilMark
                     ? "until-mark: each trigger cleans until back at the mark"
                 : granularity == CleanGranularity::kOneVictim
                     ? "one-victim: one block per trigger"
                     : fmt::format("incremental: at most {} page moves per host page write "
                                   "(whole blocks below the emergency floor)",
                                   keys.clean_incremental_pages));
  fmt::format_to(it, "  host pages  {}{}\n",
                 keys.plane_choice == PlaneChoice::kMostFree
                     ? "to the pool's plane with the most free pages"
                     : "round-robin over the pool's planes",
                 f.wordline_pages > 1 ? fmt::format(", a one-shot wordline ({} pages) on each "
                                                    "before the next (SLC-mode blocks: a page)",
                                                    f.wordline_pages)
                                      : std::string());
}

}  // namespace ssdlab::ftl
