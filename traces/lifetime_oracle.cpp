#include "traces/lifetime_oracle.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace ssdlab::traces {
namespace {

constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();

struct Pages {
  std::uint64_t first, count;
};
Pages pages_of(const TraceRecord& r, std::uint32_t page_bytes) {
  const std::uint64_t first = r.offset / page_bytes;
  return {first, (r.offset + r.size - 1) / page_bytes - first + 1};
}

double log_lifetime(std::uint64_t lifetime, std::uint64_t written) {
  return std::log2(static_cast<double>(lifetime == kNever ? 2 * written + 2 : lifetime + 1));
}

// The boundaries between `classes` clusters of `values` (1-D k-means, Lloyd's
// iterations from the quantiles: deterministic): a value above bounds[c - 1]
// and at most bounds[c] is in class c.
std::vector<double> cluster_bounds(std::vector<double> values, std::uint32_t classes) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  if (n == 0 || classes < 2) return {};
  std::vector<double> prefix(n + 1, 0.0);
  for (std::size_t i = 0; i < n; ++i) prefix[i + 1] = prefix[i] + values[i];
  std::vector<double> centre(classes), bounds(classes - 1);
  for (std::uint32_t c = 0; c < classes; ++c) centre[c] = values[(n * (2 * c + 1)) / (2 * classes)];
  for (int round = 0; round < 100; ++round) {
    for (std::uint32_t c = 0; c + 1 < classes; ++c) bounds[c] = (centre[c] + centre[c + 1]) / 2;
    bool moved = false;
    std::size_t from = 0;
    for (std::uint32_t c = 0; c < classes; ++c) {
      const std::size_t to =
          c + 1 < classes
              ? static_cast<std::size_t>(std::upper_bound(values.begin(), values.end(), bounds[c]) -
                                         values.begin())
              : n;
      if (to > from) {
        const double mean = (prefix[to] - prefix[from]) / static_cast<double>(to - from);
        moved |= mean != centre[c];
        centre[c] = mean;
      }
      from = std::max(from, to);
    }
    if (!moved) break;
  }
  return bounds;
}

}  // namespace

LifetimeOracle::LifetimeOracle(TraceReader& source, std::uint32_t classes, std::uint32_t page_bytes)
    : source_(source), classes_(classes), page_bytes_(page_bytes) {
  counts_.class_writes.assign(classes, 0);
  counts_.class_max_lifetime.assign(classes, 0);
}

std::optional<TraceRecord> LifetimeOracle::next() {
  if (!loaded_) load();
  if (next_ == records_.size()) return std::nullopt;
  return records_[next_++];
}

void LifetimeOracle::load() {
  loaded_ = true;
  while (auto record = source_.next()) records_.push_back(*record);
  // Each request's first page in the order pages are written (trims and
  // reads write none).
  std::vector<std::uint64_t> start(records_.size());
  std::uint64_t written = 0;
  for (std::size_t i = 0; i < records_.size(); ++i) {
    start[i] = written;
    if (records_[i].is_write()) written += pages_of(records_[i], page_bytes_).count;
  }
  // Backward: when each page next dies (a later write or trim), hence each
  // write's pages' lifetimes, and its median page's.
  std::unordered_map<std::uint64_t, std::uint64_t> death;
  std::vector<std::uint64_t> lifetime(records_.size(), kNever);
  std::vector<std::uint64_t> page_lives;
  for (std::size_t i = records_.size(); i-- > 0;) {
    const TraceRecord& r = records_[i];
    if (r.mode != IoMode::kWrite && r.mode != IoMode::kTrim) continue;
    const Pages p = pages_of(r, page_bytes_);
    page_lives.clear();
    for (std::uint64_t k = 0; k < p.count; ++k) {
      const std::uint64_t birth = start[i] + (r.is_write() ? k : 0);
      if (r.is_write()) {
        const auto it = death.find(p.first + k);
        page_lives.push_back(it == death.end() ? kNever : it->second - birth);
      }
      death[p.first + k] = birth;
    }
    if (r.is_write()) {
      std::nth_element(page_lives.begin(), page_lives.begin() + page_lives.size() / 2,
                       page_lives.end());
      lifetime[i] = page_lives[page_lives.size() / 2];
    }
  }
  // Classes: the clusters of the writes' log lifetimes (data never
  // superseded counts as living longer than the trace: twice its pages).
  std::vector<double> logs;  // by write, in trace order
  for (std::size_t i = 0; i < records_.size(); ++i)
    if (records_[i].is_write()) logs.push_back(log_lifetime(lifetime[i], written));
  const std::vector<double> bounds = cluster_bounds(logs, classes_);
  std::size_t write = 0;
  for (std::size_t i = 0; i < records_.size(); ++i) {
    TraceRecord& r = records_[i];
    if (!r.is_write()) continue;
    const auto c = static_cast<std::uint32_t>(
        std::upper_bound(bounds.begin(), bounds.end(), logs[write++]) - bounds.begin());
    r.placement = static_cast<std::uint8_t>(c);
    ++counts_.writes;
    counts_.never_superseded += lifetime[i] == kNever;
    ++counts_.class_writes[c];
    if (lifetime[i] != kNever)
      counts_.class_max_lifetime[c] = std::max(counts_.class_max_lifetime[c], lifetime[i]);
  }
}

}  // namespace ssdlab::traces
