#include "workloads/skew.h"

#include <algorithm>
#include <cmath>

namespace ssdlab::workloads {
namespace {

// log1p(x)/x and expm1(x)/x, accurate near 0 (Hörmann & Derflinger's helpers).
double log1p_over_x(double x) {
  return std::abs(x) > 1e-8 ? std::log1p(x) / x : 1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x));
}
double expm1_over_x(double x) {
  return std::abs(x) > 1e-8 ? std::expm1(x) / x
                            : 1.0 + x * 0.5 * (1.0 + x / 3.0 * (1.0 + 0.25 * x));
}

}  // namespace

ZipfSampler::ZipfSampler(std::uint64_t n, double theta)
    : n_(std::max<std::uint64_t>(n, 1)), theta_(theta) {
  h_integral_x1_ = h_integral(1.5) - 1.0;
  h_integral_n_ = h_integral(static_cast<double>(n_) + 0.5);
  s_ = 2.0 - h_integral_inverse(h_integral(2.5) - h(2.0));
}

double ZipfSampler::h(double x) const {
  return std::exp(-theta_ * std::log(x));
}

// The integral of h from 1 to x, up to a constant: (x^(1-theta) - 1)/(1-theta),
// or log(x) for theta = 1.
double ZipfSampler::h_integral(double x) const {
  const double log_x = std::log(x);
  return expm1_over_x((1.0 - theta_) * log_x) * log_x;
}

double ZipfSampler::h_integral_inverse(double x) const {
  double t = x * (1.0 - theta_);
  if (t < -1.0) t = -1.0;  // rounding; the true value is above -1
  return std::exp(log1p_over_x(t) * x);
}

std::uint64_t ZipfSampler::rank(Rng& rng) const {
  for (;;) {
    const double u = h_integral_n_ + rng.unit() * (h_integral_x1_ - h_integral_n_);
    const double x = h_integral_inverse(u);
    double k = std::floor(x + 0.5);
    k = std::clamp(k, 1.0, static_cast<double>(n_));
    if (k - x <= s_ || u >= h_integral(k + 0.5) - h(k)) return static_cast<std::uint64_t>(k);
  }
}

SkewedSlots::SkewedSlots(const Skew& skew, std::uint64_t slots)
    : skew_(skew),
      slots_(slots),
      hot_slots_(std::clamp<std::uint64_t>(
          static_cast<std::uint64_t>(std::llround(skew.hot_fraction * static_cast<double>(slots))),
          1, slots > 1 ? slots - 1 : 1)),
      zipf_(slots, skew.zipf > 0.0 ? skew.zipf : 1.0) {}

std::uint64_t SkewedSlots::slot(Rng& rng) const {
  if (skew_.zipf > 0.0) return zipf_.rank(rng) - 1;
  if (slots_ <= 1) return 0;
  if (rng.unit() < skew_.hot_access) return rng.uniform(hot_slots_);
  return hot_slots_ + rng.uniform(slots_ - hot_slots_);
}

}  // namespace ssdlab::workloads
