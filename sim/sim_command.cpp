#include "sim/sim_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <ostream>

#include "common/error.h"
#include "common/units.h"
#include "sim/config.h"
#include "sim/fio_export.h"
#include "sim/log.h"
#include "sim/output.h"
#include "sim/precondition.h"
#include "sim/simulator.h"
#include "sim/ssd.h"
#include "sim/uflip_report.h"
#include "workloads/generator.h"
#include "workloads/plan.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

namespace {

void prepare_outdir(const fs::path& dir) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error || !fs::is_directory(dir))
    throw make_error("{}: cannot create the output folder: {}", dir.string(),
                     error ? error.message() : "not a directory");
  // Outputs of an earlier run must not pass for this run's.
  for (const char* name : {"io.csv", "summary.json"}) fs::remove(dir / name, error);
}

void print_run(std::ostream& out, const std::string& name, const RunResult& r) {
  const RunStats& s = r.stats;
  fmt::print(out, "  {:<28} {:>3} {:>9} {:>10} {:>10} {:>10} {:>10} {:>9} {:>6.2f}\n", name, r.run,
             s.count, format_us(std::llround(s.mean_ns)), format_us(s.p50_ns), format_us(s.p99_ns),
             fmt::format("{:.0f}", s.iops), fmt::format("{:.2f}", s.mb_per_s),
             r.device["write_amplification"].get<double>());
}

// Runs of a micro-benchmark experiment, summarised on one line.
void print_experiment(std::ostream& out, const nlohmann::json& experiment) {
  double mean = 0, p99 = 0;
  std::uint64_t count = 0;
  for (const auto& run : experiment["runs"]) {
    mean += run["mean_us"].get<double>();
    p99 = std::max(p99, run["p99_us"].get<double>());
    count += run["count"].get<std::uint64_t>();
  }
  const auto runs = experiment["runs"].size();
  fmt::print(out, "  {:<40} {:>3} {:>9} {:>10.3f} {:>10} {:>10.3f}\n",
             experiment["name"].get<std::string>(), runs, count, runs ? mean / runs : 0.0, "", p99);
}

nlohmann::json experiment_json(const workloads::ExperimentSpec& spec, std::uint64_t logical_bytes,
                               std::uint64_t seed) {
  nlohmann::json experiment = {
      {"name", spec.name},
      {"pattern", workloads::pattern_name(spec.pattern)},
      {"io_size", spec.io_size},
      {"count", spec.count},
      {"target_offset", spec.target_offset},
      {"target_size", spec.target_size ? spec.target_size : logical_bytes - spec.target_offset},
      {"queue_depth", spec.queue_depth},
      {"processes", spec.processes},
      {"io_ignore", spec.io_ignore_auto ? nlohmann::json("auto") : nlohmann::json(spec.io_ignore)},
      {"seed", spec.seed.value_or(workloads::experiment_seed(seed, spec.name))},
      {"io_shift", spec.io_shift},
      {"increment", spec.increment},
      {"partitions", spec.partitions},
      {"pause_us", spec.pause_ns / 1000.0},
      {"burst", spec.burst},
      {"run_pause_us", spec.run_pause_ns / 1000.0}};
  if (spec.mix_pattern)
    experiment["mix"] = {{"pattern", workloads::pattern_name(*spec.mix_pattern)},
                         {"ratio", spec.mix_ratio}};
  if (!spec.benchmark.empty()) {
    experiment["benchmark"] = spec.benchmark;
    experiment["column"] = spec.column;
    experiment["parameter"] = spec.parameter;
    experiment["value"] = spec.value;
  }
  return experiment;
}

}  // namespace

void run_sim(const SimOptions& options, std::ostream& out) {
  auto log = logger("sim");
  // First, so that outputs of an earlier run cannot pass for this one's even
  // if the input turns out to be bad.
  const fs::path outdir(options.outdir);
  prepare_outdir(outdir);
  const DeviceConfig config = load_config(options.config, options.overrides);
  Ssd ssd(config, options.verify, options.check_every);
  const workloads::DeviceInfo device{
      ssd.logical_bytes(), config.sector_size,
      std::uint64_t{config.geometry.pages_per_block} * config.geometry.page_size};
  const workloads::Plan plan = workloads::load_plan(options.workload, device);
  for (const auto& spec : plan.experiments)
    workloads::validate_against_device(spec, ssd.logical_bytes(), config.sector_size);
  // --precondition wins over the state a plan asks for (uFLIP plans: "uflip").
  PreconditionSpec preconditioning;
  if (!options.precondition.empty()) {
    preconditioning = parse_precondition(options.precondition);
  } else if (!plan.state.empty()) {
    try {
      preconditioning = parse_precondition(plan.state);
    } catch (const Error& error) {
      throw make_error("{}: state '{}': expected seq[:N], random[:N], uflip[:N] or none",
                       plan.source, plan.state);
    }
  }
  std::uint32_t resets = 0;
  const auto enforce_state = [&](const char* what) {
    const nlohmann::json done =
        precondition(ssd, preconditioning, options.seed + 0x9e37 * resets++);
    if (!done.is_null())
      fmt::print(out, "{} ({}): {} flash pages written in {:.2f} s, write amplification {:.3f}\n",
                 what, preconditioning.text, done["flash_pages_written"].get<std::uint64_t>(),
                 done["wall_seconds"].get<double>(), done["write_amplification"].get<double>());
    return done;
  };
  const nlohmann::json preconditioned = enforce_state("preconditioned");

  std::unique_ptr<IoLog> io_log;
  if (options.io_log) io_log = std::make_unique<IoLog>(outdir / "io.csv");
  Simulator simulator(ssd, io_log.get());

  const auto wall_start = std::chrono::steady_clock::now();
  nlohmann::json experiments = nlohmann::json::array();
  std::uint64_t prefilled = 0, total_ios = 0;
  fmt::print(out, "{} on {} ({} logical)\n", plan.source, config.source,
             format_size(ssd.logical_bytes()));
  const bool benchmarks = std::any_of(plan.experiments.begin(), plan.experiments.end(),
                                      [](const auto& spec) { return !spec.benchmark.empty(); });
  if (benchmarks)
    fmt::print(out, "  {:<40} {:>3} {:>9} {:>10} {:>10} {:>10}\n", "experiment", "runs", "I/Os",
               "mean_us", "", "max p99_us");
  else
    fmt::print(out, "  {:<28} {:>3} {:>9} {:>10} {:>10} {:>10} {:>10} {:>9} {:>6}\n", "experiment",
               "run", "count", "mean_us", "p50_us", "p99_us", "IOPS", "MB/s", "WA");
  for (const auto& spec : plan.experiments) {
    nlohmann::json experiment = experiment_json(spec, ssd.logical_bytes(), options.seed);
    if (spec.reset_state_before) {
      // uFLIP §4.2: the sequential-write target spaces are used up.
      experiment["state_reset"] = enforce_state("state enforced again");
    }
    // Reading never-written data would measure nothing: fill the read target
    // first, functionally (no simulated time passes), and say so.
    if (workloads::reads(spec)) {
      const std::uint64_t size = experiment["target_size"].get<std::uint64_t>();
      const std::uint64_t pages = ssd.prefill(spec.target_offset, size);
      if (pages)
        log->info("{}: prefilled {} never-written logical pages of the read target", spec.name,
                  pages);
      experiment["prefilled_pages"] = pages;
      prefilled += pages;
    }
    nlohmann::json runs = nlohmann::json::array();
    for (std::uint32_t run = 0; run < spec.runs; ++run) {
      const RunResult result = simulator.run(
          spec, run, spec.seed.value_or(workloads::experiment_seed(options.seed, spec.name)));
      nlohmann::json entry = to_json(result.stats);
      entry["run"] = run;
      entry["start_us"] = result.start_ns / 1000.0;
      entry["end_us"] = result.end_ns / 1000.0;
      if (spec.io_ignore_auto) entry["startup_ios"] = result.startup;
      entry["device"] = result.device;
      runs.push_back(std::move(entry));
      if (!benchmarks) print_run(out, spec.name, result);
      total_ios += result.stats.count;
      if (options.verify) ssd.ftl().check_invariants();
    }
    experiment["runs"] = std::move(runs);
    if (benchmarks) print_experiment(out, experiment);
    experiments.push_back(std::move(experiment));
  }
  nlohmann::json tables = benchmark_tables(experiments, config.ftl.logical_page_size);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();

  nlohmann::json totals = device_counters(ssd);
  add_ratios(totals, config.geometry.pages_per_block);
  nlohmann::json summary = {
      {"ssdlab", {{"version", SSDLAB_VERSION}}},
      {"workload", plan.source},
      {"seed", options.seed},
      {"logical_bytes", ssd.logical_bytes()},
      {"prefilled_pages", prefilled},
      {"precondition", preconditioned},
      {"simulated_us", simulator.now() / 1000.0},
      {"experiments", std::move(experiments)},
      {"benchmarks", tables},
      {"device", std::move(totals)},
      {"wear", wear_report(ssd)},
      {"verification", {{"enabled", options.verify}, {"pages_checked", ssd.verified_pages()}}},
      {"config", to_json(config)},
  };
  if (io_log) io_log->commit();
  write_file_atomically(outdir / "summary.json", summary.dump(2) + "\n");

  print_benchmark_tables(out, tables);
  fmt::print(out,
             "  device write amplification (all writes, preconditioning included) {:.3f}\n  {} "
             "I/Os simulated in {:.2f} s of wall time ({:.0f} I/Os per second)\n",
             summary["device"]["write_amplification"].get<double>(), total_ios, wall,
             wall > 0 ? static_cast<double>(total_ios) / wall : 0.0);
  if (options.verify)
    fmt::print(out, "  verification: {} page reads checked against the latest write, all correct\n",
               ssd.verified_pages());
  if (io_log) fmt::print(out, "  io.csv:       {}\n", (outdir / "io.csv").string());
  if (!options.fio_lat_log.empty()) run_export_fio(outdir, options.fio_lat_log, out);
  fmt::print(out, "  summary.json: {}\n", (outdir / "summary.json").string());
}

void run_config(const std::string& path, const std::vector<std::string>& overrides,
                std::ostream& out) {
  const DeviceConfig config = load_config(path, overrides);
  const auto ftl = ftl::make_ftl({config.geometry, config.ftl, 0});
  out << describe(config, ftl->logical_pages());
}

}  // namespace ssdlab::sim
