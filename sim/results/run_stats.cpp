// Response-time statistics of a run (RunStats in output.h): percentiles,
// the latency histogram (summary.json holds them as RunRecord::of).
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "sim/results/output.h"
#include "sim/results/response_histogram.h"

namespace ssdlab::sim {

std::vector<double> parse_percentiles(std::string_view text) {
  std::vector<double> percents;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item = text.substr(start, comma - start);
    double percent = 0;
    const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), percent);
    if (item.empty() || error != std::errc() || end != item.data() + item.size() ||
        !(percent > 0 && percent <= 100))
      throw make_error(
          "--percentiles '{}': '{}' is not a percent in (0, 100] (expected a list such as "
          "50,90,99,99.9)",
          text, item);
    percents.push_back(percent);
    start = comma + 1;
  }
  if (percents.size() > 16) throw make_error("--percentiles '{}': at most 16", text);
  return percents;
}

std::string percentile_key(double percent) {
  std::string text = fmt::format("{}", percent);
  std::replace(text.begin(), text.end(), '.', '_');
  return "p" + text + "_us";
}

std::uint32_t LatencyHistogram::index_of(TimeNs ns) {
  const auto v = static_cast<std::uint64_t>(std::max<TimeNs>(ns, 0));
  if (v < 4) return static_cast<std::uint32_t>(v);
  const auto exponent = static_cast<std::uint32_t>(std::bit_width(v) - 1);  // >= 2
  const auto mantissa = static_cast<std::uint32_t>((v >> (exponent - 2)) & 3);
  return 4 * (exponent - 1) + mantissa;  // 4 .. : exponent 2 starts at index 4
}

TimeNs LatencyHistogram::lower_bound(std::uint32_t index) {
  if (index < 4) return index;
  const std::uint32_t exponent = index / 4 + 1, mantissa = index % 4;
  return static_cast<TimeNs>((std::uint64_t{4} + mantissa) << (exponent - 2));
}

namespace {

// LatencyHistogram from counts by its bucket index.
LatencyHistogram histogram_from(const std::vector<std::uint64_t>& counts) {
  LatencyHistogram histogram;
  for (std::uint32_t i = 0; i < counts.size(); ++i)
    if (counts[i])
      histogram.buckets.push_back({LatencyHistogram::lower_bound(i),
                                   i + 1 < counts.size() ? LatencyHistogram::lower_bound(i + 1)
                                                         : std::numeric_limits<TimeNs>::max(),
                                   counts[i]});
  return histogram;
}

std::vector<std::uint64_t> coarse_counts() {
  return std::vector<std::uint64_t>(LatencyHistogram::index_of(std::numeric_limits<TimeNs>::max()) +
                                    1);
}

LatencyHistogram histogram_of(const std::vector<TimeNs>& responses) {
  std::vector<std::uint64_t> counts = coarse_counts();
  for (TimeNs r : responses) ++counts[LatencyHistogram::index_of(r)];
  return histogram_from(counts);
}

// The nearest rank of `fraction` among n: rounding of fraction x n must not
// push an exact rank up by one (p99.9 of 1000 responses is rank 999, not
// 999.0000000001 rounded up): percents have few decimals, so a true
// fractional part is far above 1e-7.
std::uint64_t nearest_rank(double fraction, std::uint64_t n) {
  const double exact = fraction * static_cast<double>(n);
  const auto k = static_cast<std::uint64_t>(std::ceil(exact - 1e-7));
  return std::min<std::uint64_t>(std::max<std::uint64_t>(k, 1), n);
}

void set_rates(RunStats& stats, std::uint64_t n, TimeNs span, std::uint64_t bytes) {
  if (span <= 0) return;
  const double seconds = static_cast<double>(span) * 1e-9;
  stats.iops = static_cast<double>(n) / seconds;
  stats.mb_per_s = static_cast<double>(bytes) / seconds / 1e6;
}

}  // namespace

RunStats compute_stats(std::vector<TimeNs>& responses, std::uint64_t count, TimeNs span,
                       std::uint64_t bytes, std::span<const double> percentiles) {
  RunStats stats;
  stats.count = count;
  stats.ignored = count - responses.size();
  if (responses.empty()) return stats;
  const auto n = responses.size();
  auto rank = [&responses, n](double fraction) {
    auto nth = responses.begin() + static_cast<std::ptrdiff_t>(nearest_rank(fraction, n) - 1);
    std::nth_element(responses.begin(), nth, responses.end());
    return *nth;
  };
  stats.p50_ns = rank(0.50);
  stats.p99_ns = rank(0.99);
  for (const double percent : percentiles)
    stats.percentiles.push_back({percent, rank(percent / 100)});
  const auto [min, max] = std::minmax_element(responses.begin(), responses.end());
  stats.min_ns = *min;
  stats.max_ns = *max;
  double sum = 0;
  for (TimeNs r : responses) sum += static_cast<double>(r);
  stats.mean_ns = sum / static_cast<double>(n);
  double squares = 0;
  for (TimeNs r : responses) squares += (r - stats.mean_ns) * (r - stats.mean_ns);
  stats.stddev_ns = std::sqrt(squares / static_cast<double>(n));
  stats.histogram = histogram_of(responses);
  set_rates(stats, n, span, bytes);
  return stats;
}

RunStats histogram_stats(const ResponseHistogram& histogram, std::uint64_t count, TimeNs min,
                         TimeNs max, double mean, double stddev, TimeNs span, std::uint64_t bytes,
                         std::span<const double> percentiles) {
  RunStats stats;
  stats.count = count;
  const std::uint64_t n = histogram.count();
  stats.ignored = count - n;
  stats.percentile_error = ResponseHistogram::kRelativeError;
  if (n == 0) return stats;
  auto rank = [&](double fraction) {
    return std::clamp(histogram.at_rank(nearest_rank(fraction, n)), min, max);
  };
  stats.p50_ns = rank(0.50);
  stats.p99_ns = rank(0.99);
  for (const double percent : percentiles)
    stats.percentiles.push_back({percent, rank(percent / 100)});
  stats.min_ns = min;
  stats.max_ns = max;
  stats.mean_ns = mean;
  stats.stddev_ns = stddev;
  // Each fine bucket lies inside one coarse bucket (response_histogram.h).
  std::vector<std::uint64_t> counts = coarse_counts();
  const auto& fine = histogram.counts();
  for (std::uint32_t i = 0; i < fine.size(); ++i)
    if (fine[i]) counts[LatencyHistogram::index_of(ResponseHistogram::lower_bound(i))] += fine[i];
  stats.histogram = histogram_from(counts);
  set_rates(stats, n, span, bytes);
  return stats;
}

}  // namespace ssdlab::sim
