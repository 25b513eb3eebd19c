// The per-benchmark view of a uFLIP plan's results: for each micro-benchmark
// a table of mean response time by parameter value (rows) and pattern or mix
// (columns), as in the paper's figures, and for granularity the linear cost
// model (fixed + per-byte cost) fitted to it.
#pragma once

#include <iosfwd>
#include <vector>

#include "sim/results/summary.h"

namespace ssdlab::sim {

// The tables of the experiments that belong to a micro-benchmark (summary.json's
// "benchmarks"; none if none does). The mean of an experiment is the mean of
// its runs' means.
std::vector<BenchmarkTable> benchmark_tables(const std::vector<ExperimentRecord>& experiments,
                                             std::uint64_t logical_page_size);

void print_benchmark_tables(std::ostream& out, const std::vector<BenchmarkTable>& tables);

}  // namespace ssdlab::sim
