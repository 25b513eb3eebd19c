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
#include "sim/calibrate_command.h"
#include "sim/log.h"
#include "sim/plot_command.h"
#include "sim/probe_command.h"
#include "sim/replay_cli.h"
#include "sim/sim_command.h"
#include "sim/teaching_cli.h"

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
  sim_command
      ->add_option("-w,--workload", sim.workload,
                   "Plan file, or one inline experiment such as 'RW:io_size=4096,count=100000'")
      ->required();
  sim_command->add_option("-o,--out", sim.outdir, "Output folder for io.csv and summary.json")
      ->required();
  sim_command->add_option("--set", sim.overrides,
                          "Override a config key: table.key=value (repeatable)");
  sim_command->add_option("--seed", sim.seed, "Seed of every random choice")->capture_default_str();
  sim_command->add_flag("--verify", sim.verify, "Check that every read returns the latest write");
  sim_command->add_flag("!--no-io-log", sim.io_log, "Do not write io.csv (summary.json only)");
  sim_command->add_option("--log-level", log_level, "trace, debug, info, warn, error or off");
  sim_command->add_option("--precondition", sim.precondition,
                          "Bring the device to a used state first, without simulated time: "
                          "seq, random[:N] or uflip[:N] (N capacities of random writes)");
  sim_command
      ->add_option("--check-every", sim.check_every,
                   "With --verify: check the FTL's invariants every N requests (0: only "
                   "after each run)")
      ->capture_default_str();
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

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // --help and --version exit 0; every usage error exits 2.
    return app.exit(error) == 0 ? 0 : 2;
  }
  if (!ssdlab::set_log_level(log_level)) {
    std::cerr << "ssdlab: --log-level: '" << log_level
              << "' is not one of trace, debug, info, warn, error, off\n";
    return 1;
  }
  try {
    if (*sim_command) ssdlab::sim::run_sim_or_replay(sim, trace, std::cout);
    if (*config_command) ssdlab::sim::run_config(config_path, config_overrides, std::cout);
    if (*plot_command) return ssdlab::sim::run_plot(plot_outdir, plot_format, plot_window);
    if (*calibrate_command) ssdlab::sim::run_calibrate(calibrate, std::cout);
    if (*probe_command) {
      if (!probe_size.empty()) {
        const auto bytes = ssdlab::parse_size(probe_size);
        if (!bytes || *bytes == 0)
          throw ssdlab::make_error("--size '{}': expected a size such as 1GiB", probe_size);
        probe.size = *bytes;
      }
      ssdlab::sim::run_probe(probe, std::cout);
    }
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
