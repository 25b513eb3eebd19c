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
    std::string format = "png", window, out;
  };
  auto o = std::make_shared<Options>();
  CLI::App* command = app.add_subcommand(
      "plot",
      "Draw the figures of output folders into OUTDIR/plots (several folders: one set of figures, "
      "a line per run), or of a timeline file beside it (needs python3-matplotlib)");
  command->footer(R"(Examples:
  ssdlab plot out/rw
  ssdlab plot out/page-mapped out/bast out/fast -o figures
  ssdlab plot out/tiny-clean.json --window 20000:30000   # into out/tiny-clean-20000-30000us.png)");
  command
      ->add_option("OUTDIR", o->outdirs,
                   "Output or sweep folder(s) of ssdlab sim, or a --timeline FILE.json")
      ->required();
  command->add_option("--format", o->format, "png or svg")->capture_default_str();
  command->add_option("--window", o->window,
                      "Timeline file only: draw START:END (simulated us) into a file of its own, "
                      "TIMELINE-START-ENDus.png, beside the full view");
  command->add_option("-o,--out", o->out,
                      "Where the figures go: a folder (default: OUTDIR/plots, or beside the "
                      "timeline), or for a timeline a FILE.png or FILE.svg");
  return {command, [o](std::ostream&) {
            if (o->outdirs.size() > 1) {
              if (!o->window.empty()) throw UsageError("--window: for one timeline file only");
              return analysis::run_plot_runs(o->outdirs, o->format, o->out);
            }
            return analysis::run_plot(o->outdirs.front(), o->format, o->window, o->out);
          }};
}

}  // namespace ssdlab::cli
