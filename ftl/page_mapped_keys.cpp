// The page-mapped FTL's own [ftl] keys (page_mapped_keys.h): read and
// checked, echoed, and described for `ssdlab config`.
#include "ftl/page_mapped_keys.h"

#include <fmt/format.h>

#include <iterator>

#include "ftl/block_keys.h"
#include "ftl/victim_policy.h"

namespace ssdlab::ftl {
namespace {

void read_victim_policy(KeyReader& r, FtlConfig& f) {
  std::string policy = victim_policy_name(f.victim.kind);
  r.string("ftl", "victim_policy", policy);
  if (!parse_victim_policy(policy, f.victim.kind)) {
    const auto [node, dotted] = r.find("ftl", "victim_policy");
    r.fail(dotted, node,
           fmt::format("'{}' is not a victim policy (allowed: {})", policy,
                       victim_policy_names()));
  }
  r.integer("ftl", "victim_choices", f.victim.choices, 1, 1024);
}

void read_cleaning(KeyReader& r, FtlConfig& f) {
  r.named("ftl", "clean_scope", f.clean_scope, clean_scope_name(f.clean_scope),
          parse_clean_scope, "a cleaning scope (allowed: pool, plane)");
  r.named("ftl", "plane_choice", f.plane_choice, plane_choice_name(f.plane_choice),
          parse_plane_choice, "a plane choice (allowed: round-robin, most-free)");
  r.named("ftl", "clean_granularity", f.clean_granularity,
          clean_granularity_name(f.clean_granularity), parse_clean_granularity,
          "a cleaning granularity (allowed: until-mark, one-victim, incremental)");
  if (const auto [node, dotted] = r.find("ftl", "clean_incremental_pages");
      node && f.clean_granularity != CleanGranularity::kIncremental)
    r.fail(dotted, node, "only clean_granularity = \"incremental\" uses it");
  r.integer("ftl", "clean_incremental_pages", f.clean_incremental_pages, 1, 1 << 16);
}

void read_summary_page(KeyReader& r, const flash::Geometry& g, FtlConfig& f) {
  r.boolean("ftl", "summary_page", f.summary_page);
  const auto [node, dotted] = r.find("ftl", "summary_page");
  if (f.summary_page && f.logical_page_size != g.page_size)
    r.fail(
        dotted, node,
        fmt::format("each data page before a block's summary page holds one logical page: it needs "
                    "logical_page_size = the {}-byte flash page (got {})",
                    g.page_size, f.logical_page_size));
  if (f.summary_page && g.pages_per_block < 2)
    r.fail(dotted, node, "a block of one page has no room for data beside its summary page");
}

// A logical page smaller than the flash page is a map unit
// (page_mapped_units.h): a whole part of the page.
void read_map_unit(KeyReader& r, const flash::Geometry& g, const FtlConfig& f) {
  if (f.logical_page_size >= g.page_size) return;
  const auto [node, dotted] = r.find("ftl", "logical_page_size");
  if (g.page_size % f.logical_page_size != 0)
    r.fail(dotted, node,
           fmt::format("{} is below the {}-byte flash page and does not divide it: a map unit "
                       "is a whole part of the page",
                       f.logical_page_size, g.page_size));
  const std::uint64_t units =
      std::uint64_t{g.pages_per_block} * (g.page_size / f.logical_page_size);
  if (units > 0xffff)
    r.fail(dotted, node,
           fmt::format("{}-byte map units: a block of {} pages would hold {} of them, more than "
                       "the 65535 the model addresses",
                       f.logical_page_size, g.pages_per_block, units));
}

}  // namespace

void read_page_mapped_keys(KeyReader& r, const flash::Geometry& g, FtlConfig& f) {
  // The map unit has its key already: the bytes one map entry maps.
  if (const auto [node, dotted] = r.find("ftl", "map_unit"); node)
    r.fail(dotted, node,
           fmt::format("the map unit is ftl.logical_page_size: set it to a part of the {}-byte "
                       "flash page (e.g. \"4KiB\") for map units smaller than a page",
                       g.page_size));
  read_map_unit(r, g, f);
  read_virtual_blocks(r, g, f);  // unused; old echoes carry them
  read_victim_policy(r, f);
  read_cleaning(r, f);
  read_summary_page(r, g, f);
  read_placement_keys(r, g, f);
}

void echo_page_mapped_keys(const FtlConfig& f, nlohmann::json& ftl_table) {
  echo_virtual_blocks(f, ftl_table);
  ftl_table["victim_policy"] = victim_policy_name(f.victim.kind);
  ftl_table["victim_choices"] = f.victim.choices;
  ftl_table["clean_scope"] = clean_scope_name(f.clean_scope);
  ftl_table["plane_choice"] = plane_choice_name(f.plane_choice);
  // (Only when on: an echo from before the key loads back the same.)
  if (f.summary_page) ftl_table["summary_page"] = true;
  ftl_table["clean_granularity"] = clean_granularity_name(f.clean_granularity);
  if (f.clean_granularity == CleanGranularity::kIncremental)
    ftl_table["clean_incremental_pages"] = f.clean_incremental_pages;
  echo_placement_keys(f, ftl_table);
}

void describe_page_mapped_layout(const FtlDescription& d, std::string& out) {
  describe_pools(d, out);
  if (d.config.summary_page)
    fmt::format_to(std::back_inserter(out),
                   "  summary     {} data pages and a summary page per block ({} bytes "
                   "over the bus); the mount reads it for a closed block\n",
                   d.geometry.pages_per_block - 1,
                   summary_page_bytes(d.geometry, d.config.sector_size));
  describe_placement(d, out);
}

const FtlKeyHooks page_mapped_ftl_keys{
    &read_page_mapped_keys, &echo_page_mapped_keys,
    [](const FtlDescription& d, std::string& out) {
      describe_page_mapped_layout(d, out);
      describe_cleaning(d, out);
    },
    /*slc_cache=*/true};

}  // namespace ssdlab::ftl
