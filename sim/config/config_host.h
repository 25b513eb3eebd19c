// The host side's config beyond [host]'s scalars: submission queues and
// their arbitration, and namespaces (config_host.cpp).
#pragma once

#include <toml++/toml.h>

#include <cstdint>
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

// [[namespace]] tables at the top level become host.namespaces (where the
// echo keeps them), so that one reader reads either spelling.
void hoist_namespace_tables(toml::table& root);
// [[host.queues]] (depth, priority), host.arbitration, arbitration_burst,
// weight_high/medium/low.
void read_host_queues(KeyReader& r, HostQueuesConfig& c);
// host.namespaces (size, overprovisioning).
void read_namespaces(KeyReader& r, std::uint32_t logical_page, std::vector<NamespaceConfig>& out);
nlohmann::json host_queues_json(const HostQueuesConfig& c);
nlohmann::json namespaces_json(const std::vector<NamespaceConfig>& namespaces);
// `ssdlab config`'s lines ("" when not configured).
std::string describe_host_queues(const ControllerConfig& c);
std::string describe_namespaces(const std::vector<NamespaceConfig>& namespaces,
                                std::uint32_t logical_page);

}  // namespace config_detail
}  // namespace ssdlab::sim
