// A checkpoint's config against the config of the device it is loaded into
// (checkpoint.cpp): what must match, and what may differ with a warning.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ssdlab::sim {

// Refuses, with an ssdlab::Error whose text follows "FILE: ", a checkpoint
// saved from another device: the geometry and ftl tables, and the features
// echoed only when on that shape the state (the placement, the SLC cache's
// mode and size, the host log and its over-provisioning), each named as the
// config difference it is. Returns the other keys that differ, in either
// direction (timing and host keys, the SLC cache's and the host log's
// policies): the state loads, with a warning naming them.
std::vector<std::string> compare_config(const nlohmann::json& saved, const nlohmann::json& current);

}  // namespace ssdlab::sim
