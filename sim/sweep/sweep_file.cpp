#include "sim/sweep/sweep_file.h"

#include <fmt/ranges.h>
#include <toml++/toml.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "common/error.h"
#include "common/suggest.h"
#include "common/toml_text.h"
#include "sim/sweep/sweep_check.h"
#include "sim/sweep/sweep_grid.h"
#include "sim/run/trace_run.h"
#include "sim/run/trace_settings.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

namespace {

std::vector<std::string> strings(const std::string& path, const toml::table& root, const char* key,
                                 bool required) {
  std::vector<std::string> items;
  const toml::node* node = root.get(key);
  if (!node) {
    if (required) throw make_error("{}:1: {}: required (a list of strings)", path, key);
    return items;
  }
  const toml::array* array = node->as_array();
  if (!array || array->empty())
    throw make_error("{}: {}: expected a non-empty list of strings", where(path, *node), key);
  for (const toml::node& item : *array) {
    const auto text = item.value_exact<std::string>();
    if (!text || text->empty())
      throw make_error("{}: {}: expected a non-empty list of strings", where(path, item), key);
    items.push_back(*text);
  }
  return items;
}

// `workloads`: each entry a workload, or a list of workloads that run
// together as tenants (one job).
std::vector<std::vector<std::string>> workload_entries(const std::string& path,
                                                       const toml::table& root) {
  const toml::node* node = root.get("workloads");
  if (!node) throw make_error("{}:1: workloads: required (a list of strings)", path);
  const toml::array* array = node->as_array();
  const char* expected =
      "expected a non-empty list of workloads, each a string or a list of strings (tenants)";
  if (!array || array->empty()) throw make_error("{}: workloads: {}", where(path, *node), expected);
  std::vector<std::vector<std::string>> entries;
  for (const toml::node& item : *array) {
    std::vector<std::string>& entry = entries.emplace_back();
    if (const auto text = item.value_exact<std::string>()) entry.push_back(*text);
    if (const toml::array* tenants = item.as_array())
      for (const toml::node& tenant : *tenants)
        if (const auto text = tenant.value_exact<std::string>()) entry.push_back(*text);
    const bool sized = item.is_array() ? entry.size() == item.as_array()->size() : true;
    if (entry.empty() || !sized ||
        std::any_of(entry.begin(), entry.end(), [](const std::string& w) { return w.empty(); }))
      throw make_error("{}: workloads: {}", where(path, item), expected);
  }
  return entries;
}

// The grid, in a fixed order: configs, then sets (crossed with the [grid]
// axes), then workloads, then seeds.
// seeds = [...]: non-negative integers (default: 1).
std::vector<std::uint64_t> read_seeds(const std::string& path, const toml::table& root) {
  std::vector<std::uint64_t> seeds;
  if (const toml::node* node = root.get("seeds")) {
    const toml::array* array = node->as_array();
    if (!array || array->empty())
      throw make_error("{}: seeds: expected a non-empty list of integers", where(path, *node));
    for (const toml::node& item : *array) {
      const auto seed = item.value_exact<std::int64_t>();
      if (!seed || *seed < 0)
        throw make_error("{}: seeds: expected non-negative integers", where(path, item));
      seeds.push_back(static_cast<std::uint64_t>(*seed));
    }
  } else {
    seeds.push_back(1);
  }
  return seeds;
}

// "trace:FILE,keys": FILE relative to the sweep file where it is not found
// as given, as configs and plan files are.
std::string resolve_trace(const std::string& workload, const fs::path& base) {
  if (!is_trace_workload(workload)) return workload;
  std::string file;
  try {
    (void)trace_options_of(workload, TraceOptions{}, file);
  } catch (const Error&) {
    return workload;  // a bad key: validate() reports it
  }
  std::error_code error;
  if (file.empty() || file == "-" || fs::path(file).is_absolute() || fs::exists(file, error) ||
      !fs::exists(base / file, error))
    return workload;
  return "trace:" + (base / file).string() + workload.substr(6 + file.size());
}

}  // namespace

Sweep expand(const std::string& path) {
  toml::table root;
  const std::string text = read_toml_text(path);
  try {
    root = toml::parse(text, path);
  } catch (const toml::parse_error& error) {
    const std::size_t line = error.source().begin.line;
    throw make_error("{}:{}: {}", path, line,
                     toml_error_description(error.description(), text, line));
  }
  for (const auto& [key, node] : root) {
    static const std::vector<std::string_view> kKeys = {
        "configs",      "workloads", "seeds",   "sets",     "grid", "exclude",
        "skip_refused", "precondition", "precondition_threads", "load_state", "io_log",
        "fairness",     "mode",      "qd",      "speed",    "layout"};
    if (std::find(kKeys.begin(), kKeys.end(), key.str()) == kKeys.end())
      throw make_error("{}: unknown key '{}'{} (known: {})", where(path, node), key.str(),
                       did_you_mean(key.str(), kKeys), fmt::join(kKeys, ", "));
  }
  const auto configs = strings(path, root, "configs", true);
  auto workloads = workload_entries(path, root);
  const std::vector<std::uint64_t> seeds = read_seeds(path, root);
  const std::vector<Combination> combinations = read_combinations(path, root);
  const SweepRunKeys keys = read_run_keys(path, root);
  // Relative config paths are relative to the sweep file, as a user expects
  // when the file sits beside its configs; workloads that are plan files or
  // traces too.
  const fs::path base = fs::path(path).parent_path();
  const auto resolve = [&base](const std::string& file) {
    const fs::path p(file);
    // (A name the OS refuses, too long say, is reported where it is read.)
    std::error_code error;
    if (p.is_absolute() || fs::exists(p, error)) return file;
    return (base / p).string();
  };
  for (auto& entry : workloads)
    for (std::string& workload : entry)
      workload = workload.ends_with(".toml") ? resolve(workload) : resolve_trace(workload, base);
  Sweep sweep;
  const auto accepted =
      validate(path, root, resolve, configs, combinations, workloads, keys, sweep.skipped);
  for (std::size_t c = 0; c < configs.size(); ++c)
    for (std::size_t s = 0; s < combinations.size(); ++s) {
      if (!accepted[c][s]) continue;
      for (const auto& entry : workloads)
        for (const std::uint64_t seed : seeds) {
          Job job;
          job.id = sweep.jobs.size();
          job.config = resolve(configs[c]);
          job.sets = combinations[s].sets;
          job.workload = fmt::format("{}", fmt::join(entry, " + "));
          job.workloads = entry;
          job.seed = seed;
          job.precondition = keys.precondition;
          job.load_state = keys.load_state.empty() ? "" : resolve(keys.load_state);
          job.io_log = keys.io_log;
          job.fairness = keys.fairness;
          job.mode = keys.mode;
          job.layout = keys.layout;
          job.queue_depth = keys.queue_depth;
          job.speed = keys.speed;
          job.precondition_threads = keys.precondition_threads;
          sweep.jobs.push_back(std::move(job));
        }
    }
  return sweep;
}

}  // namespace ssdlab::sim
