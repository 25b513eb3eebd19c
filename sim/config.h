// Device configuration: a TOML preset (configs/*.toml) plus --set overrides.
//
// Every key is validated; an unknown key or a value out of range is one error
// line "file:line: table.key: what is wrong (allowed range)".
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "flash/geometry.h"
#include "flash/timing.h"
#include "ftl/ftl.h"

namespace ssdlab::sim {

struct DeviceConfig {
  std::string source;  // the file it came from
  std::string name;    // [device] name
  flash::Geometry geometry;
  flash::Timing timing;
  ftl::FtlConfig ftl;
  std::uint32_t sector_size = 512;  // host sector: offsets and sizes are multiples of it
};

// Loads and validates `path`, applying each "table.key=value" override first
// (the value is TOML: numbers, true/false, "strings", [arrays]).
DeviceConfig load_config(const std::string& path, const std::vector<std::string>& overrides = {});

// The config as JSON (echoed into summary.json).
nlohmann::json to_json(const DeviceConfig& config);

// Human-readable derived geometry: capacity, pages, blocks, pools, latencies.
std::string describe(const DeviceConfig& config, std::uint64_t logical_pages);

}  // namespace ssdlab::sim
