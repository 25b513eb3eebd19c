// Skewed random addresses (workloads/skew.h): the hot/cold split sends
// hot_access of the I/Os to the hot fraction; Zipf draws follow 1/k^theta
// (checked against the exact probabilities on a small range) in O(1) memory
// on a huge one; the plan keys parse inline and reach the generator.
#include "workloads/skew.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "workloads/generator.h"
#include "workloads/plan.h"

namespace ssdlab::workloads {
namespace {

TEST(Skew, HotColdSendsHotAccessToTheHotFraction) {
  const std::uint64_t slots = 10000;
  const SkewedSlots skewed(Skew{0.2, 0.8, 0.0}, slots);
  Rng rng(1);
  const int draws = 200000;
  int hot = 0;
  for (int i = 0; i < draws; ++i) {
    const std::uint64_t slot = skewed.slot(rng);
    ASSERT_LT(slot, slots);
    hot += slot < slots / 5 ? 1 : 0;
  }
  EXPECT_NEAR(static_cast<double>(hot) / draws, 0.8, 0.005);
}

TEST(Skew, ZipfFollowsTheExactProbabilities) {
  for (const double theta : {0.5, 0.99, 1.0, 1.5}) {
    const std::uint64_t n = 1000;
    double harmonic = 0;
    for (std::uint64_t k = 1; k <= n; ++k) harmonic += std::pow(static_cast<double>(k), -theta);
    const ZipfSampler zipf(n, theta);
    Rng rng(2);
    std::vector<int> counts(n + 1, 0);
    const int draws = 400000;
    for (int i = 0; i < draws; ++i) {
      const std::uint64_t rank = zipf.rank(rng);
      ASSERT_GE(rank, 1u);
      ASSERT_LE(rank, n);
      ++counts[rank];
    }
    for (const std::uint64_t k : {1, 2, 10, 100}) {
      const double expected = std::pow(static_cast<double>(k), -theta) / harmonic;
      const double sigma = std::sqrt(expected * (1 - expected) / draws);
      EXPECT_NEAR(static_cast<double>(counts[k]) / draws, expected, 5 * sigma)
          << "theta " << theta << " rank " << k;
    }
  }
}

TEST(Skew, ZipfOverATebibyteOfPagesNeedsNoTable) {
  const std::uint64_t pages = std::uint64_t{1} << 28;  // 1 TiB of 4 KiB pages
  const SkewedSlots skewed(Skew{0.0, 0.0, 0.99}, pages);
  Rng rng(3);
  std::uint64_t first = 0;
  for (int i = 0; i < 100000; ++i) {
    const std::uint64_t slot = skewed.slot(rng);
    ASSERT_LT(slot, pages);
    first += slot == 0 ? 1 : 0;
  }
  EXPECT_GT(first, 0u) << "the hottest page is drawn";
  EXPECT_LT(sizeof(SkewedSlots), 256u);
}

TEST(Skew, InlineKeysReachTheGeneratorAndAreDeterministic) {
  const auto spec = parse_inline("RW:io_size=4096,count=100,zipf=0.9").experiments.front();
  EXPECT_DOUBLE_EQ(spec.zipf, 0.9);
  const auto hot = parse_inline("RR:count=10,hot_fraction=0.1,hot_access=0.95").experiments.front();
  EXPECT_DOUBLE_EQ(hot.hot_fraction, 0.1);
  EXPECT_DOUBLE_EQ(hot.hot_access, 0.95);
  const std::uint64_t device = std::uint64_t{4096} * 100000;
  IoGenerator a(spec, 0, device, 5), b(spec, 0, device, 5);
  int low = 0;
  for (int i = 0; i < 100; ++i) {
    const IoRequest x = a.next(), y = b.next();
    ASSERT_EQ(x.offset, y.offset);
    low += x.offset < device / 100 ? 1 : 0;
  }
  EXPECT_GT(low, 30) << "Zipf(0.9) puts far more than 1% of the I/Os on the first 1%";
}

}  // namespace
}  // namespace ssdlab::workloads
