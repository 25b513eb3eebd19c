// The per-benchmark view of a uFLIP plan's results: for each micro-benchmark
// a table of mean response time by parameter value (rows) and pattern or mix
// (columns), as in the paper's figures, and for granularity the linear cost
// model (fixed + per-byte cost) fitted to it.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>

namespace ssdlab::sim {

// `experiments` is summary.json's experiments array; returns the
// "benchmarks" array (empty if no experiment belongs to a micro-benchmark).
// The mean of an experiment is the mean of its runs' means.
nlohmann::json benchmark_tables(const nlohmann::json& experiments, std::uint64_t logical_page_size);

void print_benchmark_tables(std::ostream& out, const nlohmann::json& tables);

}  // namespace ssdlab::sim
