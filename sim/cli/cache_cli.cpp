// `ssdlab cache`: list, trim or clear the preconditioned-state cache
// (sim/state/state_cache.h).
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "common/error.h"
#include "common/units.h"
#include "sim/cli/command.h"
#include "sim/state/state_cache.h"

namespace ssdlab::cli {

Command make_cache_command(CLI::App& app, GlobalOptions&) {
  struct Options {
    std::string action, max;
  };
  auto options = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand(
      "cache", "List, trim or clear the preconditioned states saved by --precondition");
  command->footer(R"(The folder is $XDG_CACHE_HOME/ssdlab, else ~/.cache/ssdlab. It keeps at most
$SSDLAB_STATE_CACHE_SIZE of states (a size, or "unlimited"; 10GiB if unset):
storing a state removes the least recently used others until the rest fits.
Examples:
  ssdlab cache list
  ssdlab cache trim --max 2GiB
  ssdlab cache clear)");
  command
      ->add_option("ACTION", options->action,
                   "list (most recently used first), trim (the least recently used states "
                   "until the rest fits the limit) or clear (everything)")
      ->required()
      ->check(CLI::IsMember({"list", "trim", "clear"}));
  command->add_option("--max", options->max,
                      "trim: the size to trim to (default: the limit, SSDLAB_STATE_CACHE_SIZE)");
  return {command, [options](std::ostream& out) {
            const std::filesystem::path dir = sim::state_cache_dir();
            if (!options->max.empty() && options->action != "trim")
              throw Error("cache: --max goes with trim only");
            if (options->action == "list") {
              sim::run_cache_list(dir, out);
            } else if (options->action == "clear") {
              sim::run_cache_clear(dir, out);
            } else {
              std::optional<std::uint64_t> max;
              if (!options->max.empty() && !(max = parse_size(options->max)))
                throw make_error("cache trim --max {}: not a size (such as 2GiB)", options->max);
              sim::run_cache_trim(dir, max, out);
            }
            return 0;
          }};
}

}  // namespace ssdlab::cli
