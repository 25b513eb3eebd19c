// `ssdlab plot`: the figures of one or more output folders, a sweep, or a
// timeline.
#include <memory>
#include <string>
#include <vector>

#include "analysis/plot.h"
#include "sim/cli/command.h"

namespace ssdlab::cli {

Command make_plot_command(CLI::App& app, GlobalOptions&) {
  struct Options {
    std::vector<std::string> outdirs;
    std::string format = "png", window;
  };
  auto o = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand(
      "plot",
      "Draw the figures of output folders into OUTDIR/plots (several folders: one set of figures, "
      "a line per run), or of a timeline file beside it (needs python3-matplotlib)");
  command->footer(R"(Examples:
  ssdlab plot out/rw
  ssdlab plot out/page-mapped out/bast out/fast)");
  command
      ->add_option("OUTDIR", o->outdirs,
                   "Output or sweep folder(s) of ssdlab sim, or a --timeline FILE.json")
      ->required();
  command->add_option("--format", o->format, "png or svg")->capture_default_str();
  command->add_option("--window", o->window, "Timeline file only: draw START:END (simulated us)");
  return {command, [o](std::ostream&) {
            if (o->outdirs.size() > 1) {
              if (!o->window.empty()) throw UsageError("--window: for one timeline file only");
              return analysis::run_plot_runs(o->outdirs, o->format);
            }
            return analysis::run_plot(o->outdirs.front(), o->format, o->window);
          }};
}

}  // namespace ssdlab::cli
