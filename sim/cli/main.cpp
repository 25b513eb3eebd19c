// The ssdlab command line (a contract, DESIGN.md).
//
// Exit status: 0 success; 1 bad input (config, plan, command line values),
// with one error line naming file, line and what is wrong; 2 command-line
// usage error; 3 an internal error (a bug: please report it).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <stdexcept>

#include "common/error.h"
#include "common/units.h"
#include "ftl/verifier.h"
#include "analysis/calibrate.h"
#include "sim/state/checkpoint.h"
#include "analysis/compare.h"
#include "analysis/fio_export.h"
#include "common/log.h"
#include "analysis/plot.h"
#include "sim/cli/probe_command.h"
#include "sim/cli/replay_cli.h"
#include "sim/cli/sim_command.h"
#include "sim/cli/sweep_command.h"
#include "sim/cli/teaching_cli.h"
#include "sim/cli/trace_info_command.h"

int main(int argc, char** argv) {
  CLI::App app{"ssdlab: a trace-driven SSD simulator"};
  app.set_version_flag("--version", SSDLAB_VERSION);
  app.require_subcommand(1);
  std::string log_level = "warn";
  app.add_option("--log-level", log_level, "trace, debug, info, warn, error or off")
      ->capture_default_str();

  ssdlab::sim::SimOptions sim;
  CLI::App* sim_command = app.add_subcommand("sim", "Run a workload against a device model");
  sim_command
      ->add_option("-c,--config", sim.config,
                   "Device config (TOML), e.g. configs/agrawal-baseline.toml")
      ->required();
  std::vector<std::string> sim_workloads;  // -w: one plan, or one or more traces
  // Required unless --save-state is given (checked after parsing).
  CLI::Option* workload_option = sim_command->add_option(
      "-w,--workload", sim_workloads,
      "Plan file, or one inline experiment such as 'RW:io_size=4096,count=100000', "
      "or trace:FILE (repeatable for traces: replayed together)");
  sim_command->add_option("-o,--out", sim.outdir, "Output folder for io.csv and summary.json")
      ->required();
  sim_command->add_option("--set", sim.overrides,
                          "Override a config key: table.key=value (repeatable)");
  sim_command->add_option("--seed", sim.seed, "Seed of every random choice")->capture_default_str();
  sim_command->add_flag("--verify", sim.verify, "Check that every read returns the latest write");
  CLI::Option* no_io_log =
      sim_command->add_flag("!--no-io-log", sim.io_log, "Do not write io.csv (summary.json only)");
  sim_command
      ->add_option("--fio-lat-log", sim.fio_lat_log,
                   "Also write io.csv as fio latency logs PREFIX-EXPERIMENT-runR_lat.P.log")
      ->excludes(no_io_log);
  sim_command->add_option("--log-level", log_level, "trace, debug, info, warn, error or off");
  CLI::Option* precondition_option =
      sim_command->add_option("--precondition", sim.precondition,
                              "Bring the device to a used state first, without simulated time: "
                              "seq, random[:N] or uflip[:N] (N capacities of random writes)");
  CLI::Option* save_state_option = sim_command->add_option(
      "--save-state", sim.save_state,
      "Save the device's complete state to FILE at the end of the run; without -w, right "
      "after --precondition (README: Checkpoints)");
  CLI::Option* load_state_option =
      sim_command
          ->add_option("--load-state", sim.load_state,
                       "Start from a state saved with --save-state instead of preconditioning")
          ->excludes(precondition_option);
  sim_command
      ->add_option("--check-every", sim.check_every,
                   "With --verify: check the FTL's invariants every N requests (0: only "
                   "after each run)")
      ->capture_default_str();
  sim_command
      ->add_option("--until-expired", sim.until_expired,
                   "Lifetime run: stop once N flash blocks have worn out (reached "
                   "geometry.pe_cycles); the experiment's count is the write budget")
      ->check(CLI::NonNegativeNumber);
  CLI::Option* power_cut_option = sim_command->add_option(
      "--power-cut-at", sim.power_cuts,
      "Cut the power and recover (repeatable): during I/O N (0-based), at a simulated time "
      "(1.5s, 250ms, 300us, 1000ns), or random:K (K random I/Os, seeded)");
  ssdlab::sim::TraceOptions trace;
  ssdlab::sim::add_trace_options(*sim_command, trace);
  ssdlab::sim::add_teaching_options(*sim_command, sim.teaching);

  std::string config_path;
  std::vector<std::string> config_overrides;
  CLI::App* config_command =
      app.add_subcommand("config", "Validate a device config and print its derived geometry");
  config_command->add_option("CONFIG", config_path, "Device config (TOML)")->required();
  config_command->add_option("--set", config_overrides, "Override a config key: table.key=value");

  ssdlab::sim::ProbeOptions probe;
  CLI::App* probe_command = app.add_subcommand(
      "probe", "Run a workload against a real file or block device (same outputs as sim)");
  probe_command->add_option("--target", probe.target, "File or block device")->required();
  probe_command->add_option("-w,--workload", probe.workload, "Plan file, uflip:NAME or inline")
      ->required();
  probe_command->add_option("-o,--out", probe.outdir, "Output folder for io.csv and summary.json")
      ->required();
  std::string probe_size;
  probe_command->add_option("--size", probe_size,
                            "Create a missing FILE target of this size (e.g. 1GiB), filled");
  probe_command->add_flag("--allow-destroy", probe.allow_destroy,
                          "Allow writing to a block device (its data is lost)");
  probe_command->add_flag("--buffered", probe.buffered,
                          "Without O_DIRECT, for filesystems that lack it (measures the cache)");
  probe_command->add_option("--precondition", probe.precondition,
                            "State enforcement before measuring: seq, random[:N], uflip[:N], none "
                            "(default: the plan's state)");
  probe_command->add_option("--seed", probe.seed, "Seed of every random choice")
      ->capture_default_str();
  probe_command->add_flag("!--no-io-log", probe.io_log, "Do not write io.csv (summary.json only)");

  ssdlab::sim::CalibrateOptions calibrate;
  CLI::App* calibrate_command = app.add_subcommand(
      "calibrate", "Fit the model's timing to measured response times (e.g. from probe)");
  calibrate_command->add_option("OUTDIR", calibrate.measured, "Output folder of the measurement")
      ->required();
  calibrate_command->add_option("-c,--config", calibrate.config, "Base device config")->required();
  calibrate_command->add_option("-o,--out", calibrate.output, "Fitted config to write")->required();
  calibrate_command->add_option("--set", calibrate.overrides, "Override a base config key");

  ssdlab::sim::SweepOptions sweep;
  std::uint64_t sweep_job = 0;
  CLI::App* sweep_command = app.add_subcommand(
      "sweep", "Run a grid of configs x overrides x workloads x seeds in parallel");
  sweep_command->add_option("SWEEP", sweep.plan, "Sweep file (TOML)")->required();
  sweep_command->add_option("-o,--out", sweep.outdir, "Folder for the job folders and sweep.csv")
      ->required();
  sweep_command->add_option("-j,--jobs", sweep.jobs, "Parallel jobs (default: one per core)");
  CLI::Option* job_option =
      sweep_command->add_option("--job", sweep_job, "Run only job N (a Slurm array task)");
  sweep_command->add_option("--slurm", sweep.slurm,
                            "Write a Slurm job-array script here instead of running");
  std::string collect_outdir;
  CLI::App* collect_command =
      app.add_subcommand("collect", "Build OUTDIR/sweep.csv from a sweep's job folders");
  collect_command->add_option("OUTDIR", collect_outdir, "Folder of a sweep")->required();
  ssdlab::sim::TraceInfoOptions trace_info;
  CLI::App* trace_info_command = app.add_subcommand(
      "trace-info", "Read a whole trace and report what it holds, with warnings (a dry run)");
  trace_info_command->add_option("FILE", trace_info.path, "Trace file (may be compressed)")
      ->required();
  trace_info_command->add_option("--format", trace_info.format,
                                 "auto (default), msr, disksim, mqsim, spc, blkparse, fio");
  trace_info_command->add_option("--trace-device", trace_info.device,
                                 "Only this disk number, ASU, fio file index or blkparse MAJ,MIN");
  trace_info_command->add_option("--time-unit", trace_info.time_unit,
                                 "MQSim: time unit, ns (default), us, ms or s");
  trace_info_command->add_option("--blk-event", trace_info.blk_event,
                                 "blkparse: D (issue, default) or Q events");
  trace_info_command->add_option("-c,--config", trace_info.config,
                                 "Device config: warn about addresses beyond its logical space");
  trace_info_command->add_option("--json", trace_info.json, "Also write the report as JSON here");

  std::string state_info_path;
  CLI::App* state_info_command =
      app.add_subcommand("state-info", "Check a checkpoint (--save-state) and print what it holds");
  state_info_command->add_option("FILE", state_info_path, "Checkpoint file")->required();

  std::string plot_outdir, plot_format = "png", plot_window;
  CLI::App* plot_command =
      app.add_subcommand("plot",
                         "Draw the figures of an output folder into OUTDIR/plots, or of a timeline "
                         "file beside it (needs python3-matplotlib)");
  plot_command
      ->add_option("OUTDIR", plot_outdir, "Output folder of ssdlab sim, or a --timeline FILE.json")
      ->required();
  plot_command->add_option("--format", plot_format, "png or svg")->capture_default_str();
  plot_command->add_option("--window", plot_window,
                           "Timeline file only: draw START:END (simulated us)");

  ssdlab::sim::CompareOptions compare;
  CLI::App* compare_command = app.add_subcommand(
      "compare",
      "Response times of two result sets side by side: output folders, fio logs or JSON");
  compare_command->add_option("A", compare.a, "Output folder, fio latency log or fio JSON")
      ->required();
  compare_command->add_option("B", compare.b, "The same, compared against A (ratios B/A)")
      ->required();
  compare_command->add_option("--csv", compare.csv, "Also write the table as CSV");
  compare_command->add_option("--plot", compare.plot,
                              "Draw the comparison into FILE.png or FILE.svg (needs matplotlib)");
  compare_command->add_option("--name", compare.name,
                              "Experiment name of a fio latency log (default: its job name)");

  std::string export_outdir, export_prefix;
  CLI::App* export_command =
      app.add_subcommand("export-fio", "Write an output folder's io.csv as fio latency logs");
  export_command->add_option("OUTDIR", export_outdir, "Output folder with io.csv")->required();
  export_command->add_option("PREFIX", export_prefix, "Log files: PREFIX-EXPERIMENT-runR_lat.P.log")
      ->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // --help and --version exit 0; every usage error exits 2.
    return app.exit(error) == 0 ? 0 : 2;
  }
  if (*sim_command && workload_option->count() == 0 && save_state_option->count() == 0) {
    std::cerr << "--workload is required (or --save-state FILE alone: precondition and save)\n"
              << "Run with --help for more information.\n";
    return 2;
  }
  if (*sim_command && power_cut_option->count() > 0 &&
      (save_state_option->count() > 0 || load_state_option->count() > 0)) {
    // A checkpoint holds no power-cut state (OOB sequence numbers, the
    // recorder's data versions), so a split run could not check its cuts.
    std::cerr << "--power-cut-at cannot be combined with --save-state or --load-state: a "
                 "checkpoint does not hold the power-cut state (OOB sequence numbers, data "
                 "versions)\n"
              << "Run with --help for more information.\n";
    return 2;
  }
  if (!ssdlab::set_log_level(log_level)) {
    std::cerr << "ssdlab: --log-level: '" << log_level
              << "' is not one of trace, debug, info, warn, error, off\n";
    return 1;
  }
  try {
    if (*sim_command) ssdlab::sim::run_sim_or_replay(sim, sim_workloads, trace, std::cout);
    if (*trace_info_command) ssdlab::sim::run_trace_info(trace_info, std::cout);
    if (*state_info_command) ssdlab::sim::run_state_info(state_info_path, std::cout);
    if (*config_command) ssdlab::sim::run_config(config_path, config_overrides, std::cout);
    if (*plot_command) return ssdlab::sim::run_plot(plot_outdir, plot_format, plot_window);
    if (*calibrate_command) ssdlab::sim::run_calibrate(calibrate, std::cout);
    if (*sweep_command) {
      if (*job_option) sweep.job = sweep_job;
      return ssdlab::sim::run_sweep(sweep, std::cout);
    }
    if (*collect_command) return ssdlab::sim::run_collect(collect_outdir, std::cout);
    if (*probe_command) {
      if (!probe_size.empty()) {
        const auto bytes = ssdlab::parse_size(probe_size);
        if (!bytes || *bytes == 0)
          throw ssdlab::make_error("--size '{}': expected a size such as 1GiB", probe_size);
        probe.size = *bytes;
      }
      ssdlab::sim::run_probe(probe, std::cout);
    }
    if (*compare_command) return ssdlab::sim::run_compare(compare, std::cout);
    if (*export_command) ssdlab::sim::run_export_fio(export_outdir, export_prefix, std::cout);
  } catch (const ssdlab::Error& error) {
    std::cerr << "ssdlab: " << error.what() << "\n";
    return 1;
  } catch (const ssdlab::ftl::VerificationError& error) {
    std::cerr << "ssdlab: verification failed: " << error.what() << "\n";
    return 3;
  } catch (const std::exception& error) {
    std::cerr << "ssdlab: internal error: " << error.what() << "\n";
    return 3;
  }
  return 0;
}
