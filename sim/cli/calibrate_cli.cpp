// `ssdlab calibrate`: fit the model's timing to measured response times.
#include <memory>

#include "analysis/calibrate.h"
#include "sim/cli/command.h"

namespace ssdlab::cli {

Command make_calibrate_command(CLI::App& app, GlobalOptions&) {
  auto o = std::make_shared<analysis::CalibrateOptions>();
  CLI::App* command = app.add_subcommand(
      "calibrate", "Fit the model's timing to measured response times (e.g. from probe)");
  command->footer(R"(Examples:
  ssdlab calibrate out/real -c configs/agrawal-baseline.toml -o fitted.toml)");
  command->add_option("OUTDIR", o->measured, "Output folder of the measurement")->required();
  command->add_option("-c,--config", o->config, "Base device config")->required();
  command->add_option("-o,--out", o->output, "Fitted config to write")->required();
  command->add_option("--set", o->overrides, "Override a base config key");
  return {command, [o](std::ostream& out) {
            analysis::run_calibrate(*o, out);
            return 0;
          }};
}

}  // namespace ssdlab::cli
