#include "workloads/plan.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>

#include "common/checked.h"
#include "common/error.h"
#include "common/toml_text.h"
#include "common/units.h"
#include "workloads/plan_keys.h"
#include "workloads/uflip.h"

namespace ssdlab::workloads {
namespace {

std::string where(const std::string& path, const toml::node& node) {
  return fmt::format("{}:{}", path, node.source().begin.line);
}

KeyValue to_key_value(const std::string& path, const std::string& key, const toml::node& node) {
  KeyValue kv{key, std::int64_t{0}, where(path, node)};
  if (auto i = node.value_exact<std::int64_t>())
    kv.value = *i;
  else if (auto d = node.value_exact<double>())
    kv.value = *d;
  else if (auto b = node.value_exact<bool>())
    kv.value = *b;
  else if (auto s = node.value_exact<std::string>())
    kv.value = *s;
  else
    throw make_error("{}: {}: expected a number, string or boolean, not a table or array", kv.where,
                     key);
  return kv;
}

// "RW/io_size=4096/queue_depth=8": names an inline experiment by what was set.
std::string default_inline_name(std::string_view pattern, const std::vector<KeyValue>& keys) {
  std::string name(pattern);
  for (const auto& kv : keys) {
    if (kv.key == "count" || kv.key == "seed") continue;
    name += "/" + kv.key + "=";
    std::visit([&name](const auto& v) { name += fmt::format("{}", v); }, kv.value);
  }
  return name;
}

}  // namespace

namespace {

// Adds `kv` to `keys`, refusing a key given twice: `mix.pattern` and
// `mix_pattern` are one key written two ways.
void add_key(std::vector<KeyValue>& keys, KeyValue kv) {
  for (const KeyValue& earlier : keys)
    if (earlier.key == kv.key)
      throw make_error("{}: {}: given twice (also at {})", kv.where, kv.key, earlier.where);
  keys.push_back(std::move(kv));
}

// The keys of one [[experiment]] or [[benchmark]] table; `mix` may be an
// inline table { pattern = "SW", ratio = 4 }.
std::vector<KeyValue> table_keys(const std::string& path, const toml::table& table,
                                 const std::vector<std::string_view>& skip) {
  std::vector<KeyValue> keys;
  for (const auto& [key, node] : table) {
    const std::string name(key.str());
    if (std::find(skip.begin(), skip.end(), name) != skip.end()) continue;
    if (const toml::table* mix = node.as_table(); mix && name == "mix") {
      for (const auto& [inner, value] : *mix) {
        if (inner.str() != "pattern" && inner.str() != "ratio")
          throw make_error("{}: mix: unknown key '{}' (known: pattern, ratio)", where(path, value),
                           inner.str());
        add_key(keys, to_key_value(path, "mix_" + std::string(inner.str()), value));
      }
      continue;
    }
    add_key(keys, to_key_value(path, name, node));
  }
  return keys;
}

const toml::array* array_of_tables(const std::string& path, const toml::table& root,
                                   const char* key) {
  const toml::node* node = root.get(key);
  if (!node) return nullptr;
  const toml::array* array = node->as_array();
  if (!array || (!array->empty() && !array->is_array_of_tables()))
    throw make_error("{}: {} must be written as [[{}]] tables", where(path, *node), key, key);
  return array;
}

// `patterns` and `values` of a [[benchmark]] table: an array, or one value.
std::vector<KeyValue> array_keys(const std::string& path, const toml::table& table,
                                 const char* key) {
  std::vector<KeyValue> items;
  const toml::node* node = table.get(key);
  if (!node) return items;
  if (const toml::array* array = node->as_array()) {
    if (array->empty()) throw make_error("{}: {}: empty list", where(path, *node), key);
    for (const toml::node& item : *array) items.push_back(to_key_value(path, key, item));
  } else {
    items.push_back(to_key_value(path, key, *node));
  }
  return items;
}

}  // namespace

Plan parse_plan_file(const std::string& path, const DeviceInfo& device) {
  toml::table root;
  try {
    root = toml::parse(read_toml_text(path), path);
  } catch (const toml::parse_error& error) {
    if (error.source().begin.line == 0) throw make_error("{}: {}", path, error.description());
    throw make_error("{}:{}: {}", path, error.source().begin.line, error.description());
  }
  Plan plan;
  plan.source = path;
  for (const auto& [key, node] : root) {
    if (key.str() == "state") {
      const auto state = node.value_exact<std::string>();
      if (!state || state->empty())
        throw make_error("{}: state: expected a string such as \"uflip\" or \"none\"",
                         where(path, node));
      plan.state = *state;
    } else if (key.str() != "experiment" && key.str() != "benchmark") {
      throw make_error(
          "{}: unknown top-level key '{}' (a plan holds [[experiment]] and [[benchmark]] "
          "tables and a state)",
          where(path, node), key.str());
    }
  }
  const toml::array* experiments = array_of_tables(path, root, "experiment");
  const toml::array* benchmarks = array_of_tables(path, root, "benchmark");
  if ((!experiments || experiments->empty()) && (!benchmarks || benchmarks->empty()))
    throw make_error("{}:1: no [[experiment]] or [[benchmark]] table: a plan needs at least one",
                     path);
  if (experiments) {
    for (const toml::node& element : *experiments) {
      const toml::table& table = *element.as_table();
      ExperimentSpec spec;
      spec.origin = where(path, element);
      bool has_pattern = false;
      for (const KeyValue& kv : table_keys(path, table, {})) {
        apply_key(spec, kv);
        has_pattern = has_pattern || kv.key == "pattern";
      }
      if (!has_pattern)
        throw make_error("{}: experiment has no pattern (SR, RR, SW or RW)", spec.origin);
      finish_experiment(spec,
                        fmt::format("{}-{}", pattern_name(spec.pattern), plan.experiments.size()));
      plan.experiments.push_back(std::move(spec));
    }
  }
  if (benchmarks) {
    for (const toml::node& element : *benchmarks) {
      const toml::table& table = *element.as_table();
      BenchmarkRequest request;
      request.where = where(path, element);
      const auto name = table["name"].value_exact<std::string>();
      if (!name)
        throw make_error("{}: benchmark has no name (one of {})", request.where,
                         fmt::join(uflip_benchmark_names(), ", "));
      request.name = *name;
      for (const KeyValue& kv : array_keys(path, table, "patterns")) {
        const auto* column = std::get_if<std::string>(&kv.value);
        if (!column) throw make_error("{}: patterns: expected strings such as \"SR\"", kv.where);
        request.columns.push_back(*column);
      }
      request.values = array_keys(path, table, "values");
      request.overrides = table_keys(path, table, {"name", "patterns", "values"});
      for (auto& spec : expand_benchmark(request, device))
        plan.experiments.push_back(std::move(spec));
    }
    if (plan.state.empty()) plan.state = std::string(kUflipState);
    arrange_sequential_writes(plan, device);
  }
  // io.csv and summary.json key rows by experiment name.
  std::map<std::string, const ExperimentSpec*> names;
  for (const auto& spec : plan.experiments) {
    const auto [it, fresh] = names.emplace(spec.name, &spec);
    if (!fresh)
      throw make_error("{}: experiment name '{}' is already used (at {}); names must be unique",
                       spec.origin.empty() ? path : spec.origin, spec.name,
                       it->second->origin.empty() ? path : it->second->origin);
  }
  return plan;
}

Plan parse_inline(std::string_view text) {
  const std::string origin = fmt::format("-w '{}'", text);
  const std::size_t colon = text.find(':');
  const std::string_view pattern = text.substr(0, colon);
  ExperimentSpec spec;
  spec.origin = origin;
  apply_key(spec, KeyValue{"pattern", std::string(pattern), origin});
  std::vector<KeyValue> keys;
  if (colon != std::string_view::npos) keys = parse_inline_keys(text.substr(colon + 1), origin);
  for (const auto& kv : keys) apply_key(spec, kv);
  finish_experiment(spec, default_inline_name(pattern_name(spec.pattern), keys));
  return Plan{std::string(text), {std::move(spec)}, {}};
}

namespace {

// The built-in (uflip:NAME) and inline (PATTERN[:keys]) forms come first: a
// file of such a name is read as a plan only when written as a path
// (./RW:count=10), so that a stray file never shadows them.
Plan read_plan(std::string_view workload, const DeviceInfo& device) {
  if (workload.empty()) throw make_error("-w: empty workload");
  const std::string text(workload);
  if (workload.starts_with("uflip:")) return uflip_plan(workload, device);
  if (parse_pattern(workload.substr(0, workload.find(':')))) return parse_inline(workload);
  std::error_code ignored;
  if (std::filesystem::is_regular_file(text, ignored)) return parse_plan_file(text, device);
  if (workload.starts_with("trace:"))
    throw make_error("-w '{}': a trace is not a plan; `ssdlab sim` replays it", text);
  if (workload.ends_with(".toml")) throw make_error("-w '{}': no such plan file", text);
  return parse_inline(workload);
}

}  // namespace

void check_plan_time(const Plan& plan) {
  TimeNs total = 0;
  for (const ExperimentSpec& spec : plan.experiments) {
    // Per run: the idle time before it, each process's pauses (one before
    // every burst-th I/O but the first) and its open-loop gaps (their mean;
    // a drawn gap that passes the clock is refused where it is drawn).
    const TimeNs mean_gap =
        spec.synthetic.interarrival_ns
            ? to_clock_ns(spec.synthetic.interarrival_ns->mean()).value_or(kClockLimitNs + 1)
            : 0;
    struct Part {
      const char* key;
      std::uint64_t times;
      TimeNs each;
    };
    const Part parts[] = {
        {"run_pause_us", spec.runs, spec.run_pause_ns},
        {"pause_us", std::uint64_t{spec.runs} * ((spec.count - 1) / spec.burst), spec.pause_ns},
        {"interarrival_us", std::uint64_t{spec.runs} * spec.count, mean_gap},
    };
    for (const Part& part : parts) {
      const std::optional<TimeNs> time = clock_mul(part.times, part.each);
      const std::optional<TimeNs> sum = time ? clock_add(total, *time) : std::nullopt;
      if (!sum)
        throw make_error(
            "{}: {}: {} times {} us{} is beyond what the simulated clock holds (2^62 ns, about "
            "146 years)",
            spec.origin, part.key, part.times, format_us(part.each),
            total > 0 ? ", after the plan's earlier pauses," : "");
      total = *sum;
    }
  }
}

Plan load_plan(std::string_view workload, const DeviceInfo& device) {
  Plan plan = read_plan(workload, device);
  check_plan_time(plan);
  return plan;
}

void validate_against_device(const ExperimentSpec& spec, std::uint64_t device_bytes,
                             std::uint32_t sector_size) {
  const auto& o = spec.origin;
  if (spec.io_size % sector_size != 0)
    throw make_error("{}: io_size {} is not a multiple of the {}-byte sector", o, spec.io_size,
                     sector_size);
  if (spec.target_offset % sector_size != 0)
    throw make_error("{}: target_offset {} is not a multiple of the {}-byte sector", o,
                     spec.target_offset, sector_size);
  if (spec.target_offset >= device_bytes)
    throw make_error("{}: target_offset {} lies beyond the device's {} ({} bytes)", o,
                     spec.target_offset, format_size(device_bytes), device_bytes);
  const std::uint64_t target =
      spec.target_size ? spec.target_size : device_bytes - spec.target_offset;
  if (spec.target_offset + target > device_bytes)
    throw make_error("{}: target_size: target {} + {} bytes ends beyond the device's {} ({} bytes)",
                     o, spec.target_offset, target, format_size(device_bytes), device_bytes);
  if (spec.io_shift % sector_size != 0)
    throw make_error("{}: io_shift {} is not a multiple of the {}-byte sector", o, spec.io_shift,
                     sector_size);
  const std::uint64_t share = target / spec.processes;
  if (share < spec.io_shift + spec.io_size)
    throw make_error(
        "{}: each of the {} processes gets {} bytes of target, less than io_shift + io_size "
        "({} + {})",
        o, spec.processes, share, spec.io_shift, spec.io_size);
  const std::uint64_t slots = (share - spec.io_shift) / spec.io_size;
  if (spec.partitions > slots)
    throw make_error("{}: {} partitions of a {}-byte target leave less than one io_size each", o,
                     spec.partitions, share);
}

}  // namespace ssdlab::workloads
