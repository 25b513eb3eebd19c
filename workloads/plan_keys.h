// One key of an experiment, whatever its source (TOML node or inline text),
// and the validator that applies it. Internal to workloads/.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "workloads/plan.h"

namespace ssdlab::workloads {

struct KeyValue {
  std::string key;
  std::variant<std::int64_t, double, bool, std::string> value;
  std::string where;  // "plan.toml:7" or "-w 'RW:...'"
};

// Applies one key to `spec`; throws ssdlab::Error "where: key: what is wrong".
void apply_key(ExperimentSpec& spec, const KeyValue& kv);

// Splits inline "key=value,key=value" text into keys; numbers and booleans
// are typed, everything else stays a string. `origin` names the source.
std::vector<KeyValue> parse_inline_keys(std::string_view text, const std::string& origin);

// Fills in defaults that depend on other keys (the name) and checks keys
// against each other.
void finish_experiment(ExperimentSpec& spec, const std::string& default_name);

}  // namespace ssdlab::workloads
