// `ssdlab export-fio`: an output folder's io.csv as fio latency logs.
#include <memory>
#include <string>

#include "sim/results/fio_export.h"
#include "sim/cli/command.h"

namespace ssdlab::cli {

Command make_export_fio_command(CLI::App& app, GlobalOptions&) {
  struct Options {
    std::string outdir, prefix;
  };
  auto o = std::make_shared<Options>();
  CLI::App* command =
      app.add_subcommand("export-fio", "Write an output folder's io.csv as fio latency logs");
  command->footer(R"(Examples:
  ssdlab export-fio out/rw out/rw-fio)");
  command->add_option("OUTDIR", o->outdir, "Output folder with io.csv")->required();
  command->add_option("PREFIX", o->prefix, "Log files: PREFIX-EXPERIMENT-runR_lat.P.log")
      ->required();
  return {command, [o](std::ostream& out) {
            sim::run_export_fio(o->outdir, o->prefix, out);
            return 0;
          }};
}

}  // namespace ssdlab::cli
