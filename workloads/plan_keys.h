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

// One key of an experiment (a plan's [[experiment]] table, a -w
// key=value): its name and what checks and applies it, throwing
// ssdlab::Error "where: key: what is wrong". Each group of keys is a table
// beside its code (the experiment's own in plan_keys.cpp, synthetic_keys(),
// zone_keys()); apply_key() looks a key up in them, and an unknown key's
// error lists their names, so that a key is named once.
struct PlanKey {
  std::string_view name;
  void (*apply)(ExperimentSpec& spec, const KeyValue& kv);
};

// Every key's name, in the order an unknown key's error lists them.
std::vector<std::string_view> plan_key_names();

// Applies one key to `spec`; throws ssdlab::Error "where: key: what is wrong".
void apply_key(ExperimentSpec& spec, const KeyValue& kv);

// Splits inline "key=value,key=value" text into keys; numbers and booleans
// are typed, everything else stays a string. `origin` names the source.
std::vector<KeyValue> parse_inline_keys(std::string_view text, const std::string& origin);

// Fills in defaults that depend on other keys (the name) and checks keys
// against each other.
void finish_experiment(ExperimentSpec& spec, const std::string& default_name);

}  // namespace ssdlab::workloads
