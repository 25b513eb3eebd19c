// The [ftl] keys of the page-mapped FTL (page_mapped_keys.cpp): cleaning's
// scope, granularity and victim policy, the plane a host page goes to, and
// the summary page. DFTL (dftl.cpp), a page-mapped FTL with a cached map,
// takes them too and adds its map cache's.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "common/toml_keys.h"
#include "flash/geometry.h"
#include "ftl/ftl.h"

namespace ssdlab::ftl {

extern const FtlKeyHooks page_mapped_ftl_keys;

void read_page_mapped_keys(KeyReader& r, const flash::Geometry& g, FtlConfig& f);
void echo_page_mapped_keys(const FtlConfig& f, nlohmann::json& ftl_table);
// The "ftl", "two-plane" and (when on) "summary" lines; the cleaning lines
// are describe_cleaning()'s (ftl_keys.h).
void describe_page_mapped_layout(const FtlDescription& device, std::string& out);

// Host-guided placement (fdp_keys.cpp; fdp_config.h): ftl.placement and ftl.fdp_*.
void read_placement_keys(KeyReader& r, const flash::Geometry& g, FtlConfig& f);
void echo_placement_keys(const FtlConfig& f, nlohmann::json& ftl_table);
void describe_placement(const FtlDescription& device, std::string& out);
// Bytes of a reclaim unit: one block on each plane of a reclaim group (a pool).
std::uint64_t reclaim_unit_bytes(const flash::Geometry& g, const FtlConfig& f);

}  // namespace ssdlab::ftl
