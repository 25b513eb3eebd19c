// `ssdlab cache`: list or clear the preconditioned-state cache
// (sim/state/state_cache.h).
#include <memory>
#include <string>

#include "sim/cli/command.h"
#include "sim/state/state_cache.h"

namespace ssdlab::cli {

Command make_cache_command(CLI::App& app, GlobalOptions&) {
  auto action = std::make_shared<std::string>();
  CLI::App* command = app.add_subcommand(
      "cache", "List or clear the preconditioned states saved by --precondition");
  command->footer(R"(The folder is $XDG_CACHE_HOME/ssdlab, else ~/.cache/ssdlab.
Examples:
  ssdlab cache list
  ssdlab cache clear)");
  command->add_option("ACTION", *action, "list or clear")
      ->required()
      ->check(CLI::IsMember({"list", "clear"}));
  return {command, [action](std::ostream& out) {
            if (*action == "list")
              sim::run_cache_list(sim::state_cache_dir(), out);
            else
              sim::run_cache_clear(sim::state_cache_dir(), out);
            return 0;
          }};
}

}  // namespace ssdlab::cli
