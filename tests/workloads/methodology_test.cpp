// The uFLIP methodology helpers: start-up detection and the linear cost fit.
#include "workloads/methodology.h"

#include <gtest/gtest.h>

#include <vector>

#include "common/rng.h"

namespace ssdlab::workloads {
namespace {

// A running phase oscillating between cheap and expensive I/Os with `period`,
// after `startup` cheap ones (uFLIP §4.2, Figure 3).
std::vector<TimeNs> two_phase(std::size_t startup, std::size_t running, std::size_t period) {
  std::vector<TimeNs> series(startup, 400'000);
  for (std::size_t i = 0; i < running; ++i)
    series.push_back(i % period == period - 1 ? 27'000'000 : 400'000);
  return series;
}

TEST(StartupDetection, FindsACheapStartUpPhase) {
  // 4125 I/Os: batches of 20; the cut is within one batch of the truth.
  const std::size_t cut = detect_startup(two_phase(125, 4000, 8));
  EXPECT_GE(cut, 105u);
  EXPECT_LE(cut, 145u);
}

TEST(StartupDetection, FindsAnExpensiveStartUpPhase) {
  std::vector<TimeNs> series(300, 5'000'000);
  Rng rng(3);
  for (int i = 0; i < 3000; ++i)
    series.push_back(300'000 + static_cast<TimeNs>(rng.uniform(20'000)));
  const std::size_t cut = detect_startup(series);  // batches of 16
  EXPECT_GE(cut, 288u);
  EXPECT_LE(cut, 316u);
}

TEST(StartupDetection, CutsLittleFromAStationarySeries) {
  Rng rng(11);
  std::vector<TimeNs> series;
  for (int i = 0; i < 5000; ++i)
    series.push_back(100'000 + static_cast<TimeNs>(rng.uniform(50'000)));
  EXPECT_LT(detect_startup(series), 250u);  // under 5 % of the run
  EXPECT_EQ(detect_startup(std::vector<TimeNs>(1000, 130'600)), 0u);
}

TEST(StartupDetection, ShortSeriesHaveNoStartUp) {
  EXPECT_EQ(detect_startup({}), 0u);
  EXPECT_EQ(detect_startup(std::vector<TimeNs>{1, 1000, 1000}), 0u);
}

TEST(LinearCost, RecoversFixedAndPerByteCost) {
  const std::vector<double> sizes{4096, 8192, 16384, 32768};
  std::vector<double> costs;
  for (double s : sizes) costs.push_back(25.0 + 0.025 * s);
  const LinearCost fit = fit_linear_cost(sizes, costs);
  EXPECT_NEAR(fit.fixed_us, 25.0, 1e-9);
  EXPECT_NEAR(fit.per_byte_us, 0.025, 1e-12);
  EXPECT_NEAR(fit.r_squared, 1.0, 1e-12);
  EXPECT_EQ(fit.points, 4u);
}

TEST(LinearCost, NeedsTwoDistinctSizes) {
  EXPECT_EQ(fit_linear_cost(std::vector<double>{4096}, std::vector<double>{1}).per_byte_us, 0.0);
  EXPECT_EQ(fit_linear_cost(std::vector<double>{4096, 4096}, std::vector<double>{1, 2}).per_byte_us,
            0.0);
}

}  // namespace
}  // namespace ssdlab::workloads
