// The keys of the victim policies, of cleaning's scope and granularity, and
// of DFTL (ftl/victim_policy.h, ftl/ftl.h, ftl/dftl.h), read where those
// FTLs' keys are declared.
#include <fmt/format.h>

#include "ftl/ftl.h"
#include "ftl/victim_policy.h"
#include "sim/config/config_reader.h"

namespace ssdlab::sim::config_detail {

void read_victim_policy_and_dftl(KeyReader& r, ftl::FtlConfig& f) {
  const bool page_level = f.type == "page-mapped" || f.type == "dftl";
  const auto only_page_level = [&](const char* key) {
    if (const auto [node, dotted] = r.find("ftl", key); node && !page_level)
      r.fail(dotted, node,
             fmt::format("only the page-mapped and dftl FTLs use it ('{}' does not)", f.type));
  };
  only_page_level("victim_policy");
  only_page_level("victim_choices");
  std::string policy = ftl::victim_policy_name(f.victim.kind);
  r.string("ftl", "victim_policy", policy);
  if (!ftl::parse_victim_policy(policy, f.victim.kind)) {
    const auto [node, dotted] = r.find("ftl", "victim_policy");
    r.fail(dotted, node,
           fmt::format("'{}' is not a victim policy (allowed: {})", policy,
                       ftl::victim_policy_names()));
  }
  r.integer("ftl", "victim_choices", f.victim.choices, 1, 1024);
  const auto [entries_node, entries_key] = r.find("ftl", "map_cache_entries");
  const auto [bytes_node, bytes_key] = r.find("ftl", "map_cache_bytes");
  const auto [prefetch_node, prefetch_key] = r.find("ftl", "map_cache_prefetch");
  for (const auto& [node, dotted] : {std::pair{entries_node, entries_key},
                                     {bytes_node, bytes_key},
                                     {prefetch_node, prefetch_key}})
    if (node && f.type != "dftl")
      r.fail(dotted, node, fmt::format("only the dftl FTL uses it ('{}' does not)", f.type));
  if (entries_node && bytes_node)
    r.fail(bytes_key, bytes_node, "give map_cache_entries or map_cache_bytes, not both");
  r.integer("ftl", "map_cache_entries", f.map_cache_entries, 1, std::int64_t{1} << 40);
  std::uint64_t bytes = 0;
  r.size("ftl", "map_cache_bytes", bytes, ftl::kDftlCacheEntryBytes, std::uint64_t{1} << 44);
  if (bytes_node) f.map_cache_entries = bytes / ftl::kDftlCacheEntryBytes;
  r.integer("ftl", "map_cache_prefetch", f.map_cache_prefetch, 1, 1 << 16);
}

void read_cleaning(KeyReader& r, ftl::FtlConfig& f) {
  const bool page_level = f.type == "page-mapped" || f.type == "dftl";
  // The block-based FTLs merge one logical block (or reclaim one log block)
  // per write that needs a block: one victim per trigger, their only mode.
  const bool block_based = ftl::is_block_based(f.type);
  if (block_based) f.clean_granularity = ftl::CleanGranularity::kOneVictim;
  std::string scope = ftl::clean_scope_name(f.clean_scope);
  r.string("ftl", "clean_scope", scope);
  if (const auto [node, dotted] = r.find("ftl", "clean_scope"); node) {
    if (!page_level)
      r.fail(dotted, node,
                 block_based ? fmt::format("only the page-mapped and dftl FTLs use it ('{}' "
                                           "merges one logical block at a time and has no "
                                           "per-plane cleaning)",
                                           f.type)
                             : fmt::format("only the page-mapped and dftl FTLs use it ('{}' "
                                           "does not)",
                                           f.type));
    if (!ftl::parse_clean_scope(scope, f.clean_scope))
      r.fail(dotted, node, fmt::format("'{}' is not a cleaning scope (allowed: pool, plane)", scope));
  }
  std::string choice = ftl::plane_choice_name(f.plane_choice);
  r.string("ftl", "plane_choice", choice);
  if (const auto [node, dotted] = r.find("ftl", "plane_choice"); node) {
    if (!page_level)
      r.fail(dotted, node,
             fmt::format("only the page-mapped and dftl FTLs use it ('{}' does not)", f.type));
    if (!ftl::parse_plane_choice(choice, f.plane_choice))
      r.fail(dotted, node,
             fmt::format("'{}' is not a plane choice (allowed: round-robin, most-free)", choice));
  }
  std::string granularity = ftl::clean_granularity_name(f.clean_granularity);
  r.string("ftl", "clean_granularity", granularity);
  if (const auto [node, dotted] = r.find("ftl", "clean_granularity"); node) {
    if (!ftl::parse_clean_granularity(granularity, f.clean_granularity))
      r.fail(dotted, node,
             fmt::format("'{}' is not a cleaning granularity (allowed: until-mark, one-victim, "
                         "incremental)",
                         granularity));
    if (block_based && f.clean_granularity != ftl::CleanGranularity::kOneVictim)
      r.fail(dotted, node,
             fmt::format("'{}' merges one logical block per write that needs a block: it takes "
                         "only \"one-victim\"",
                         f.type));
    if (!page_level && !block_based)
      r.fail(dotted, node,
             fmt::format("only the page-mapped, dftl and block-based FTLs use it ('{}' does not)",
                         f.type));
  }
  if (const auto [node, dotted] = r.find("ftl", "clean_incremental_pages");
      node && f.clean_granularity != ftl::CleanGranularity::kIncremental)
    r.fail(dotted, node, "only clean_granularity = \"incremental\" uses it");
  r.integer("ftl", "clean_incremental_pages", f.clean_incremental_pages, 1, 1 << 16);
}

void read_summary_page(KeyReader& r, const flash::Geometry& g, ftl::FtlConfig& f) {
  const auto [node, dotted] = r.find("ftl", "summary_page");
  if (!node) return;
  const bool page_level = f.type == "page-mapped" || f.type == "dftl";
  if (!page_level)
    r.fail(dotted, node,
           ftl::is_block_based(f.type)
               ? fmt::format("only the page-mapped and dftl FTLs use it ('{}' maps whole blocks "
                             "and has no summary page; its mount scans every page's OOB)",
                             f.type)
               : fmt::format("only the page-mapped and dftl FTLs use it ('{}' does not)", f.type));
  r.boolean("ftl", "summary_page", f.summary_page);
  if (f.summary_page && f.logical_page_size != g.page_size)
    r.fail(
        dotted, node,
        fmt::format("each data page before a block's summary page holds one logical page: it needs "
                    "logical_page_size = the {}-byte flash page (got {})",
                    g.page_size, f.logical_page_size));
  if (f.summary_page && g.pages_per_block < 2)
    r.fail(dotted, node, "a block of one page has no room for data beside its summary page");
}

}  // namespace ssdlab::sim::config_detail
