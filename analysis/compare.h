// `ssdlab compare A B`: response-time figures of two result sets side by
// side, per experiment, with B/A ratios. Either side is an output folder
// (ssdlab sim or probe), a fio latency log or fio's JSON output.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "analysis/figures.h"

namespace ssdlab::analysis {

struct CompareOptions {
  std::string a, b;
  std::string csv;   // --csv FILE: the table as CSV
  std::string plot;  // --plot FILE.png|FILE.svg
  std::string name;  // --name: the experiment of a fio latency log side
  // Which experiments pair up (analysis/compare_match.h): --match name|order
  // and --map A-NAME=B-NAME (repeatable).
  std::string match = "name";
  std::vector<std::string> maps;
  // --pool-jobs: a pattern over the latency logs of several fio jobs pools
  // them into one experiment (refused without it: their workloads differ).
  bool pool_jobs = false;
};

// One side of a comparison, as read.
struct CompareSide {
  std::string path;
  std::string kind;  // what it was read from, for the header lines
  std::vector<ExperimentFigures> experiments;
};

// Reads `path`, told by its content, not its name: a folder (summary.json,
// or io.csv when there is none); a file: an io.csv (by its header), a fio
// latency log (its first line 'time, value, ddir, bs[, ...]'), else fio JSON
// (possibly after notes or normal-format text); a path that does not exist:
// the per-job fio logs it names (PATH_clat.N.log, or a '*' pattern), pooled.
// A log's experiment is `log_name`, or its job name when that is empty.
// Logs of different fio jobs are refused unless `pool_jobs`.
CompareSide load_side(const std::string& path, const std::string& log_name,
                      bool pool_jobs = false);

// The experiments of one io.csv: per (experiment, run) the figures of every
// row, with output.cpp's definitions. Experiments in order of first row.
std::vector<ExperimentFigures> figures_from_io_csv(const std::string& path);

// Prints the table to `out`, writes --csv and --plot. Throws ssdlab::Error
// on bad input or when the sides have no experiment in common. Returns the
// exit status (that of the plot script, where it fails).
int run_compare(const CompareOptions& options, std::ostream& out);

}  // namespace ssdlab::analysis
