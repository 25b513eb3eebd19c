// `ssdlab config`: validate a device config and print its derived geometry;
// with --keys, every table and key a config may hold (the reference's
// tables, docs/reference/config.md).
#include <memory>
#include <string>
#include <vector>

#include "sim/cli/command.h"
#include "sim/config/config_part.h"
#include "sim/run/plan_run.h"

namespace ssdlab::cli {

Command make_config_command(CLI::App& app, GlobalOptions&) {
  struct Options {
    std::string path;
    std::vector<std::string> overrides;
    bool keys = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* command =
      app.add_subcommand("config", "Validate a device config and print its derived geometry");
  command->footer(R"(Examples:
  ssdlab config configs/agrawal-baseline.toml
  ssdlab config configs/agrawal-baseline.toml --set ftl.overprovisioning=0.28
  ssdlab config --keys)");
  CLI::Option* keys = command->add_flag(
      "--keys", o->keys, "Print every table and key of a device config, in Markdown, and exit");
  command->add_option("CONFIG", o->path, "Device config (TOML)")->excludes(keys);
  command->add_option("--set", o->overrides, "Override a config key: table.key=value")
      ->excludes(keys);
  return {command, [o](std::ostream& out) {
            if (o->keys) {
              out << sim::config_reference();
              return 0;
            }
            if (o->path.empty()) throw UsageError("config: CONFIG is required (or --keys)");
            sim::run_config(o->path, o->overrides, out);
            return 0;
          }};
}

}  // namespace ssdlab::cli
