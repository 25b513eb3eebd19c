// ResponseHistogram: every response falls in its bucket, the buckets nest in
// summary.json's LatencyHistogram, and a percentile read back is within
// kRelativeError of the exact one.
#include "sim/results/response_histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "common/rng.h"
#include "sim/results/output.h"

namespace ssdlab::sim {
namespace {

// Responses spread over 1 ns .. 10 s, log-uniform: every decade of buckets is used.
std::vector<TimeNs> log_uniform(std::size_t n, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<TimeNs> values(n);
  for (TimeNs& v : values) v = static_cast<TimeNs>(std::exp(rng.unit() * std::log(1e10)));
  return values;
}

TEST(ResponseHistogram, EveryValueLiesInItsBucketOfBoundedWidth) {
  for (const TimeNs v : log_uniform(200'000, 1)) {
    const std::uint32_t i = ResponseHistogram::index_of(v);
    const TimeNs from = ResponseHistogram::lower_bound(i),
                 to = ResponseHistogram::lower_bound(i + 1);
    ASSERT_LE(from, v);
    ASSERT_LT(v, to);
    // Width over lower edge at most 2^-kSubBits (1 ns below 2^kSubBits).
    ASSERT_LE(static_cast<double>(to - from - 1),
              2 * ResponseHistogram::kRelativeError * static_cast<double>(from));
    // Nested in one bucket of the coarse histogram.
    ASSERT_EQ(LatencyHistogram::index_of(from), LatencyHistogram::index_of(to - 1));
  }
  EXPECT_EQ(ResponseHistogram::index_of(-5), 0u);
  const auto top = ResponseHistogram::index_of(std::numeric_limits<TimeNs>::max());
  EXPECT_LE(ResponseHistogram::lower_bound(top), std::numeric_limits<TimeNs>::max());
  EXPECT_EQ(ResponseHistogram::lower_bound(top + 1), std::numeric_limits<TimeNs>::max());
}

TEST(ResponseHistogram, PercentilesAreWithinTheStatedErrorOfExactOnes) {
  std::vector<TimeNs> values = log_uniform(100'000, 2);
  ResponseHistogram histogram;
  for (const TimeNs v : values) histogram.add(v);
  ASSERT_EQ(histogram.count(), values.size());
  std::sort(values.begin(), values.end());
  double worst = 0;
  for (std::uint64_t rank = 1; rank <= values.size(); rank += 97) {
    const auto exact = static_cast<double>(values[rank - 1]);
    const auto got = static_cast<double>(histogram.at_rank(rank));
    const double error = std::abs(got - exact) / exact;
    ASSERT_LE(error, ResponseHistogram::kRelativeError) << "rank " << rank << ": " << exact;
    worst = std::max(worst, error);
  }
  // The bound is tight enough to matter: errors come near it.
  EXPECT_GT(worst, ResponseHistogram::kRelativeError / 2);
  // Small responses (below 2^kSubBits ns) are exact.
  EXPECT_EQ(histogram.at_rank(1), values.front());
  EXPECT_THROW(histogram.at_rank(0), std::logic_error);
  EXPECT_THROW(histogram.at_rank(values.size() + 1), std::logic_error);
}

}  // namespace
}  // namespace ssdlab::sim
