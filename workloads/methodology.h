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
// uFLIP finds it by eye on a plot of the response times. We automate that
// with a mean-shift change point over batch means (batches of 5 I/Os, or
// 1/200 of the series if more, so that a batch spans several periods of the
// running phase's oscillation): the split in the first half of the run that
// explains the most variance, n1 n2 / n (mean1 - mean2)^2, kept only if the
// two means differ by more than 5 standard errors of the running phase's
// batch means. It finds a cheap start-up (buffering, lazy cleaning) as well
// as an expensive one, to within one batch, and cuts nothing from a
// stationary series. (MSER, the usual simulation warm-up rule, was tried
// first: it keeps long cheap start-ups whenever the running phase is noisy,
// because it optimises the precision of the mean rather than its bias.)
std::size_t detect_startup(std::span<const TimeNs> series);
// The batch length detect_startup() uses for a series of `length` I/Os: its
// result is always 0 or a multiple of it, at most half the series.
std::size_t startup_batch(std::size_t length);

// Least-squares fit of cost = fixed + per_byte * size.
struct LinearCost {
  double fixed_us = 0;
  double per_byte_us = 0;
  double r_squared = 0;
  std::size_t points = 0;
};
LinearCost fit_linear_cost(std::span<const double> sizes, std::span<const double> costs_us);

}  // namespace ssdlab::workloads
