// The FTL parts' tables of the device config (ftl::FtlPartKeys: the SLC
// cache's [slc_cache]): run for every part any FTL takes, through the hooks
// the part declares beside its code.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/toml_keys.h"
#include "flash/geometry.h"
#include "ftl/ftl.h"

namespace ssdlab::sim::config_detail {

// Adds the parts' tables to the config's `tables`, after "ftl".
void add_ftl_part_tables(std::vector<std::string>& tables);
// Reads and checks each part's table (after the geometry and the [ftl]
// table); a part switched on for an FTL that does not take it is an error
// naming the FTLs that do.
void read_ftl_parts(KeyReader& r, const flash::Geometry& g, ftl::FtlConfig& f);
// The parts switched on: their tables in the config echo, their lines of
// `ssdlab config`.
void echo_ftl_parts(const ftl::FtlConfig& f, nlohmann::json& echo);
std::string describe_ftl_parts(const ftl::FtlConfig& f);

}  // namespace ssdlab::sim::config_detail
