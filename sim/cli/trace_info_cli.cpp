// `ssdlab trace-info`: read a whole trace and report what it holds.
#include <memory>

#include "sim/cli/command.h"
#include "sim/run/trace_info.h"

namespace ssdlab::cli {

Command make_trace_info_command(CLI::App& app, GlobalOptions&) {
  auto o = std::make_shared<sim::TraceInfoOptions>();
  CLI::App* command = app.add_subcommand(
      "trace-info", "Read a whole trace and report what it holds, with warnings (a dry run)");
  command->footer(R"(Examples:
  ssdlab trace-info traces/examples/synthetic.csv
  ssdlab trace-info traces/examples/web-server.csv.gz)");
  command->add_option("FILE", o->path, "Trace file (may be compressed; - for standard input)")
      ->required();
  command->add_option("--format", o->format,
                      "auto (default), msr, disksim, mqsim, spc, blkparse, fio");
  command->add_option("--trace-device", o->device,
                      "Only this disk number, ASU, fio file index or blkparse MAJ,MIN");
  command->add_option("--time-unit", o->time_unit, "MQSim: time unit, ns (default), us, ms or s");
  command->add_option("--blk-event", o->blk_event, "blkparse: D (issue, default) or Q events");
  command->add_option("-c,--config", o->config,
                      "Device config: warn about addresses beyond its logical space");
  command->add_option("--json", o->json, "Also write the report as JSON here");
  return {command, [o](std::ostream& out) {
            sim::run_trace_info(*o, out);
            return 0;
          }};
}

}  // namespace ssdlab::cli
