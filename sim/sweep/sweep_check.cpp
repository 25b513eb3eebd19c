#include "sim/sweep/sweep_check.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "common/error.h"
#include "common/log.h"
#include "sim/config/config.h"
#include "sim/run/trace_run.h"
#include "sim/run/trace_settings.h"
#include "sim/state/checkpoint.h"
#include "sim/state/precondition.h"
#include "workloads/plan.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

namespace {

template <typename T>
std::optional<T> value_of(const std::string& path, const toml::table& root, const char* key,
                          const char* expected) {
  const toml::node* node = root.get(key);
  if (!node) return std::nullopt;
  const auto value = node->value_exact<T>();
  if (!value) throw make_error("{}: {}: expected {}", where(path, *node), key, expected);
  return *value;
}

std::string at(const std::string& path, const toml::table& root, const char* key) {
  return where(path, *root.get(key));
}

// mode, qd, speed, layout: checked as sim checks its options, at their lines.
void read_trace_keys(const std::string& path, const toml::table& root, SweepRunKeys& keys) {
  keys.mode = value_of<std::string>(path, root, "mode", "\"open\", \"closed\" or \"dependent\"")
                  .value_or("");
  if (root.get("mode") && keys.mode != "open" && keys.mode != "closed" && keys.mode != "dependent")
    throw make_error("{}: mode: '{}': expected \"open\", \"closed\" or \"dependent\"",
                     at(path, root, "mode"), keys.mode);
  if (const auto qd = value_of<std::int64_t>(path, root, "qd", "an integer from 1")) {
    if (*qd < 1 || *qd > UINT32_MAX)
      throw make_error("{}: qd: {}: expected an integer from 1 to {}", at(path, root, "qd"), *qd,
                       UINT32_MAX);
    if (keys.mode != "closed")
      throw make_error("{}: qd: applies to mode = \"closed\" (open-loop replay follows the "
                       "trace times)",
                       at(path, root, "qd"));
    keys.queue_depth = static_cast<std::uint32_t>(*qd);
  }
  if (const toml::node* node = root.get("speed")) {
    const auto speed = node->value<double>();  // 200 or 0.5
    if (!speed || !(*speed >= kMinSpeed && *speed <= kMaxSpeed))
      throw make_error("{}: speed: expected a number from {:g} to {:g}", where(path, *node),
                       kMinSpeed, kMaxSpeed);
    if (keys.mode == "closed" || keys.mode == "dependent")
      throw make_error("{}: speed: applies to mode = \"open\" ({} replay ignores trace times)",
                       where(path, *node), keys.mode == "closed" ? "closed-loop" : "dependent");
    keys.speed = *speed;
  }
  keys.layout = value_of<std::string>(path, root, "layout", "a string").value_or("");
  if (root.get("layout") && keys.layout != "shared" && keys.layout != "partitioned")
    throw make_error("{}: layout: '{}': expected \"shared\" or \"partitioned\"",
                     at(path, root, "layout"), keys.layout);
}

}  // namespace

SweepRunKeys read_run_keys(const std::string& path, const toml::table& root) {
  SweepRunKeys keys;
  keys.precondition = value_of<std::string>(path, root, "precondition", "a string").value_or("");
  if (root.get("load_state")) {
    keys.load_state =
        value_of<std::string>(path, root, "load_state", "a checkpoint file name").value_or("");
    if (keys.load_state.empty())
      throw make_error("{}: load_state: expected a checkpoint file name",
                       at(path, root, "load_state"));
    if (!keys.precondition.empty())
      throw make_error(
          "{}: load_state: not with precondition (the checkpoint is the preconditioned state)",
          at(path, root, "load_state"));
  }
  keys.io_log = value_of<bool>(path, root, "io_log", "true or false").value_or(false);
  keys.fairness = value_of<bool>(path, root, "fairness", "true or false").value_or(false);
  keys.skip_refused = value_of<bool>(path, root, "skip_refused", "true or false").value_or(false);
  if (const auto threads =
          value_of<std::int64_t>(path, root, "precondition_threads", "an integer from 0")) {
    if (*threads < 0 || *threads > 4096)
      throw make_error("{}: precondition_threads: expected 0 (every core) to 4096",
                       at(path, root, "precondition_threads"));
    keys.precondition_threads = static_cast<unsigned>(*threads);
  }
  read_trace_keys(path, root, keys);
  return keys;
}

namespace {

// A config that refuses a combination of overrides.
struct Refusal {
  std::size_t config, combination;
  std::string where, message;
  std::string why;  // the config's error, less its "--set KEY=VALUE: "
  std::optional<std::size_t> value;  // the override it names ("--set KEY=VALUE: ...")
};

Refusal refusal(const std::string& path, const std::vector<std::string>& configs,
                const Combination& combination, std::size_t c, std::size_t s,
                const std::string& message) {
  Refusal r{c, s, fmt::format("{}:{}", path, combination.line), message, message, std::nullopt};
  for (std::size_t i = 0; i < combination.sets.size(); ++i)
    if (const std::string prefix = "--set " + combination.sets[i] + ": ";
        message.starts_with(prefix)) {
      r.value = i;
      r.where = fmt::format("{}:{}", path, combination.lines[i]);
      r.why = message.substr(prefix.size());
    }
  // Named as the sweep file writes it: sets, or the grid's key.
  std::string source = combination.source;
  if (r.value && *r.value >= combination.from_sets)
    source = fmt::format("grid.\"{}\"", override_key(combination.sets[*r.value]));
  std::string what = fmt::format("{}: {}", source, message);
  if (combination.sets.size() > 1)
    what += fmt::format(" (combination {} of {}; leave such combinations out with exclude = "
                        "[...] or skip_refused = true)",
                        fmt::join(combination.sets, ", "), fs::path(configs[c]).filename().string());
  r.message = what;
  return r;
}

// Each config with each combination; refusals (all of them with
// skip_refused, else the first is thrown).
std::vector<std::vector<bool>> check_configs(const std::string& path, const toml::table& root,
                                             const ResolvePath& resolve,
                                             const std::vector<std::string>& configs,
                                             const std::vector<Combination>& combinations,
                                             const SweepRunKeys& keys,
                                             std::vector<std::string>& skipped) {
  CheckpointFile checkpoint;
  if (!keys.load_state.empty()) try {
      checkpoint = checkpoint_info(resolve(keys.load_state));
    } catch (const Error& error) {
      throw make_error("{}: load_state: {}", at(path, root, "load_state"), error.what());
    }
  std::vector<std::vector<bool>> accepted(configs.size(),
                                          std::vector<bool>(combinations.size(), false));
  std::vector<Refusal> refusals;
  for (std::size_t c = 0; c < configs.size(); ++c)
    for (std::size_t s = 0; s < combinations.size(); ++s) {
      const Combination& combination = combinations[s];
      try {
        std::optional<DeviceConfig> config;
        try {
          config = load_config(resolve(configs[c]), combination.sets);
        } catch (const Error& error) {
          if (combination.sets.empty())  // the config itself
            throw make_error("{}: configs: {}", where_item(path, root, "configs", c), error.what());
          throw;
        }
        // Every job's checkpoint against its device: a job of another
        // geometry or FTL would fail only when it runs (on a cluster, later).
        if (!keys.load_state.empty()) try {
            check_checkpoint_fits(checkpoint.info, *config);
          } catch (const Error& error) {
            throw make_error("{}: load_state: {} does not load into {}{}: {}",
                             fmt::format("{}:{}", path, combination.line), keys.load_state,
                             configs[c],
                             combination.sets.empty()
                                 ? ""
                                 : fmt::format(" with {}", fmt::join(combination.sets, ", ")),
                             error.what());
          }
        accepted[c][s] = true;
      } catch (const Error& error) {
        const std::string message = error.what();
        if (message.starts_with(path + ":")) throw;  // placed already: not a refusal
        Refusal r = refusal(path, configs, combination, c, s, message);
        if (!keys.skip_refused) throw make_error("{}: {}", r.where, r.message);
        refusals.push_back(std::move(r));
      }
    }
  for (const Refusal& r : refusals) {
    // A value no combination accepts is a mistake, not a refusal.
    const Combination& combination = combinations[r.combination];
    bool used = false;
    for (std::size_t c = 0; c < configs.size() && !used; ++c)
      for (std::size_t s = 0; s < combinations.size() && !used; ++s)
        used = accepted[c][s] && (!r.value || std::find(combinations[s].sets.begin(),
                                                        combinations[s].sets.end(),
                                                        combination.sets[*r.value]) !=
                                                  combinations[s].sets.end());
    if (!used) throw make_error("{}: {} (no combination accepts it)", r.where, r.message);
    skipped.push_back(fmt::format("{} with {}: {}", fs::path(configs[r.config]).filename().string(),
                                  fmt::join(combination.sets, ", "), r.why));
  }
  return accepted;
}

// One workload, checked as a job would (plans against the device, traces
// with the sweep's trace keys). `tenant`: it runs beside other workloads,
// where a plan is one experiment of one run (sim/run/tenant_run.h), as the
// job would refuse it.
void check_workload(const std::string& workload, const ResolvePath& resolve,
                    const SweepRunKeys& keys, const workloads::DeviceInfo& device, bool tenant) {
  if (!is_trace_workload(workload)) {
    const workloads::Plan plan = workloads::load_plan(
        workload.ends_with(".toml") ? resolve(workload) : workload, device);
    const std::size_t experiments = plan.experiments.size();
    if (tenant && (experiments != 1 || plan.experiments[0].runs != 1))
      throw make_error(
          "'{}': a plan run beside other workloads (a tenant) is one experiment of one run (it "
          "has {} experiment{}{}); give it its own entry of workloads",
          workload, experiments, experiments == 1 ? "" : "s",
          experiments == 1 ? fmt::format(" of {} runs", plan.experiments[0].runs) : "");
    return;
  }
  TraceOptions trace;
  trace.mode = keys.mode;
  trace.queue_depth = keys.queue_depth;
  trace.speed = keys.speed;
  std::string file;
  (void)trace_options_of(workload, trace, file);  // the keys of trace:FILE,key=...
  if (file == "-")
    throw make_error("'{}': a sweep's traces are files (each job reads its own)", workload);
  (void)sim::resolve(workload, trace, logger("trace"));  // the file, its format, the replay
}

}  // namespace

std::vector<std::vector<bool>> validate(const std::string& path, const toml::table& root,
                                        const ResolvePath& resolve,
                                        const std::vector<std::string>& configs,
                                        const std::vector<Combination>& combinations,
                                        const std::vector<std::vector<std::string>>& workloads,
                                        const SweepRunKeys& keys,
                                        std::vector<std::string>& skipped) {
  if (!keys.precondition.empty()) try {
      (void)workloads::parse_precondition(keys.precondition);
    } catch (const Error& error) {
      throw make_error("{}: precondition: {}", at(path, root, "precondition"), error.what());
    }
  const auto accepted =
      check_configs(path, root, resolve, configs, combinations, keys, skipped);
  // The device of the first job, for the plans' sizes.
  std::optional<DeviceConfig> first;
  for (std::size_t c = 0; c < configs.size() && !first; ++c)
    for (std::size_t s = 0; s < combinations.size() && !first; ++s)
      if (accepted[c][s]) first = load_config(resolve(configs[c]), combinations[s].sets);
  const auto& g = first->geometry;
  const workloads::DeviceInfo device{g.capacity_bytes(), first->sector_size,
                                     std::uint64_t{g.pages_per_block} * g.page_size};
  bool traces = false;
  for (std::size_t w = 0; w < workloads.size(); ++w)
    for (const std::string& workload : workloads[w]) {
      traces = traces || is_trace_workload(workload);
      try {
        check_workload(workload, resolve, keys, device, workloads[w].size() > 1);
      } catch (const Error& error) {
        throw make_error("{}: workloads: {}", where_item(path, root, "workloads", w), error.what());
      }
    }
  for (const char* key : {"mode", "qd", "speed", "layout"})
    if (root.get(key) && !traces)
      throw make_error("{}: {}: only for trace workloads (\"trace:FILE\"), and this sweep has "
                       "none",
                       at(path, root, key), key);
  return accepted;
}

}  // namespace ssdlab::sim
