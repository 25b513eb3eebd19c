// The uFLIP benchmarking methodology (§4) beyond the patterns themselves:
// finding the start-up phase in a response-time series, and the linear cost
// model fitted to the granularity benchmark.
#pragma once

#include <cstddef>
#include <span>

#include "common/units.h"

namespace ssdlab::workloads {

// Length of the start-up phase of `series` (response times in submission
// order), the I/Os to ignore before the running phase (uFLIP §4.2).
//
// uFLIP finds it by eye on a plot of the response times; we automate that
// with MSER-5 (White, 1997), the standard truncation rule for the initial
// transient of a simulation output: batch means of 5 I/Os, and the cut d
// that minimises the squared standard error of the mean of what remains,
// sum((y - mean)^2) / (batches - d)^2, for d up to half the batches. It finds
// a cheap start-up (buffered writes) as well as an expensive one, and cuts
// nothing from a series without a transient, as long as the series holds at
// least a few periods of its oscillation.
std::size_t detect_startup(std::span<const TimeNs> series);

// Least-squares fit of cost = fixed + per_byte * size.
struct LinearCost {
  double fixed_us = 0;
  double per_byte_us = 0;
  double r_squared = 0;
  std::size_t points = 0;
};
LinearCost fit_linear_cost(std::span<const double> sizes, std::span<const double> costs_us);

}  // namespace ssdlab::workloads
