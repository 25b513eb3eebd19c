// DFTL's [ftl] keys: the page-mapped FTL's (page_mapped_keys.h) plus its map
// cache's (dftl.cpp): ftl.map_cache_entries or ftl.map_cache_bytes, and
// ftl.map_cache_prefetch.
#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "common/toml_keys.h"
#include "common/units.h"
#include "ftl/dftl_map_cache.h"
#include "ftl/page_mapped/page_mapped_keys.h"
#include "ftl/slc_cache_keys.h"

namespace ssdlab::ftl {

extern const FtlKeyHooks dftl_ftl_keys;

namespace {

// The reference's rows (ftl_keys.h) of its own keys; the page-mapped keys it
// also takes are page_mapped_keys.cpp's rows.
constexpr KeyDoc kDftlKeys[] = {
    {"map_cache_entries",
     "logical pages whose map entries the DRAM caches, 1–2^40; 0, the default: 2% of the map "
     "([DFTL](../dftl-and-cleaning-policies.md#dftl-ftltype--dftl))"},
    {"map_cache_bytes",
     "the same as bytes, 8 per entry, 8 to 2^44; give one of the two"},
    {"map_cache_prefetch",
     "entries a miss loads from its translation page (the missed one and those after it in "
     "the same page), 1–65536; 1 is the paper's DFTL; default 8"},
};

void read_dftl_keys(KeyReader& r, const flash::Geometry& g, FtlConfig& f) {
  read_page_mapped_keys(r, g, f);
  const auto [entries_node, entries_key] = r.find("ftl", "map_cache_entries");
  const auto [bytes_node, bytes_key] = r.find("ftl", "map_cache_bytes");
  if (entries_node && bytes_node)
    r.fail(bytes_key, bytes_node, "give map_cache_entries or map_cache_bytes, not both");
  DftlKeys& keys = f.keys.emplace<DftlKeys>();
  // 0, the default: 2% of the map (describe_dftl, dftl.cpp), as the echo
  // writes it, so that the echo reads back (issue 51, M3).
  r.integer("ftl", "map_cache_entries", keys.map_cache_entries, 0, std::int64_t{1} << 40);
  std::uint64_t bytes = 0;
  r.size("ftl", "map_cache_bytes", bytes, kDftlCacheEntryBytes, std::uint64_t{1} << 44);
  if (bytes_node) keys.map_cache_entries = bytes / kDftlCacheEntryBytes;
  r.integer("ftl", "map_cache_prefetch", keys.map_cache_prefetch, 1, 1 << 16);
}

void echo_dftl_keys(const FtlConfig& f, nlohmann::json& ftl_table) {
  echo_page_mapped_keys(f, ftl_table);
  const DftlKeys& keys = f.keys.get<DftlKeys>();
  ftl_table["map_cache_entries"] = keys.map_cache_entries;
  ftl_table["map_cache_prefetch"] = keys.map_cache_prefetch;
}

void describe_dftl(const FtlDescription& d, std::string& out) {
  describe_page_mapped_layout(d, out);
  const DftlKeys& keys = d.config.keys.get<DftlKeys>();
  const std::uint64_t entries = keys.map_cache_entries
                                    ? keys.map_cache_entries
                                    : std::max<std::uint64_t>(1, d.logical_pages / 50);
  fmt::format_to(std::back_inserter(out),
                 "  map cache   {} entries ({} of DRAM, {:.2f}% of the map); prefetch {}\n",
                 entries, format_size(entries * kDftlCacheEntryBytes),
                 100.0 * static_cast<double>(entries) / static_cast<double>(d.logical_pages),
                 keys.map_cache_prefetch);
  describe_cleaning(d, out);
}

}  // namespace

constexpr const FtlPartKeys* kDftlParts[] = {&slc_cache_keys};

const FtlKeyHooks dftl_ftl_keys{&read_dftl_keys, &echo_dftl_keys, &describe_dftl,
                                kDftlParts,      kDftlKeys,       /*one_shot_wordlines=*/true};

}  // namespace ssdlab::ftl
