// `ssdlab state-info`: check a checkpoint and print what it holds.
#include <memory>
#include <string>

#include "sim/cli/command.h"
#include "sim/run/state_info.h"

namespace ssdlab::cli {

Command make_state_info_command(CLI::App& app, GlobalOptions&) {
  auto path = std::make_shared<std::string>();
  CLI::App* command =
      app.add_subcommand("state-info", "Check a checkpoint (--save-state) and print what it holds");
  command->footer(R"(Examples:
  ssdlab state-info baseline-random.state)");
  command->add_option("FILE", *path, "Checkpoint file")->required();
  return {command, [path](std::ostream& out) {
            sim::run_state_info(*path, out);
            return 0;
          }};
}

}  // namespace ssdlab::cli
