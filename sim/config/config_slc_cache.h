// The [slc_cache] table of the device config (config_slc_cache.cpp).
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "common/toml_keys.h"
#include "flash/geometry.h"
#include "ftl/slc_cache_config.h"

namespace ssdlab::sim::config_detail {

// Reads and checks [slc_cache] (after the geometry and the FTL type): a
// cache needs cells of several bits and an FTL whose registration takes one.
void read_slc_cache(KeyReader& r, const flash::Geometry& g, const std::string& ftl_type,
                    ftl::SlcCacheConfig& c);
// The config echo's [slc_cache] table (present only when a cache is on).
nlohmann::json slc_cache_json(const ftl::SlcCacheConfig& c);
// The `ssdlab config` line of the cache ("" without one).
std::string describe_slc_cache(const ftl::SlcCacheConfig& c);

}  // namespace ssdlab::sim::config_detail
