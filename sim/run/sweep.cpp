#include "sim/run/sweep.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include <atomic>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <sstream>
#include <thread>
#include <vector>

#include "common/error.h"
#include "common/file_kind.h"
#include "common/host_info.h"
#include "common/progress.h"
#include "common/suggest.h"
#include "common/toml_text.h"
#include "common/units.h"
#include "sim/config/config.h"
#include "sim/results/output.h"
#include "sim/report/report.h"
#include "sim/results/summary.h"
#include "sim/run/plan_run.h"
#include "sim/run/sweep_file.h"
#include "sim/run/sweep_frozen.h"
#include "sim/run/sweep_slurm.h"
#include "sim/state/state_cache.h"
#include "sim/run/trace_run.h"
#include "sim/state/checkpoint.h"
#include "sim/state/precondition.h"
#include "workloads/plan.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

namespace {

// Runs job `frozen` of `list` into OUTDIR/job-N; returns its error, empty
// if none. Its sweep-job.json goes when it starts and comes back with its
// results, so that collect never takes an older run's for this one's.
std::string run_job(const nlohmann::json& list, const FrozenJob& frozen, const fs::path& outdir) {
  const Job& job = frozen.job;
  SimOptions options;
  options.config = job.config;
  options.workload = job.workloads.front();
  options.outdir = (outdir / job.dir()).string();
  options.overrides = job.sets;
  options.seed = job.seed;
  options.precondition = job.precondition;
  options.load_state = job.load_state;
  options.io_log = job.io_log;
  options.fairness = job.fairness;
  options.quiet = true;  // the sweep shows jobs done, not each job's I/Os
  clear_job_record(options.outdir);
  std::ostringstream log;
  std::string error;
  try {
    run_sim_or_replay(options, job.workloads, TraceOptions{}, log);
  } catch (const std::exception& e) {
    error = e.what();
  }
  std::error_code ignored;
  fs::create_directories(options.outdir, ignored);
  try {
    write_file_atomically(fs::path(options.outdir) / "sweep-job.txt",
                          log.str() + (error.empty() ? "" : "error: " + error + "\n"));
    if (error.empty()) write_job_record(list, frozen.record, options.outdir);
  } catch (const Error& e) {
    if (error.empty()) error = e.what();
  }
  return error;
}

// sweep --state N: the preconditioned state N of the frozen list, made
// once into the state cache for the jobs that start from it (a Slurm
// preconditioning task, which they follow with afterok).
int make_shared_state(const nlohmann::json& list, std::uint64_t state, const fs::path& outdir,
                      std::ostream& out) {
  const nlohmann::json& states = list.at("states");
  if (state >= states.size())
    throw make_error("--state {}: the sweep has {} shared states", state, states.size());
  if (state_cache_dir().empty())
    throw Error("--state: no state cache folder (set XDG_CACHE_HOME or HOME)");
  const FrozenJob first = frozen_job(list, states.at(state).at("job").get<std::uint64_t>(), outdir);
  SimOptions options;
  options.config = first.job.config;
  options.overrides = first.job.sets;
  options.seed = first.job.seed;
  options.precondition = first.job.precondition;
  options.outdir = (outdir / fmt::format("states/state-{:05}", state)).string();
  options.io_log = false;
  options.quiet = true;
  fs::create_directories(options.outdir);
  run_sim(options, out);
  return 0;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// The swept settings of a job: "table.key=value" of its sets, in order.
std::vector<std::pair<std::string, std::string>> swept(const nlohmann::json& job) {
  std::vector<std::pair<std::string, std::string>> settings;
  for (const auto& set : job.at("sets")) {
    const std::string text = set.get<std::string>();
    const std::size_t equals = text.find('=');
    if (equals != std::string::npos)
      settings.emplace_back(text.substr(0, equals), text.substr(equals + 1));
  }
  return settings;
}

// A swept value as a typed CSV field: numbers as numbers, sizes ("128MiB")
// in bytes, anything else as quoted-if-needed text; so that the column
// sorts and loads (pandas) as numbers.
std::string typed_field(std::string text) {
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"')
    text = text.substr(1, text.size() - 2);
  double number = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (!text.empty() && error == std::errc() && end == text.data() + text.size()) return text;
  if (const auto bytes = parse_size(text)) return fmt::format("{}", *bytes);
  return csv_field(text);
}

}  // namespace

int run_sweep(const SweepOptions& options, std::ostream& out) {
  const fs::path outdir(options.outdir);
  if (options.job || options.state) {
    // An array task: its job from the frozen list, nothing else read or
    // written outside its own folder. The tasks of one sweep share the
    // folder; each job folder is then locked by its own run.
    const nlohmann::json list = read_frozen_list(outdir);
    const OutputLock lock(outdir, OutputLock::Mode::kShared);
    if (options.state) return make_shared_state(list, *options.state, outdir, out);
    const std::string failure = run_job(list, frozen_job(list, *options.job, outdir), outdir);
    if (!failure.empty()) fmt::print(out, "job {}: {}\n", *options.job, failure);
    return failure.empty() ? 0 : 1;
  }
  const std::vector<Job> jobs = expand(options.plan);
  if (!options.slurm.empty()) {
    const NamedPath inputs[] = {command_input("the sweep file", options.plan),
                                {"the sweep's own jobs.json", outdir / "jobs.json"}};
    check_output_path(options.slurm, "Slurm script", inputs);
    check_slurm_outdir(options.outdir);
  }
  const FrozenList frozen = freeze_jobs(jobs, options.plan, outdir);
  std::error_code error;
  fs::create_directories(outdir, error);
  if (error)
    throw make_error("{}: cannot create the output folder: {}", outdir.string(), error.message());
  // The folder is this sweep's, as a run's is (sim/results/output.h).
  const OutputLock lock(outdir, OutputLock::Mode::kExclusive);
  publish_frozen_list(frozen, outdir, options.replace, options.slurm.empty());
  if (!options.slurm.empty())
    return write_slurm_scripts(options.slurm, options.cluster, jobs, frozen.list, options.outdir,
                               out);

  const unsigned workers = std::max(
      1u, std::min<unsigned>(options.jobs ? options.jobs : usable_cpus(),
                             static_cast<unsigned>(jobs.size())));
  fmt::print(out, "{}: {} jobs on {} threads\n", options.plan, jobs.size(), workers);
  std::atomic<std::size_t> next{0};
  std::mutex print;
  std::vector<std::string> failures(jobs.size());
  const auto started = std::chrono::steady_clock::now();
  Progress progress = Progress::on_terminal(options.quiet, "sweep", jobs.size(), "jobs");
  std::size_t done = 0;
  progress.draw(0);
  {
    std::vector<std::jthread> pool;
    for (unsigned w = 0; w < workers; ++w)
      pool.emplace_back([&] {
        for (std::size_t i; (i = next++) < jobs.size();) {
          failures[i] = run_job(frozen.list, frozen_job(frozen.list, i, outdir), outdir);
          std::lock_guard lock(print);
          progress.clear();
          fmt::print(out, "  {} {}\n", jobs[i].dir(),
                     failures[i].empty() ? "done" : "failed: " + failures[i]);
          out.flush();
          progress.draw(++done);
        }
      });
  }
  progress.finish();
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

int run_collect_alone(const std::string& outdir, std::ostream& out) {
  if (!fs::is_regular_file(fs::path(outdir) / "jobs.json"))
    throw make_error("{}: no jobs.json (not a sweep folder)", outdir);
  const OutputLock lock(outdir, OutputLock::Mode::kShared);
  return run_collect(outdir, out);
}

int run_collect(const std::string& outdir_text, std::ostream& out) {
  try {
    return collect(outdir_text, out);
  } catch (const nlohmann::json::exception& error) {
    // A jobs.json or summary.json of another shape than a sweep writes.
    throw make_error(
        "{}: not a sweep folder ssdlab wrote: jobs.json or a job's summary.json "
        "lacks what a sweep writes ({})",
        outdir_text, error.what());
  }
}

namespace {

// The fairness columns of experiment `e` (a tenant) of a run with
// --fairness; empty fields for other runs.
std::string fairness_fields(const SummaryRecord& summary, std::size_t e) {
  if (!summary.fairness || !summary.tenants || e >= summary.tenants->size()) return ",,,,";
  const TenantRecord& tenant = (*summary.tenants)[e];
  return fmt::format(",{:.4f},{:.4f},{:.4f},{:.4f}", tenant.slowdown_mean.value_or(1.0),
                     tenant.slowdown_p99.value_or(1.0), summary.fairness->index_mean,
                     summary.fairness->index_p99);
}

// Job `job`'s summary if its folder holds this frozen job's result; else
// nullopt, after a line saying why (missing, unreadable, stale).
std::optional<SummaryRecord> checked_summary(const nlohmann::json& list, const nlohmann::json& job,
                                             const fs::path& dir, std::ostream& out) {
  const fs::path path = dir / "summary.json";
  const std::string name = job.at("dir").get<std::string>();
  if (!fs::is_regular_file(path)) {
    fmt::print(out, "  {:<9} missing: {}\n", name, path.string());
    return std::nullopt;
  }
  std::optional<SummaryRecord> summary;
  std::string why;
  try {
    summary = read_summary(path);
    why = stale_result(list, job, dir, *summary);
  } catch (const std::exception& error) {  // one unreadable summary costs its row only
    why = fmt::format("unreadable: {}", error.what());
  }
  if (why.empty()) return summary;
  fmt::print(out, "  {:<9} not taken: {}: {} (rerun it)\n", name, path.string(), why);
  return std::nullopt;
}

int collect(const std::string& outdir_text, std::ostream& out) {
  const fs::path outdir(outdir_text);
  const nlohmann::json manifest = read_frozen_list(outdir);

  // One typed column per swept key (sets and grid axes), in first-seen order.
  std::vector<std::string> keys;
  for (const auto& job : manifest.at("jobs"))
    for (const auto& [key, value] : swept(job))
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  // Every job's summary first: runs of tenants with --fairness add columns.
  std::vector<std::optional<SummaryRecord>> summaries;
  bool fairness = false;
  for (const auto& job : manifest.at("jobs")) {
    const fs::path dir = outdir / job.at("dir").get<std::string>();
    summaries.push_back(checked_summary(manifest, job, dir, out));
    fairness = fairness || (summaries.back() && summaries.back()->fairness);
  }
  std::ostringstream csv;
  csv << "job,config,sets,";
  for (const std::string& key : keys) csv << csv_field(key) << ',';
  csv << "workload,seed,experiment,runs,mean_us,p50_us,p99_us,iops,write_amplification"
      << (fairness ? ",slowdown_mean,slowdown_p99,fairness_index_mean,fairness_index_p99\n" : "\n");
  std::size_t missing = 0, rows = 0;
  fmt::print(out, "  {:<9} {:<28} {:<30} {:>5} {:<30} {:>10} {:>10} {:>6}\n", "job", "config",
             "sets", "seed", "experiment", "mean_us", "p99_us", "WA");
  std::size_t index = 0;
  for (const auto& job : manifest.at("jobs")) {
    const std::optional<SummaryRecord>& summary = summaries[index++];
    if (!summary) {  // (said why above)
      ++missing;
      continue;
    }
    const std::string sets =
        fmt::format("{}", fmt::join(job.at("sets").get<std::vector<std::string>>(), " "));
    const std::string config = fs::path(job.at("config").get<std::string>()).stem().string();
    std::string values;  // the swept columns; empty where a job does not set the key
    const auto settings = swept(job);
    for (const std::string& key : keys) {
      const auto it = std::find_if(settings.begin(), settings.end(),
                                   [&key](const auto& setting) { return setting.first == key; });
      values += (it == settings.end() ? "" : typed_field(it->second)) + ",";
    }
    for (std::size_t e = 0; e < summary->experiments.size(); ++e) {
      const ExperimentRecord& experiment = summary->experiments[e];
      const double mean = experiment.mean_over_runs(&RunRecord::mean_us);
      const double p50 = experiment.mean_over_runs(&RunRecord::p50_us);
      const double p99 = experiment.mean_over_runs(&RunRecord::p99_us);
      const double iops = experiment.mean_over_runs(&RunRecord::iops);
      double wa = 0;  // a probe's runs have no device counters
      for (const RunRecord& run : experiment.runs) wa += run.write_amplification().value_or(0.0);
      if (!experiment.runs.empty()) wa /= static_cast<double>(experiment.runs.size());
      csv << fmt::format("{},{},{},{}{},{},{},{},{:.3f},{:.3f},{:.3f},{:.1f},{:.4f}",
                         job.at("id").get<std::uint64_t>(), csv_field(job.at("config")),
                         csv_field(sets), values, csv_field(job.at("workload")),
                         job.at("seed").get<std::uint64_t>(), csv_field(experiment.name),
                         experiment.runs.size(), mean, p50, p99, iops, wa)
          << (fairness ? fairness_fields(*summary, e) : "") << "\n";
      fmt::print(out, "  {:<9} {:<28} {:<30} {:>5} {:<30} {:>10.3f} {:>10.3f} {:>6.3f}\n",
                 job.at("dir").get<std::string>(), config, sets,
                 job.at("seed").get<std::uint64_t>(), experiment.name, mean, p99, wa);
      ++rows;
    }
  }
  write_file_atomically(outdir / "sweep.csv", csv.str());
  fmt::print(out, "  {} rows from {} jobs{} -> {}\n", rows, manifest["jobs"].size() - missing,
             missing ? fmt::format(" ({} missing or not taken)", missing) : "", (outdir / "sweep.csv").string());
  return missing ? 1 : 0;
}

}  // namespace

}  // namespace ssdlab::sim
