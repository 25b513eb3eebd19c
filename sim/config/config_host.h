// The host side's config beyond [host]'s scalars: submission queues and
// their arbitration, and namespaces (config_host.cpp).
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/toml_keys.h"
#include "sim/config/config.h"

namespace ssdlab::sim {

// The logical bytes a namespace takes: its size and its over-provisioning
// share behind it (whole logical pages).
std::uint64_t namespace_span(const NamespaceConfig& ns, std::uint32_t logical_page);

namespace config_detail {

// The arrays of tables [[host.queues]], [[namespace]] (or
// [[host.namespaces]], as the echo writes them) and [[placement]] (or
// [[ftl.placement_map]]), each table moved to a table of its own at the top
// level, host.queues[N], host.namespaces[N] and ftl.placement_map[N] (N from
// 1), which KeyReader reads and checks with their places in the file; --set
// origins follow them. `tables` names them for the reader's list.
struct HoistedArrays {
  std::size_t queues = 0, namespaces = 0;
  std::size_t placement_ranges = 0;  // [[placement]] (ftl.placement_map[N]; config_placement.h)
  std::vector<std::string> tables;
};
HoistedArrays hoist_table_arrays(toml::table& root, std::map<std::string, std::string>& origins);
// The `count` hoisted [[host.queues]] (depth, priority), host.arbitration,
// arbitration_burst, weight_high/medium/low.
void read_host_queues(KeyReader& r, std::size_t count, HostQueuesConfig& c);
// The `count` hoisted namespaces (size, overprovisioning).
void read_namespaces(KeyReader& r, std::size_t count, std::uint32_t logical_page,
                     std::vector<NamespaceConfig>& out);
// The `count` hoisted [[placement]] ranges (offset, size, handle) into
// f.placement.ranges; ftl.placement must be on.
void read_placement_map(KeyReader& r, std::size_t count, ftl::FtlConfig& f);
nlohmann::json host_queues_json(const HostQueuesConfig& c);
nlohmann::json namespaces_json(const std::vector<NamespaceConfig>& namespaces);
// `ssdlab config`'s lines ("" when not configured).
std::string describe_host_queues(const ControllerConfig& c);
std::string describe_namespaces(const std::vector<NamespaceConfig>& namespaces,
                                std::uint32_t logical_page);

}  // namespace config_detail
}  // namespace ssdlab::sim
