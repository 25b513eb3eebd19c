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
#include "ftl/verifier.h"
#include "sim/compare_command.h"
#include "sim/fio_export.h"
#include "sim/log.h"
#include "sim/plot_command.h"
#include "sim/sim_command.h"

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
  CLI::Option* no_io_log =
      sim_command->add_flag("!--no-io-log", sim.io_log, "Do not write io.csv (summary.json only)");
  sim_command
      ->add_option("--fio-lat-log", sim.fio_lat_log,
                   "Also write io.csv as fio latency logs PREFIX-EXPERIMENT-runR_lat.P.log")
      ->excludes(no_io_log);
  sim_command->add_option("--log-level", log_level, "trace, debug, info, warn, error or off");
  sim_command->add_option("--precondition", sim.precondition,
                          "Bring the device to a used state first, without simulated time: "
                          "seq, random[:N] or uflip[:N] (N capacities of random writes)");
  sim_command
      ->add_option("--check-every", sim.check_every,
                   "With --verify: check the FTL's invariants every N requests (0: only "
                   "after each run)")
      ->capture_default_str();

  std::string config_path;
  std::vector<std::string> config_overrides;
  CLI::App* config_command =
      app.add_subcommand("config", "Validate a device config and print its derived geometry");
  config_command->add_option("CONFIG", config_path, "Device config (TOML)")->required();
  config_command->add_option("--set", config_overrides, "Override a config key: table.key=value");

  std::string plot_outdir, plot_format = "png";
  CLI::App* plot_command = app.add_subcommand(
      "plot", "Draw the figures of an output folder into OUTDIR/plots (needs python3-matplotlib)");
  plot_command->add_option("OUTDIR", plot_outdir, "Output folder of ssdlab sim")->required();
  plot_command->add_option("--format", plot_format, "png or svg")->capture_default_str();

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
  if (!ssdlab::set_log_level(log_level)) {
    std::cerr << "ssdlab: --log-level: '" << log_level
              << "' is not one of trace, debug, info, warn, error, off\n";
    return 1;
  }
  try {
    if (*sim_command) ssdlab::sim::run_sim(sim, std::cout);
    if (*config_command) ssdlab::sim::run_config(config_path, config_overrides, std::cout);
    if (*plot_command) return ssdlab::sim::run_plot(plot_outdir, plot_format);
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
