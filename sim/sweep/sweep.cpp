#include "sim/sweep/sweep.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include <atomic>
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
#include "sim/sweep/sweep_columns.h"
#include "sim/sweep/sweep_file.h"
#include "sim/sweep/sweep_frozen.h"
#include "sim/sweep/sweep_progress.h"
#include "sim/sweep/sweep_slurm.h"
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
// results, so that collect never takes an older run's for this one's. Its
// progress goes to `observer` (if any).
std::string run_job(const nlohmann::json& list, const FrozenJob& frozen, const fs::path& outdir,
                    const Progress::Observer& observer = {}) {
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
  options.precondition_threads = job.precondition_threads;
  options.quiet = true;  // each job's stages show on the sweep's line, not their own
  options.progress_observer = observer;
  clear_job_record(options.outdir);
  // The sweep's trace keys apply to the jobs that replay a trace (a plan
  // refuses them, as sim does).
  TraceOptions trace;
  if (std::any_of(job.workloads.begin(), job.workloads.end(), is_trace_workload)) {
    trace.mode = job.mode;
    trace.queue_depth = job.queue_depth;
    trace.speed = job.speed;
    trace.layout = job.layout;
  }
  std::ostringstream log;
  std::string error;
  try {
    run_sim_or_replay(options, job.workloads, trace, log);
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
  options.precondition_threads = first.job.precondition_threads;
  options.outdir = (outdir / fmt::format("states/state-{:05}", state)).string();
  options.io_log = false;
  options.quiet = true;
  fs::create_directories(options.outdir);
  run_sim(options, out);
  return 0;
}

// A job in a line: config, overrides, workload, seed.
std::string describe(const Job& job) {
  return fmt::format("{}{}{}, {}, seed {}", fs::path(job.config).stem().string(),
                     job.sets.empty() ? "" : ", ", fmt::join(job.sets, ", "), job.workload,
                     job.seed);
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
  const Sweep sweep = expand(options.plan);
  const std::vector<Job>& jobs = sweep.jobs;
  if (!options.slurm.empty()) {
    const NamedPath inputs[] = {command_input("the sweep file", options.plan),
                                {"the sweep's own jobs.json", outdir / "jobs.json"}};
    check_output_path(options.slurm, "Slurm script", inputs);
    check_slurm_submission(options.plan, options.slurm, options.outdir, options.cluster);
  }
  const FrozenList frozen = freeze_jobs(sweep, options.plan, outdir);
  std::error_code error;
  fs::create_directories(outdir, error);
  if (error)
    throw make_error("{}: cannot create the output folder: {}", outdir.string(), error.message());
  // The folder is this sweep's, as a run's is (sim/results/output.h).
  const OutputLock lock(outdir, OutputLock::Mode::kExclusive);
  publish_frozen_list(frozen, outdir, options.replace, options.slurm.empty());
  for (const std::string& skipped : sweep.skipped)
    fmt::print(out, "skipped (skip_refused): {}\n", skipped);
  if (!options.slurm.empty())
    return write_slurm_scripts(options.slurm, options.cluster, jobs, frozen.list, options.outdir,
                               out);

  const unsigned workers = std::max(
      1u, std::min<unsigned>(options.jobs ? options.jobs : usable_cpus(),
                             static_cast<unsigned>(jobs.size())));
  fmt::print(out, "{}: {} jobs on {} threads\n", options.plan, jobs.size(), workers);
  std::atomic<std::size_t> next{0};
  std::vector<std::string> failures(jobs.size());
  const auto started = std::chrono::steady_clock::now();
  SweepProgress progress(options.quiet, jobs.size());
  {
    std::vector<std::jthread> pool;
    for (unsigned w = 0; w < workers; ++w)
      pool.emplace_back([&] {
        for (std::size_t i; (i = next++) < jobs.size();) {
          const auto job_start = std::chrono::steady_clock::now();
          failures[i] = run_job(frozen.list, frozen_job(frozen.list, i, outdir), outdir,
                                progress.observer(i));
          const double seconds = std::chrono::duration<double>(
                                     std::chrono::steady_clock::now() - job_start)
                                     .count();
          progress.finished(i, [&] {
            fmt::print(out, "  {} {} in {:.1f} s: {}\n", jobs[i].dir(),
                       failures[i].empty() ? "done" : "failed", seconds, describe(jobs[i]));
            if (!failures[i].empty()) fmt::print(out, "    {}\n", failures[i]);
            out.flush();
          });
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
// --fairness, empty fields for other runs: its slowdowns and the indices
// over each tenant's whole run, then over the window in which every tenant
// ran (FLIN's; empty if they never all ran at once).
std::string fairness_fields(const SummaryRecord& summary, std::size_t e) {
  if (!summary.fairness || !summary.tenants || e >= summary.tenants->size()) return ",,,,,,,,";
  const TenantRecord& tenant = (*summary.tenants)[e];
  const FairnessRecord& fairness = *summary.fairness;
  std::string fields = fmt::format(",{:.4f},{:.4f},{:.4f},{:.4f}", tenant.slowdown_mean.value_or(1.0),
                                   tenant.slowdown_p99.value_or(1.0), fairness.index_mean,
                                   fairness.index_p99);
  if (!tenant.contended || !fairness.contended_index_mean) return fields + ",,,,";
  return fields + fmt::format(",{:.4f},{:.4f},{:.4f},{:.4f}",
                              tenant.contended->slowdown_mean.value_or(1.0),
                              tenant.contended->slowdown_p99.value_or(1.0),
                              *fairness.contended_index_mean, *fairness.contended_index_p99);
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

// The columns beyond the run statistics that some jobs' runs need.
struct ExtraColumns {
  bool host_log = false, apart = false, fairness = false, energy = false;
};

// sweep.csv's first line: the job, one column per swept key and workload
// parameter, the experiment and its statistics, then the extra columns.
std::string csv_header(const std::vector<std::string>& keys,
                       const std::vector<std::string>& parameters, ExtraColumns extra) {
  std::string header = "job,config,sets";
  for (const std::string& key : keys) header += ',' + csv_field(key);
  header += ",workload";
  for (const std::string& key : parameters) header += ',' + csv_field(key);
  header += fmt::format(",seed,experiment,{},runs,mean_us,p50_us,p99_us,iops,write_amplification",
                        kExperimentColumns);
  if (extra.host_log) header += fmt::format(",{}", kHostLogColumns);
  if (extra.apart) header += fmt::format(",{}", kApartColumns);
  if (extra.fairness)
    header +=
        ",slowdown_mean,slowdown_p99,fairness_index_mean,fairness_index_p99,"
        "contended_slowdown_mean,contended_slowdown_p99,"
        "contended_fairness_index_mean,contended_fairness_index_p99";
  if (extra.energy) header += ",energy_flash_uj";
  return header + "\n";
}

int collect(const std::string& outdir_text, std::ostream& out) {
  const fs::path outdir(outdir_text);
  const nlohmann::json manifest = read_frozen_list(outdir);

  // One typed column per swept key (sets and grid axes), and one per workload
  // parameter ("workload.speed"), each in first-seen order.
  std::vector<std::string> keys, parameters;
  for (const auto& job : manifest.at("jobs")) {
    add_columns(keys, swept(job));
    add_columns(parameters, workload_parameters(job));
  }
  // Every job's summary first: runs of tenants with --fairness add columns.
  std::vector<std::optional<SummaryRecord>> summaries;
  bool fairness = false, apart = false, host_log = false, energy = false;
  for (const auto& job : manifest.at("jobs")) {
    const fs::path dir = outdir / job.at("dir").get<std::string>();
    summaries.push_back(checked_summary(manifest, job, dir, out));
    fairness = fairness || (summaries.back() && summaries.back()->fairness);
    apart = apart || (summaries.back() && has_counts_apart(*summaries.back()));
    host_log = host_log || (summaries.back() && has_host_log(*summaries.back()));
    energy = energy || (summaries.back() && has_energy(*summaries.back()));
  }
  std::ostringstream csv;
  csv << csv_header(keys, parameters,
                    {.host_log = host_log, .apart = apart, .fairness = fairness, .energy = energy});
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
    // The swept and workload columns; empty where a job does not give the key.
    const std::string values = typed_fields(keys, swept(job));
    const std::string workload_values = typed_fields(parameters, workload_parameters(job));
    for (std::size_t e = 0; e < summary->experiments.size(); ++e) {
      const ExperimentRecord& experiment = summary->experiments[e];
      const double mean = experiment.mean_over_runs(&RunRecord::mean_us);
      const double p50 = experiment.mean_over_runs(&RunRecord::p50_us);
      const double p99 = experiment.mean_over_runs(&RunRecord::p99_us);
      const double iops = experiment.mean_over_runs(&RunRecord::iops);
      // Empty (`-` on the terminal) where no run wrote.
      const std::optional<double> wa = mean_write_amplification(experiment);
      csv << fmt::format("{},{},{}{},{}{},{},{}{},{},{:.3f},{:.3f},{:.3f},{:.1f},{}",
                         job.at("id").get<std::uint64_t>(), csv_field(job.at("config")),
                         csv_field(sets), values, csv_field(job.at("workload")), workload_values,
                         job.at("seed").get<std::uint64_t>(), csv_field(experiment.name),
                         experiment_fields(experiment), experiment.runs.size(), mean, p50, p99,
                         iops, wa ? fmt::format("{:.4f}", *wa) : "")
          << (host_log ? host_log_fields(experiment) : "")
          << (apart ? apart_fields(experiment) : "")
          << (fairness ? fairness_fields(*summary, e) : "")
          << (energy ? energy_fields(experiment) : "") << "\n";
      fmt::print(out, "  {:<9} {:<28} {:<30} {:>5} {:<30} {:>10.3f} {:>10.3f} {:>6}\n",
                 job.at("dir").get<std::string>(), config, sets,
                 job.at("seed").get<std::uint64_t>(), experiment.name, mean, p99,
                 wa ? fmt::format("{:.3f}", *wa) : "-");
      ++rows;
    }
  }
  write_file_atomically(outdir / "sweep.csv", csv.str());
  if (manifest.contains("skipped"))
    fmt::print(out, "  {} combinations skipped (skip_refused; listed in jobs.json)\n",
               manifest["skipped"].size());
  fmt::print(out, "  {} rows from {} jobs{} -> {}\n", rows, manifest["jobs"].size() - missing,
             missing ? fmt::format(" ({} missing or not taken)", missing) : "", (outdir / "sweep.csv").string());
  return missing ? 1 : 0;
}

}  // namespace

}  // namespace ssdlab::sim
