// `ssdlab reproduce`: runs the published experiments of the seed papers
// (experiment.h) through the run driver, in process, and writes OUTDIR/
// report.md, report.json and plots/ (one figure per trend, one of the value
// rows against their tolerance).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "repro/experiment.h"

namespace ssdlab::repro {

struct ReproduceOptions {
  std::string paper = "all";  // agrawal, uflip, desnoyers, ajwani or all
  std::string outdir;
  bool quick = false;             // the scaled-down runs (CI)
  std::string configs = "configs";  // where the presets are
  std::uint64_t seed = 1;
  bool plots = true;  // draw plots/ (needs /usr/bin/python3 with matplotlib)
};

// One row's outcome.
struct RowResult {
  const Row* row = nullptr;
  std::vector<double> values;  // one per measure
  bool pass = false;
  std::string verdict;  // "pass" or "miss"
  std::string detail;   // the comparison in words ("+0.5% (within 3%)")
  std::vector<std::string> commands;  // the ssdlab sim commands of its runs
};

// The rows of `paper` (or all); throws ssdlab::Error for an unknown name.
std::vector<const Row*> select_rows(const std::string& paper);

// Judges ssdlab's `values` for `row` (pure: tested without running anything).
RowResult judge(const Row& row, std::vector<double> values);

// The `ssdlab sim` command line equivalent to one run of a row.
std::string sim_command(const SimRun& run, const ReproduceOptions& options,
                        const std::string& run_outdir);

// Runs everything; prints progress to `out`; returns the exit status (0,
// also when rows miss: the report says which and why).
int run_reproduce(const ReproduceOptions& options, std::ostream& out);

// report.md and report.json of `results` (report.cpp).
void write_reports(const std::vector<RowResult>& results, const ReproduceOptions& options,
                   double wall_s, const std::string& command);
// The markdown table of the rows (shared by report.md and docs/fidelity.md).
std::string markdown_table(const std::vector<RowResult>& results);
// plots/*.png from report.json (plots.cpp); returns false if python3 or
// matplotlib is missing (the report says so; nothing else fails).
bool draw_plots(const std::string& outdir);

}  // namespace ssdlab::repro
