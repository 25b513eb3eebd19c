// `ssdlab plot OUTDIR`: figures of an output folder, drawn by Debian's
// python3 with matplotlib (python/ssdlab/plot.py, built into the binary).
#pragma once

#include <string>
#include <vector>

namespace ssdlab::analysis {

// Writes OUTDIR/plots/*.FORMAT (png or svg), or into the folder `out` if
// given, and lists them on stdout. Returns the exit status: 0, or 1 with one
// error line on stderr.
// Given a timeline JSON file (ssdlab sim --timeline) instead of a folder, draws
// its flash operations into TIMELINE.FORMAT beside it; within `window`
// (START:END simulated µs, either side may be empty) into
// TIMELINE-START-ENDus.FORMAT instead, so that a zoom never replaces the full
// view (timeline_figure()).
// OUTDIR may also be a sweep folder: its jobs are drawn together, a bar or
// line per job.
int run_plot(const std::string& outdir, const std::string& format, const std::string& window = "",
             const std::string& out = "");

// Where `ssdlab plot TIMELINE.json` draws: `out` a file (ending in .png or
// .svg), a folder (the default name in it), or empty (beside the timeline).
// The default name is TIMELINE.FORMAT, or TIMELINE-START-ENDus.FORMAT for a
// window (START "start", END "end" where empty). Throws ssdlab::Error for a
// zoom into the full view's file.
std::string timeline_figure(const std::string& timeline, const std::string& format,
                            const std::string& from, const std::string& to, const std::string& out);

// Several output (or sweep) folders in one set of figures, a line per run
// labelled with its FTL and config, into the first folder's plots/ (or the
// folder `out`). For the command line's `ssdlab plot OUTDIR...`; one folder
// is run_plot().
int run_plot_runs(const std::vector<std::string>& outdirs, const std::string& format,
                  const std::string& out = "");

// Runs the embedded script (python/ssdlab/plot.py) with Debian's python3 and
// `arguments`; returns its exit status. Throws if python3 is missing.
int run_plot_script(const std::vector<std::string>& arguments);

}  // namespace ssdlab::analysis
