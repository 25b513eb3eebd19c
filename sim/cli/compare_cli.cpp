// `ssdlab compare`: two result sets side by side.
#include <memory>

#include "analysis/compare.h"
#include "sim/cli/command.h"

namespace ssdlab::cli {

Command make_compare_command(CLI::App& app, GlobalOptions&) {
  auto o = std::make_shared<analysis::CompareOptions>();
  CLI::App* command = app.add_subcommand(
      "compare",
      "Response times of two result sets side by side: output folders, fio logs or JSON");
  command->footer(R"(Examples:
  ssdlab compare out/real out/model
  ssdlab compare fio-job.json out/model --map rr4k=RR/io_size=4096
  ssdlab compare out/page-mapped out/bast --match order --csv diff.csv)");
  command->add_option("A", o->a, "Output folder, fio latency log or fio JSON")->required();
  command->add_option("B", o->b, "The same, compared against A (ratios B/A)")->required();
  command->add_option("--csv", o->csv, "Also write the table as CSV");
  command->add_option("--plot", o->plot,
                      "Draw the comparison into FILE.png or FILE.svg (needs matplotlib)");
  command->add_option("--name", o->name,
                      "Experiment name of a fio latency log (default: its job name)");
  command
      ->add_option("--match", o->match,
                   "Pair experiments by name, or by order (the i-th of A with the i-th of B)")
      ->capture_default_str();
  command->add_option("--map", o->maps,
                      "Pair experiment A-NAME of A with B-NAME of B, e.g. rr4k=RR/io_size=4096 "
                      "(repeatable; the others pair by --match)");
  command->add_flag("--pool-jobs", o->pool_jobs,
                    "Pool the latency logs of several fio jobs that a pattern matches into one "
                    "experiment (refused without it: their workloads differ)");
  return {command, [o](std::ostream& out) { return analysis::run_compare(*o, out); }};
}

}  // namespace ssdlab::cli
