#include "sim/results/response_histogram.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <stdexcept>

namespace ssdlab::sim {
namespace {

constexpr std::uint64_t kSub = std::uint64_t{1} << ResponseHistogram::kSubBits;

}  // namespace

std::uint32_t ResponseHistogram::index_of(TimeNs ns) {
  const auto v = static_cast<std::uint64_t>(std::max<TimeNs>(ns, 0));
  if (v < kSub) return static_cast<std::uint32_t>(v);
  const auto exponent = static_cast<std::uint32_t>(std::bit_width(v) - 1);  // >= kSubBits
  const auto shift = exponent - kSubBits;
  const auto mantissa = static_cast<std::uint32_t>((v >> shift) & (kSub - 1));
  return static_cast<std::uint32_t>(kSub * (shift + 1)) + mantissa;
}

TimeNs ResponseHistogram::lower_bound(std::uint32_t index) {
  if (index < kSub) return index;
  const std::uint64_t shift = index / kSub - 1, mantissa = index % kSub;
  if (shift + ResponseHistogram::kSubBits >= 63) return std::numeric_limits<TimeNs>::max();
  return static_cast<TimeNs>((kSub + mantissa) << shift);
}

TimeNs ResponseHistogram::at_rank(std::uint64_t rank) const {
  if (rank == 0 || rank > count_) throw std::logic_error("ResponseHistogram: rank out of range");
  std::uint64_t below = 0;
  for (std::uint32_t i = 0; i < counts_.size(); ++i) {
    below += counts_[i];
    if (below < rank) continue;
    const TimeNs from = lower_bound(i), width = lower_bound(i + 1) - from;
    return from + (width - 1) / 2;
  }
  throw std::logic_error("ResponseHistogram: counts do not add up");
}

}  // namespace ssdlab::sim
