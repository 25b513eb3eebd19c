// Response-time figures of an experiment, whatever they were read from: an
// output folder's summary.json or io.csv, a fio latency log or fio's JSON.
// `ssdlab compare` puts two sets of them side by side.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/units.h"
#include "sim/results/output.h"
#include "sim/results/summary.h"

namespace ssdlab::analysis {

// One run's figures in microseconds, as summary.json holds them.
struct RunFigures {
  double mean_us = 0, p50_us = 0, p99_us = 0;
  std::uint64_t count = 0;  // I/Os measured
  // Further percentiles where the source has them (summary.json's
  // "percentiles", io.csv): (percent, us), e.g. (99.9, 812.5).
  std::vector<std::pair<double, double>> percentiles = {};
};

struct ExperimentFigures {
  std::string name;
  std::vector<RunFigures> runs;
};

// The figures of `responses` (reordered) with output.cpp's definitions
// (nearest-rank percentiles) and summary.json's rounding, so that a run read
// back from io.csv gives exactly the numbers the simulator wrote.
inline RunFigures run_figures(std::vector<TimeNs>& responses) {
  const auto count = responses.size();
  const sim::RunRecord run = sim::RunRecord::of(0, sim::compute_stats(responses, count, 0, 0));
  RunFigures figures{run.mean_us, run.p50_us, run.p99_us, count};
  figures.percentiles = run.percentiles;
  return figures;
}

}  // namespace ssdlab::analysis
