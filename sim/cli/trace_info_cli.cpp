// `ssdlab trace-info`: read a whole trace and report what it holds.
#include <memory>

#include "sim/cli/command.h"
#include "sim/cli/trace_read_cli.h"
#include "sim/run/trace_info.h"

namespace ssdlab::cli {

Command make_trace_info_command(CLI::App& app, GlobalOptions&) {
  struct Options {
    sim::TraceInfoOptions info;
    TraceReadFlags read;  // sets info.read
  };
  auto o = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand(
      "trace-info", "Read a whole trace and report what it holds, with warnings (a dry run)");
  command->footer(R"(Examples:
  ssdlab trace-info traces/examples/synthetic.csv
  ssdlab trace-info traces/examples/web-server.csv.gz)");
  command->add_option("FILE", o->info.path, "Trace file (may be compressed; - for standard input)")
      ->required();
  // Bad lines are always counted; the replay's selection does not apply.
  add_trace_read_options(*command, o->read, "", {"--skip-bad", "--start", "--limit", "--map"});
  command->add_option("-c,--config", o->info.config,
                      "Device config: warn about addresses beyond its logical space");
  command->add_option("--json", o->info.json, "Also write the report as JSON here");
  return {command, [o](std::ostream& out) {
            o->read.apply(o->info.read);
            sim::run_trace_info(o->info, out);
            return 0;
          }};
}

}  // namespace ssdlab::cli
