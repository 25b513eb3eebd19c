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

LatencyHistogram histogram_of(const std::vector<TimeNs>& responses) {
  std::vector<std::uint64_t> counts(LatencyHistogram::index_of(std::numeric_limits<TimeNs>::max()) +
                                    1);
  for (TimeNs r : responses) ++counts[LatencyHistogram::index_of(r)];
  LatencyHistogram histogram;
  for (std::uint32_t i = 0; i < counts.size(); ++i)
    if (counts[i])
      histogram.buckets.push_back({LatencyHistogram::lower_bound(i),
                                   i + 1 < counts.size() ? LatencyHistogram::lower_bound(i + 1)
                                                         : std::numeric_limits<TimeNs>::max(),
                                   counts[i]});
  return histogram;
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
    // Rounding of fraction x n must not push an exact rank up by one (p99.9
    // of 1000 responses is rank 999, not 999.0000000001 rounded up): percents
    // have few decimals, so a true fractional part is far above 1e-7.
    const double exact = fraction * static_cast<double>(n);
    const auto k = static_cast<std::size_t>(std::ceil(exact - 1e-7));
    auto nth = responses.begin() + static_cast<std::ptrdiff_t>(
                                       std::min<std::size_t>(std::max<std::size_t>(k, 1), n) - 1);
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
  if (span > 0) {
    const double seconds = static_cast<double>(span) * 1e-9;
    stats.iops = static_cast<double>(n) / seconds;
    stats.mb_per_s = static_cast<double>(bytes) / seconds / 1e6;
  }
  return stats;
}

}  // namespace ssdlab::sim
