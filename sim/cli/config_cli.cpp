// `ssdlab config`: validate a device config and print its derived geometry.
#include <memory>
#include <string>
#include <vector>

#include "sim/cli/command.h"
#include "sim/run/plan_run.h"

namespace ssdlab::cli {

Command make_config_command(CLI::App& app, GlobalOptions&) {
  struct Options {
    std::string path;
    std::vector<std::string> overrides;
  };
  auto o = std::make_shared<Options>();
  CLI::App* command =
      app.add_subcommand("config", "Validate a device config and print its derived geometry");
  command->footer(R"(Examples:
  ssdlab config configs/agrawal-baseline.toml
  ssdlab config configs/agrawal-baseline.toml --set ftl.overprovisioning=0.28)");
  command->add_option("CONFIG", o->path, "Device config (TOML)")->required();
  command->add_option("--set", o->overrides, "Override a config key: table.key=value");
  return {command, [o](std::ostream& out) {
            sim::run_config(o->path, o->overrides, out);
            return 0;
          }};
}

}  // namespace ssdlab::cli
