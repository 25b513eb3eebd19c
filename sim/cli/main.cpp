// The ssdlab command line (a contract, DESIGN.md): a table of subcommands,
// each a thin file over the library (sim/cli/command.h).
//
// Exit status: 0 success; 1 bad input (config, plan, command line values),
// with one error line naming file, line and what is wrong, or a file the OS
// refuses (a full disk: the file and the OS error); 2 command-line usage
// error; 3 an internal error (a bug: please report it), or a failed
// verification, or a failure inside the FTL during a run (naming the FTL,
// the phase and the I/O).
#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <new>
#include <stdexcept>
#include <vector>

#include "common/error.h"
#include "common/log.h"
#include "common/printable.h"
#include "ftl/verifier.h"
#include "sim/cli/command.h"
#include "sim/engine/ftl_failure.h"
#include "sim/results/output.h"

namespace {

constexpr ssdlab::cli::MakeCommand kCommands[] = {
    ssdlab::cli::make_sim_command,        ssdlab::cli::make_config_command,
    ssdlab::cli::make_probe_command,      ssdlab::cli::make_calibrate_command,
    ssdlab::cli::make_sweep_command,      ssdlab::cli::make_collect_command,
    ssdlab::cli::make_trace_info_command, ssdlab::cli::make_state_info_command,
    ssdlab::cli::make_plot_command,       ssdlab::cli::make_compare_command,
    ssdlab::cli::make_export_fio_command, ssdlab::cli::make_reproduce_command,
    ssdlab::cli::make_help_command,       ssdlab::cli::make_completion_command,
    ssdlab::cli::make_cache_command,
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ssdlab: a trace-driven SSD simulator"};
  app.set_version_flag("--version", SSDLAB_VERSION);
  app.require_subcommand(1);
  ssdlab::cli::GlobalOptions global;
  app.add_option("--log-level", global.log_level, "trace, debug, info, warn, error or off")
      ->capture_default_str();
  std::vector<ssdlab::cli::Command> commands;
  for (const auto make : kCommands) commands.push_back(make(app, global));

  app.footer(R"(Run `ssdlab help COMMAND` or `ssdlab COMMAND --help` for a subcommand's options
and examples. Start with:
  ssdlab sim -c configs/agrawal-baseline.toml -w 'RW:io_size=4096,count=100000' -o out/rw)");
  if (const std::string unknown = ssdlab::cli::unknown_subcommand(app, argc, argv);
      !unknown.empty()) {
    std::cerr << unknown << "\nRun `ssdlab help` for the list of subcommands.\n";
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // --help and --version exit 0; every usage error exits 2.
    return app.exit(error) == 0 ? 0 : 2;
  }
  if (!ssdlab::set_log_level(global.log_level)) {
    std::cerr << "ssdlab: --log-level: '" << global.log_level
              << "' is not one of trace, debug, info, warn, error, off\n";
    return 1;
  }
  // A signal mid-run leaves no temporary output behind.
  ssdlab::sim::install_signal_cleanup();
  try {
    for (const auto& command : commands)
      if (command.app->parsed()) return command.run(std::cout);
  } catch (const ssdlab::cli::UsageError& error) {
    std::cerr << error.what() << "\nRun with --help for more information.\n";
    return 2;
  } catch (const ssdlab::Error& error) {
    // Messages quote their input (a plan key, a file name): no escape
    // sequence of it reaches the terminal.
    std::cerr << "ssdlab: " << ssdlab::printable(error.what()) << "\n";
    return 1;
  } catch (const std::bad_alloc&) {
    std::cerr << "ssdlab: out of memory: the device model (or the input) needs more memory "
                 "than this machine has; try a smaller device or fewer requests\n";
    return 1;
  } catch (const ssdlab::ftl::VerificationError& error) {
    std::cerr << "ssdlab: verification failed: " << error.what() << "\n";
    return 3;
  } catch (const ssdlab::sim::FtlFailure& error) {
    // Not bad input: the FTL broke during a run (the message names the FTL,
    // the phase and the request).
    std::cerr << "ssdlab: " << error.what()
              << "\n(an FTL bug, or the simulator's: please report it with the command line)\n";
    return 3;
  } catch (const std::filesystem::filesystem_error& error) {
    // A path the OS refused (missing, read-only, full) that no check caught
    // before: the user's environment, not a bug.
    if (error.path1().empty())
      std::cerr << "ssdlab: " << error.what() << "\n";
    else
      std::cerr << "ssdlab: " << error.path1().string() << ": " << error.code().message() << "\n";
    return 1;
  } catch (const std::exception& error) {
    std::cerr << "ssdlab: internal error: " << error.what() << "\n";
    return 3;
  }
  return 0;
}
