// One subcommand of the ssdlab command line (a contract, DESIGN.md): a file
// sim/cli/NAME_cli.cpp declares its options and calls the library, nothing
// more. Adding a subcommand: such a file with a make_NAME_command() and one
// line in main.cpp's table.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <iosfwd>
#include <stdexcept>
#include <string>

namespace ssdlab::cli {

// Options every subcommand shares.
struct GlobalOptions {
  std::string log_level = "warn";
};

struct Command {
  CLI::App* app = nullptr;
  // Runs the command once the command line is parsed; returns the exit
  // status. Throws ssdlab::Error on bad input (exit 1) and UsageError on a
  // command line that parses but does not make sense (exit 2).
  std::function<int(std::ostream& out)> run;
};

using MakeCommand = Command (*)(CLI::App& app, GlobalOptions& global);

// A usage error found after parsing: one line, then the --help hint.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

Command make_sim_command(CLI::App& app, GlobalOptions& global);
Command make_config_command(CLI::App& app, GlobalOptions& global);
Command make_probe_command(CLI::App& app, GlobalOptions& global);
Command make_calibrate_command(CLI::App& app, GlobalOptions& global);
Command make_sweep_command(CLI::App& app, GlobalOptions& global);
Command make_collect_command(CLI::App& app, GlobalOptions& global);
Command make_trace_info_command(CLI::App& app, GlobalOptions& global);
Command make_state_info_command(CLI::App& app, GlobalOptions& global);
Command make_cache_command(CLI::App& app, GlobalOptions& global);
Command make_plot_command(CLI::App& app, GlobalOptions& global);
Command make_compare_command(CLI::App& app, GlobalOptions& global);
Command make_export_fio_command(CLI::App& app, GlobalOptions& global);
Command make_help_command(CLI::App& app, GlobalOptions& global);
Command make_completion_command(CLI::App& app, GlobalOptions& global);
Command make_reproduce_command(CLI::App& app, GlobalOptions& global);

// The error line for a first word that names no subcommand, with the
// closest one ("unknown subcommand 'smi'; did you mean 'sim'?"); empty if
// the command line has a known subcommand or none (help_cli.cpp).
std::string unknown_subcommand(const CLI::App& app, int argc, char** argv);

}  // namespace ssdlab::cli
