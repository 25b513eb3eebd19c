// `ssdlab reproduce`: the seed papers' published experiments, their report
// and plots (repro/reproduce.h).
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <memory>
#include <string>

#include "repro/reproduce.h"
#include "sim/cli/command.h"
#include "sim/cli/validators.h"

namespace ssdlab::cli {

Command make_reproduce_command(CLI::App& app, GlobalOptions&) {
  struct Options {
    repro::ReproduceOptions run;
    bool list = false, no_plots = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand(
      "reproduce",
      "Run the seed papers' published experiments and write OUTDIR/report.md, report.json "
      "and plots (run from the source tree: it reads configs/ and workloads/plans/)");
  command->footer(R"(Examples:
  ssdlab reproduce all -o out/repro
  ssdlab reproduce agrawal -o out/agrawal --quick
  ssdlab reproduce --list)");
  command->add_option("PAPER", o->run.paper, "agrawal, uflip, desnoyers, ajwani or all")
      ->capture_default_str();
  command->add_option("-o,--out", o->run.outdir, "Folder for the report, plots and runs");
  command->add_flag("--quick", o->run.quick, "Scaled-down runs (minutes, for CI)");
  command->add_option("--configs", o->run.configs, "Folder of the device presets")
      ->capture_default_str();
  command->add_option("--seed", o->run.seed, "Seed of every run")->check(any_unsigned());
  command->add_flag("--no-plots", o->no_plots, "Write no plots (no python3 needed)");
  command->add_flag("--list", o->list, "List the rows (id, figure, paper value) and exit");
  return {command, [o](std::ostream& out) {
            if (o->list) {
              for (const repro::Row* row : repro::select_rows(o->run.paper))
                fmt::print(out, "{}\t{}\t{}\n", row->id, row->figure, row->published);
              return 0;
            }
            if (o->run.outdir.empty()) throw UsageError("reproduce: -o OUTDIR is required");
            o->run.plots = !o->no_plots;
            return repro::run_reproduce(o->run, out);
          }};
}

}  // namespace ssdlab::cli
