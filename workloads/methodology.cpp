#include "workloads/methodology.h"

#include <algorithm>
#include <vector>

namespace ssdlab::workloads {

std::size_t detect_startup(std::span<const TimeNs> series) {
  constexpr std::size_t kBatch = 5;
  const std::size_t batches = series.size() / kBatch;
  if (batches < 4) return 0;
  std::vector<double> means(batches);
  for (std::size_t b = 0; b < batches; ++b) {
    double sum = 0;
    for (std::size_t i = 0; i < kBatch; ++i) sum += static_cast<double>(series[b * kBatch + i]);
    means[b] = sum / kBatch;
  }
  // Suffix sums give every candidate's variance in O(1).
  std::vector<double> sum(batches + 1, 0.0), squares(batches + 1, 0.0);
  for (std::size_t b = batches; b-- > 0;) {
    sum[b] = sum[b + 1] + means[b];
    squares[b] = squares[b + 1] + means[b] * means[b];
  }
  std::size_t best = 0;
  double best_error = 0;
  for (std::size_t d = 0; d <= batches / 2; ++d) {
    const double n = static_cast<double>(batches - d);
    const double deviation = std::max(0.0, squares[d] - sum[d] * sum[d] / n);
    const double error = deviation / (n * n);
    // Strictly smaller: ties keep the shorter cut.
    if (d == 0 || error < best_error * (1 - 1e-12)) best = d, best_error = error;
  }
  return best * kBatch;
}

LinearCost fit_linear_cost(std::span<const double> sizes, std::span<const double> costs_us) {
  LinearCost fit;
  fit.points = sizes.size();
  if (sizes.size() < 2 || sizes.size() != costs_us.size()) return fit;
  const double n = static_cast<double>(sizes.size());
  double sx = 0, sy = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) sx += sizes[i], sy += costs_us[i];
  const double mx = sx / n, my = sy / n;
  double sxx = 0, sxy = 0, syy = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const double dx = sizes[i] - mx, dy = costs_us[i] - my;
    sxx += dx * dx, sxy += dx * dy, syy += dy * dy;
  }
  if (sxx == 0) return fit;
  fit.per_byte_us = sxy / sxx;
  fit.fixed_us = my - fit.per_byte_us * mx;
  fit.r_squared = syy > 0 ? sxy * sxy / (sxx * syy) : 1.0;
  return fit;
}

}  // namespace ssdlab::workloads
