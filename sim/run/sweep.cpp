#include "sim/run/sweep.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <thread>
#include <vector>

#include "common/error.h"
#include "common/file_kind.h"
#include "common/toml_text.h"
#include "sim/controller/config.h"
#include "sim/state/checkpoint.h"
#include "sim/state/precondition.h"
#include "workloads/plan.h"
#include "sim/results/output.h"
#include "sim/run/trace_run.h"
#include "sim/results/report.h"
#include "sim/run/plan_run.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

namespace {

struct Job {
  std::uint64_t id;
  std::string config;
  std::vector<std::string> sets;
  std::string workload;
  std::uint64_t seed;
  std::string precondition;
  std::string load_state;  // a checkpoint every job starts from
  bool io_log;
  std::string dir() const { return fmt::format("job-{:05}", id); }
};

std::string where(const std::string& path, const toml::node& node) {
  return fmt::format("{}:{}", path, node.source().begin.line);
}

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

// Where the `index`th element of the list `key` is, or the file's first line.
std::string where_item(const std::string& path, const toml::table& root, const char* key,
                       std::size_t index) {
  const toml::node* node = root.get(key);
  const toml::array* array = node ? node->as_array() : nullptr;
  if (array && index < array->size()) return where(path, *array->get(index));
  return node ? where(path, *node) : path + ":1";
}

// Every mistake a job would make on its own (a bad precondition, a missing
// checkpoint or config, a bad set or workload) found before the first job
// runs and anything is written, with the sweep file's line.
template <typename Resolve>
void validate(const std::string& path, const toml::table& root, const Resolve& resolve,
              const std::vector<std::string>& configs,
              const std::vector<std::vector<std::string>>& sets,
              const std::vector<std::string>& workload_list, const std::string& precondition,
              const std::string& load_state) {
  const auto wrap = [](const std::string& at, const char* key, auto&& check) {
    try {
      check();
    } catch (const Error& error) {
      throw make_error("{}: {}: {}", at, key, error.what());
    }
  };
  if (!precondition.empty())
    wrap(where(path, *root.get("precondition")), "precondition",
         [&] { (void)parse_precondition(precondition); });
  if (!load_state.empty())
    wrap(where(path, *root.get("load_state")), "load_state",
         [&] { (void)checkpoint_info(resolve(load_state)); });
  std::optional<DeviceConfig> first;
  for (std::size_t c = 0; c < configs.size(); ++c)
    for (std::size_t s = 0; s < sets.size(); ++s) {
      const std::string at = sets[s].empty() ? where_item(path, root, "configs", c)
                                             : where_item(path, root, "sets", s);
      wrap(at, sets[s].empty() ? "configs" : "sets", [&] {
        DeviceConfig config = load_config(resolve(configs[c]), sets[s]);
        if (!first) first = std::move(config);
      });
    }
  const auto& g = first->geometry;
  const workloads::DeviceInfo device{g.capacity_bytes(), first->sector_size,
                                     std::uint64_t{g.pages_per_block} * g.page_size};
  for (std::size_t w = 0; w < workload_list.size(); ++w)
    wrap(where_item(path, root, "workloads", w), "workloads", [&] {
      const std::string& workload = workload_list[w];
      if (workload.starts_with("trace:")) {
        const std::string file = workload.substr(6);
        if (const std::string problem = not_a_regular_file(file); !problem.empty())
          throw make_error("'{}': {}", file, problem);
        return;
      }
      (void)workloads::load_plan(workload.ends_with(".toml") ? resolve(workload) : workload,
                                 device);
    });
}

// The grid, in a fixed order: configs, then sets, then workloads, then seeds.
std::vector<Job> expand(const std::string& path) {
  toml::table root;
  try {
    root = toml::parse(read_toml_text(path), path);
  } catch (const toml::parse_error& error) {
    throw make_error("{}:{}: {}", path, error.source().begin.line, error.description());
  }
  for (const auto& [key, node] : root) {
    static const std::vector<std::string_view> kKeys = {
        "configs", "workloads", "seeds", "sets", "precondition", "load_state", "io_log"};
    if (std::find(kKeys.begin(), kKeys.end(), key.str()) == kKeys.end())
      throw make_error("{}: unknown key '{}' (known: {})", where(path, node), key.str(),
                       fmt::join(kKeys, ", "));
  }
  const auto configs = strings(path, root, "configs", true);
  const auto workloads = strings(path, root, "workloads", true);
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
  std::vector<std::vector<std::string>> sets{{}};
  if (const toml::node* node = root.get("sets")) {
    const toml::array* array = node->as_array();
    if (!array || array->empty())
      throw make_error("{}: sets: expected a list of lists of \"table.key=value\"",
                       where(path, *node));
    sets.clear();
    for (const toml::node& item : *array) {
      const toml::array* group = item.as_array();
      if (!group)
        throw make_error("{}: sets: expected a list of lists of \"table.key=value\"",
                         where(path, item));
      std::vector<std::string> overrides;
      for (const toml::node& entry : *group) {
        const auto text = entry.value_exact<std::string>();
        if (!text || text->find('=') == std::string::npos)
          throw make_error("{}: sets: expected \"table.key=value\"", where(path, entry));
        overrides.push_back(*text);
      }
      sets.push_back(std::move(overrides));
    }
  }
  std::string precondition;
  if (const toml::node* node = root.get("precondition")) {
    const auto text = node->value_exact<std::string>();
    if (!text) throw make_error("{}: precondition: expected a string", where(path, *node));
    precondition = *text;
  }
  std::string load_state;
  if (const toml::node* node = root.get("load_state")) {
    const auto text = node->value_exact<std::string>();
    if (!text || text->empty())
      throw make_error("{}: load_state: expected a checkpoint file name", where(path, *node));
    if (!precondition.empty())
      throw make_error(
          "{}: load_state: not with precondition (the checkpoint is the preconditioned state)",
          where(path, *node));
    load_state = *text;
  }
  bool io_log = false;
  if (const toml::node* node = root.get("io_log")) {
    const auto flag = node->value_exact<bool>();
    if (!flag) throw make_error("{}: io_log: expected true or false", where(path, *node));
    io_log = *flag;
  }
  // Relative config paths are relative to the sweep file, as a user expects
  // when the file sits beside its configs; workloads that are plan files too.
  const fs::path base = fs::path(path).parent_path();
  const auto resolve = [&base](const std::string& file) {
    const fs::path p(file);
    if (p.is_absolute() || fs::exists(p)) return file;
    return (base / p).string();
  };
  validate(path, root, resolve, configs, sets, workloads, precondition, load_state);
  std::vector<Job> jobs;
  for (const auto& config : configs)
    for (const auto& set : sets)
      for (const auto& workload : workloads)
        for (const std::uint64_t seed : seeds) {
          const bool is_file = workload.ends_with(".toml");
          jobs.push_back({jobs.size(), resolve(config), set, is_file ? resolve(workload) : workload,
                          seed, precondition, load_state.empty() ? "" : resolve(load_state),
                          io_log});
        }
  return jobs;
}

nlohmann::json job_json(const Job& job) {
  return {{"id", job.id},
          {"dir", job.dir()},
          {"config", job.config},
          {"sets", job.sets},
          {"workload", job.workload},
          {"seed", job.seed},
          {"precondition", job.precondition},
          {"load_state", job.load_state}};
}

// Runs one job into OUTDIR/job-N; returns its error, empty if none.
std::string run_job(const Job& job, const fs::path& outdir) {
  SimOptions options;
  options.config = job.config;
  options.workload = job.workload;
  options.outdir = (outdir / job.dir()).string();
  options.overrides = job.sets;
  options.seed = job.seed;
  options.precondition = job.precondition;
  options.load_state = job.load_state;
  options.io_log = job.io_log;
  std::ostringstream log;
  std::string error;
  try {
    run_sim_or_replay(options, {job.workload}, TraceOptions{}, log);
  } catch (const std::exception& e) {
    error = e.what();
  }
  std::error_code ignored;
  fs::create_directories(options.outdir, ignored);
  std::ofstream(fs::path(options.outdir) / "sweep-job.txt")
      << log.str() << (error.empty() ? "" : "error: " + error + "\n");
  return error;
}

void write_manifest(const std::vector<Job>& jobs, const std::string& plan, const fs::path& outdir) {
  nlohmann::json manifest = {{"sweep", plan}, {"jobs", nlohmann::json::array()}};
  for (const Job& job : jobs) manifest["jobs"].push_back(job_json(job));
  write_file_atomically(outdir / "jobs.json", manifest.dump(2) + "\n");
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// This binary, so that the cluster runs the same build (on a shared
// filesystem); "ssdlab" from PATH if it cannot be told.
std::string this_executable() {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  return error ? std::string("ssdlab") : self.string();
}

}  // namespace

int run_sweep(const SweepOptions& options, std::ostream& out) {
  const std::vector<Job> jobs = expand(options.plan);
  const fs::path outdir(options.outdir);
  std::error_code error;
  fs::create_directories(outdir, error);
  if (error)
    throw make_error("{}: cannot create the output folder: {}", outdir.string(), error.message());
  write_manifest(jobs, options.plan, outdir);

  if (!options.slurm.empty()) {
    const std::string script = fmt::format(
        "#!/bin/bash\n"
        "# Generated by `ssdlab sweep --slurm`: one array task per job of {plan}.\n"
        "# Submit with `sbatch {script}`; when all tasks are done, build the table with\n"
        "#   ssdlab collect {out}\n"
        "#SBATCH --job-name=ssdlab-sweep\n"
        "#SBATCH --array=0-{last}\n"
        "#SBATCH --cpus-per-task=1\n"
        "#SBATCH --output={out}/slurm-%a.log\n"
        "set -euo pipefail\n"
        "exec '{ssdlab}' sweep '{plan}' -o '{out}' --job \"$SLURM_ARRAY_TASK_ID\"\n",
        fmt::arg("plan", fs::absolute(options.plan).string()), fmt::arg("script", options.slurm),
        fmt::arg("out", fs::absolute(outdir).string()), fmt::arg("last", jobs.size() - 1),
        fmt::arg("ssdlab", this_executable()));
    write_file_atomically(options.slurm, script);
    fs::permissions(options.slurm, fs::perms::owner_exec | fs::perms::group_exec,
                    fs::perm_options::add);
    fmt::print(out, "{}: {} jobs as a Slurm array; then `ssdlab collect {}`\n", options.slurm,
               jobs.size(), outdir.string());
    return 0;
  }
  if (options.job) {
    if (*options.job >= jobs.size())
      throw make_error("--job {}: the sweep has jobs 0 to {}", *options.job, jobs.size() - 1);
    const std::string failure = run_job(jobs[*options.job], outdir);
    if (!failure.empty()) fmt::print(out, "job {}: {}\n", *options.job, failure);
    return failure.empty() ? 0 : 1;
  }

  const unsigned workers = std::max(
      1u, std::min<unsigned>(options.jobs ? options.jobs : std::thread::hardware_concurrency(),
                             static_cast<unsigned>(jobs.size())));
  fmt::print(out, "{}: {} jobs on {} threads\n", options.plan, jobs.size(), workers);
  std::atomic<std::size_t> next{0};
  std::mutex print;
  std::vector<std::string> failures(jobs.size());
  const auto started = std::chrono::steady_clock::now();
  {
    std::vector<std::jthread> pool;
    for (unsigned w = 0; w < workers; ++w)
      pool.emplace_back([&] {
        for (std::size_t i; (i = next++) < jobs.size();) {
          failures[i] = run_job(jobs[i], outdir);
          std::lock_guard lock(print);
          fmt::print(out, "  {} {}\n", jobs[i].dir(),
                     failures[i].empty() ? "done" : "failed: " + failures[i]);
        }
      });
  }
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  fmt::print(out, "{} jobs in {:.1f} s of wall time\n", jobs.size(), wall);
  const int collected = run_collect(options.outdir, out);
  const bool failed = std::any_of(failures.begin(), failures.end(),
                                  [](const std::string& f) { return !f.empty(); });
  return failed || collected != 0 ? 1 : 0;
}

namespace {
int collect(const std::string& outdir_text, std::ostream& out);
}  // namespace

int run_collect(const std::string& outdir_text, std::ostream& out) {
  try {
    return collect(outdir_text, out);
  } catch (const nlohmann::json::exception& error) {
    // A jobs.json or summary.json of another shape than a sweep writes.
    throw make_error("{}: not a sweep folder ssdlab wrote: jobs.json or a job's summary.json "
                     "lacks what a sweep writes ({})",
                     outdir_text, error.what());
  }
}

namespace {

int collect(const std::string& outdir_text, std::ostream& out) {
  const fs::path outdir(outdir_text);
  if (!fs::is_regular_file(outdir / "jobs.json"))
    throw make_error("{}: no jobs.json (not a sweep folder)", outdir_text);
  const nlohmann::json manifest = read_json_file(outdir / "jobs.json");
  std::ostringstream csv;
  csv << "job,config,sets,workload,seed,experiment,runs,mean_us,p50_us,p99_us,iops,"
         "write_amplification\n";
  std::size_t missing = 0, rows = 0;
  fmt::print(out, "  {:<9} {:<28} {:<30} {:>5} {:<30} {:>10} {:>10} {:>6}\n", "job", "config",
             "sets", "seed", "experiment", "mean_us", "p99_us", "WA");
  for (const auto& job : manifest.at("jobs")) {
    const fs::path summary_path = outdir / job.at("dir").get<std::string>() / "summary.json";
    if (!fs::is_regular_file(summary_path)) {
      ++missing;
      fmt::print(out, "  {:<9} missing: {}\n", job.at("dir").get<std::string>(),
                 summary_path.string());
      continue;
    }
    const nlohmann::json summary = read_json_file(summary_path);
    const std::string sets =
        fmt::format("{}", fmt::join(job.at("sets").get<std::vector<std::string>>(), " "));
    const std::string config = fs::path(job.at("config").get<std::string>()).stem().string();
    for (const auto& experiment : summary.at("experiments")) {
      const auto& runs = experiment.at("runs");
      const double mean = mean_over_runs(experiment, "mean_us");
      const double p50 = mean_over_runs(experiment, "p50_us");
      const double p99 = mean_over_runs(experiment, "p99_us");
      const double iops = mean_over_runs(experiment, "iops");
      double wa = 0;  // a probe's runs have no device counters
      for (const auto& run : runs)
        if (run.contains("device")) wa += run["device"].value("write_amplification", 0.0);
      if (!runs.empty()) wa /= static_cast<double>(runs.size());
      csv << fmt::format("{},{},{},{},{},{},{},{:.3f},{:.3f},{:.3f},{:.1f},{:.4f}\n",
                         job.at("id").get<std::uint64_t>(), csv_field(job.at("config")),
                         csv_field(sets), csv_field(job.at("workload")),
                         job.at("seed").get<std::uint64_t>(),
                         csv_field(experiment.at("name").get<std::string>()), runs.size(), mean,
                         p50, p99, iops, wa);
      fmt::print(out, "  {:<9} {:<28} {:<30} {:>5} {:<30} {:>10.3f} {:>10.3f} {:>6.3f}\n",
                 job.at("dir").get<std::string>(), config, sets,
                 job.at("seed").get<std::uint64_t>(), experiment.at("name").get<std::string>(),
                 mean, p99, wa);
      ++rows;
    }
  }
  write_file_atomically(outdir / "sweep.csv", csv.str());
  fmt::print(out, "  {} rows from {} jobs{} -> {}\n", rows, manifest["jobs"].size() - missing,
             missing ? fmt::format(" ({} missing)", missing) : "", (outdir / "sweep.csv").string());
  return missing ? 1 : 0;
}

}  // namespace

}  // namespace ssdlab::sim
