#include "workloads/methodology.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace ssdlab::workloads {

std::size_t startup_batch(std::size_t length) {
  // Batches of 5 I/Os, or 1/200 of the series if more: a batch that spans a
  // few periods of the oscillation has a steady mean.
  return std::max<std::size_t>(5, length / 200);
}

std::size_t detect_startup(std::span<const TimeNs> series) {
  const std::size_t batch = startup_batch(series.size());
  const std::size_t batches = series.size() / batch;
  if (batches < 8) return 0;
  std::vector<double> means(batches);
  for (std::size_t b = 0; b < batches; ++b) {
    double sum = 0;
    for (std::size_t i = 0; i < batch; ++i) sum += static_cast<double>(series[b * batch + i]);
    means[b] = sum / static_cast<double>(batch);
  }
  std::vector<double> prefix(batches + 1, 0.0);
  for (std::size_t b = 0; b < batches; ++b) prefix[b + 1] = prefix[b] + means[b];
  const double total = prefix[batches];
  const double n = static_cast<double>(batches);
  // The split that explains the most variance: n1 n2 / n (mean1 - mean2)^2.
  std::size_t best = 0;
  double best_gain = 0;
  for (std::size_t d = 1; d <= batches / 2; ++d) {
    const double n1 = static_cast<double>(d), n2 = n - n1;
    const double difference = prefix[d] / n1 - (total - prefix[d]) / n2;
    const double gain = n1 * n2 / n * difference * difference;
    if (gain > best_gain) best = d, best_gain = gain;
  }
  if (best == 0) return 0;
  // Significant only if the shift stands out from the running phase's own
  // variation: a t statistic over batch means.
  const double n1 = static_cast<double>(best), n2 = n - n1;
  const double running_mean = (total - prefix[best]) / n2;
  double squares = 0;
  for (std::size_t b = best; b < batches; ++b)
    squares += (means[b] - running_mean) * (means[b] - running_mean);
  const double deviation = std::sqrt(squares / std::max(1.0, n2 - 1));
  const double difference = std::abs(prefix[best] / n1 - running_mean);
  constexpr double kSignificance = 5.0;
  if (difference <= kSignificance * deviation * std::sqrt(1 / n1 + 1 / n2)) return 0;
  return best * batch;
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
