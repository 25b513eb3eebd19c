// Internal to the config reader (config.cpp): the config file's TOML, the
// --set overrides, and the readers of its parts; the keys themselves are read
// through KeyReader (common/toml_keys.h).
#pragma once

#include <toml++/toml.h>

#include <map>
#include <string>
#include <vector>

#include "common/toml_keys.h"
#include "flash/geometry.h"
#include "sim/config/config.h"

namespace ssdlab::sim::config_detail {

// The TOML of the config file at `path`; a directory, device, empty file or
// TOML error is an ssdlab::Error naming the file (and line). (config_file.cpp)
toml::table parse_config_file(const std::string& path);
// Applies "table.key=value" overrides to `root`; returns where each came from.
std::map<std::string, std::string> apply_overrides(toml::table& root,
                                                   const std::vector<std::string>& overrides);

// The config in `root` (a TOML file's, or a JSON echo's as TOML), with
// --set `overrides` applied; `path` names it in errors. (config.cpp)
DeviceConfig read_config(toml::table& root, const std::string& path,
                         const std::vector<std::string>& overrides);

// geometry.gang and gang_size; a synchronous gang's geometry becomes its
// lockstep view (config_gang.cpp).
void read_gang(KeyReader& r, flash::Geometry& g);

}  // namespace ssdlab::sim::config_detail
