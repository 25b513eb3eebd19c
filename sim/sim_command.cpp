#include "sim/sim_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <memory>
#include <ostream>

#include "common/error.h"
#include "common/units.h"
#include "sim/checkpoint.h"
#include "sim/config.h"
#include "sim/fio_export.h"
#include "sim/log.h"
#include "sim/output.h"
#include "sim/power_cut_plan.h"
#include "sim/precondition.h"
#include "sim/report.h"
#include "sim/simulator.h"
#include "sim/ssd.h"
#include "sim/uflip_report.h"
#include "workloads/generator.h"
#include "workloads/plan.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

void run_sim(const SimOptions& options, std::ostream& out) {
  auto log = logger("sim");
  // First, so that outputs of an earlier run cannot pass for this one's even
  // if the input turns out to be bad.
  const fs::path outdir(options.outdir);
  prepare_outdir(outdir);
  const DeviceConfig config = load_config(options.config, options.overrides);
  Ssd ssd(config, options.verify, options.check_every);
  if (!options.power_cuts.empty()) ssd.enable_power_cuts();  // before the first write
  TeachingViews views(ssd, options.teaching);
  const workloads::DeviceInfo device{
      ssd.logical_bytes(), config.sector_size,
      std::uint64_t{config.geometry.pages_per_block} * config.geometry.page_size};
  // No workload: only the preconditioning, for --save-state.
  const workloads::Plan plan = options.workload.empty()
                                   ? workloads::Plan{"none", {}, ""}
                                   : workloads::load_plan(options.workload, device);
  for (const auto& spec : plan.experiments)
    workloads::validate_against_device(spec, ssd.logical_bytes(), config.sector_size);
  // A loaded state replaces the first preconditioning (later state resets of
  // a uFLIP plan still happen, seeded as they would have been).
  RunPosition position;
  nlohmann::json checkpoint = nlohmann::json::object();
  if (!options.load_state.empty()) {
    checkpoint["loaded"] = load_checkpoint(options.load_state, ssd, position);
    print_loaded(out, checkpoint["loaded"]);
  }
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
  std::uint32_t& resets = position.state_resets;
  const auto enforce_state = [&](const char* what) {
    const nlohmann::json done =
        precondition(ssd, preconditioning, options.seed + 0x9e37 * resets++);
    if (!done.is_null())
      fmt::print(out, "{} ({}): {} flash pages written in {:.2f} s, write amplification {:.3f}\n",
                 what, preconditioning.text, done["flash_pages_written"].get<std::uint64_t>(),
                 done["wall_seconds"].get<double>(), done["write_amplification"].get<double>());
    return done;
  };
  const nlohmann::json preconditioned =
      options.load_state.empty() ? enforce_state("preconditioned") : nlohmann::json();

  std::unique_ptr<IoLog> io_log;
  const bool experiments_given = !plan.experiments.empty();  // else: preconditioning only
  if (options.io_log && experiments_given) io_log = std::make_unique<IoLog>(outdir / "io.csv");
  Simulator simulator(ssd, io_log.get());
  simulator.resume_at(position.now);
  simulator.stop_when_expired(options.until_expired);
  if (!options.power_cuts.empty()) {
    std::uint64_t total_ios = 0;
    for (const auto& spec : plan.experiments) total_ios += spec.count * spec.processes * spec.runs;
    simulator.plan_power_cuts(parse_power_cuts(options.power_cuts, total_ios, options.seed));
  }
  nlohmann::json lifetime = {
      {"until_expired", options.until_expired}, {"stopped", false}, {"end_of_life", false}};

  // The speed printed at the end covers the simulation only (not loading or
  // preconditioning), up to io.csv being complete on disk. CPU time too: on a
  // shared machine it is the steadier figure.
  const auto wall_start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  nlohmann::json experiments = nlohmann::json::array();
  std::uint64_t prefilled = 0, total_ios = 0;
  if (experiments_given)
    fmt::print(out, "{} on {} ({} logical)\n", plan.source, config.source,
               format_size(ssd.logical_bytes()));
  const bool benchmarks = std::any_of(plan.experiments.begin(), plan.experiments.end(),
                                      [](const auto& spec) { return !spec.benchmark.empty(); });
  if (benchmarks)
    print_experiment_header(out);
  else if (experiments_given)
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
      const RunResult result = simulator.run(spec, run, seed_of(spec, options.seed));
      nlohmann::json entry = run_json(result);
      if (spec.io_ignore_auto) entry["startup_ios"] = result.startup;
      runs.push_back(std::move(entry));
      if (!benchmarks) print_run(out, spec.name, result);
      total_ios += result.stats.count;
      if (!result.stopped.empty()) {
        lifetime["stopped"] = true;
        lifetime["end_of_life"] = result.end_of_life;
        lifetime["reason"] = result.stopped;
        lifetime["experiment"] = spec.name;
        lifetime["run"] = run;
        lifetime["ios_completed"] = result.stats.count;
        break;
      }
      if (options.verify) ssd.ftl().check_invariants();
    }
    experiment["runs"] = std::move(runs);
    if (benchmarks) print_experiment(out, experiment);
    experiments.push_back(std::move(experiment));
    if (lifetime["stopped"].get<bool>()) break;  // later experiments would find it worn out
  }
  nlohmann::json tables = benchmark_tables(experiments, config.ftl.logical_page_size);

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
  };
  lifetime["host_pages_written"] = ssd.ftl().stats().host_pages_written;
  lifetime["simulated_us"] = simulator.now() / 1000.0;
  summary["lifetime"] = lifetime;
  add_device_summary(summary, ssd, options.verify);
  if (!options.power_cuts.empty()) summary["power_cuts"] = power_cuts_json(simulator);
  if (!options.save_state.empty()) {
    position.now = simulator.now();
    checkpoint["saved"] = save_run_state(options, ssd, position, plan.source, preconditioned,
                                         lifetime["end_of_life"].get<bool>());
  }
  if (!checkpoint.empty()) summary["checkpoint"] = checkpoint;
  if (io_log) io_log->commit();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  const double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  write_file_atomically(outdir / "summary.json", summary.dump(2) + "\n");
  views.commit(out);

  print_benchmark_tables(out, tables);
  print_wear(out, summary["wear"]);
  print_controller(out, sum_run_counters(summary["experiments"]));
  if (lifetime["stopped"].get<bool>())
    fmt::print(out, "  {}: {} after {} host pages written (experiment {}, run {})\n",
               lifetime["end_of_life"].get<bool>() ? "DEVICE END OF LIFE" : "lifetime run stopped",
               lifetime["reason"].get<std::string>(),
               lifetime["host_pages_written"].get<std::uint64_t>(),
               lifetime["experiment"].get<std::string>(), lifetime["run"].get<std::uint32_t>());
  fmt::print(out,
             "  device write amplification (all writes, preconditioning included) {:.3f}\n  {} "
             "I/Os simulated in {:.2f} s of wall time ({:.0f} I/Os per second), {:.2f} s of CPU "
             "time ({:.0f} per CPU second)\n",
             summary["device"]["write_amplification"].get<double>(), total_ios, wall,
             wall > 0 ? static_cast<double>(total_ios) / wall : 0.0, cpu,
             cpu > 0 ? static_cast<double>(total_ios) / cpu : 0.0);
  if (options.verify)
    fmt::print(out, "  verification: {} page reads checked against the latest write, all correct\n",
               ssd.verified_pages());
  if (!options.power_cuts.empty()) {
    const nlohmann::json& cuts = summary["power_cuts"];
    fmt::print(
        out,
        "  power cuts: {} ({} recovered, {} acknowledged writes lost, {} buffered writes "
        "lost, {} not reached); OOB scan {} pages, mount time mean {:.1f} us, max {:.1f} us\n",
        cuts["count"].get<std::uint64_t>(), cuts["recovered"].get<std::uint64_t>(),
        cuts["lost_writes"].get<std::uint64_t>(), cuts["buffered_writes_lost"].get<std::uint64_t>(),
        cuts["not_reached"].get<std::uint64_t>(), cuts["scan_pages"].get<std::uint64_t>(),
        cuts["mean_mount_time_us"].get<double>(), cuts["max_mount_time_us"].get<double>());
  }
  print_saved(out, checkpoint);
  if (io_log) fmt::print(out, "  io.csv:       {}\n", (outdir / "io.csv").string());
  if (!options.fio_lat_log.empty() && io_log) run_export_fio(outdir, options.fio_lat_log, out);
  fmt::print(out, "  summary.json: {}\n", (outdir / "summary.json").string());
}

void run_config(const std::string& path, const std::vector<std::string>& overrides,
                std::ostream& out) {
  const DeviceConfig config = load_config(path, overrides);
  const auto ftl = ftl::make_ftl({config.geometry, config.ftl, 0});
  out << describe(config, ftl->logical_pages());
}

}  // namespace ssdlab::sim
