#include "sim/results/page_type_reads.h"

#include <algorithm>
#include <cmath>

namespace ssdlab::sim {
namespace {

// The nearest-rank percentile `percent` of `histogram` (its bucket's middle:
// within ResponseHistogram::kRelativeError), in microseconds.
double percentile_us(const ResponseHistogram& histogram, double percent) {
  const auto count = static_cast<double>(histogram.count());
  const auto rank = static_cast<std::uint64_t>(std::max(1.0, std::ceil(percent / 100 * count)));
  return static_cast<double>(histogram.at_rank(rank)) / 1000.0;
}

}  // namespace

bool PageTypeReads::empty() const {
  return std::all_of(classes_.begin(), classes_.end(),
                     [](const Class& c) { return c.histogram.count() == 0; });
}

std::vector<PageTypeReadRecord> PageTypeReads::records(
    const std::array<std::string, kClasses>& names) const {
  std::vector<PageTypeReadRecord> records;
  for (std::size_t k = 1; k < kClasses; ++k) {
    const Class& c = classes_[k];
    const std::uint64_t reads = c.histogram.count();
    if (reads == 0) continue;
    PageTypeReadRecord& r = records.emplace_back();
    r.page_type = names[k];
    r.reads = reads;
    r.mean_us = c.sum_ns / static_cast<double>(reads) / 1000.0;
    r.p50_us = percentile_us(c.histogram, 50);
    r.p99_us = percentile_us(c.histogram, 99);
    r.max_us = static_cast<double>(c.max_ns) / 1000.0;
  }
  return records;
}

}  // namespace ssdlab::sim
