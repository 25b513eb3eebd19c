// `ssdlab calibrate`: fit the model's timing to measured response times.
#include <memory>

#include "analysis/calibrate.h"
#include "sim/cli/command.h"
#include "sim/config/config.h"

namespace ssdlab::cli {
namespace {

// The device configs calibrate reads: the base, and the fitted file it wrote.
analysis::ConfigAccess device_configs() {
  analysis::ConfigAccess configs;
  configs.load_base = [](const std::string& path, const std::vector<std::string>& overrides) {
    const sim::DeviceConfig config = sim::load_config(path, overrides);
    analysis::CalibrationBase base;
    base.page_size = config.geometry.page_size;
    base.oob_size = config.geometry.oob_size;
    base.channels = config.geometry.channels;
    base.dies_per_channel =
        config.geometry.packages_per_channel * config.geometry.dies_per_package;
    base.command_ns = config.timing.command_ns;
    base.read_ns = config.timing.read_ns;
    base.program_ns = config.timing.program_ns;
    base.bus_ps_per_byte = config.timing.bus_ps_per_byte;
    return base;
  };
  configs.check_loads = [](const std::string& path) { (void)sim::load_config(path); };
  return configs;
}

}  // namespace

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
            analysis::run_calibrate(*o, device_configs(), out);
            return 0;
          }};
}

}  // namespace ssdlab::cli
