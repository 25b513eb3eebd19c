// A log-linear (HDR-style) histogram of response times: the bounded-memory
// fallback of RunSamples (run_samples.h) once a run has more I/Os than its
// exact samples may hold.
//
// Below 2^kSubBits ns every nanosecond is its own bucket; above, each
// doubling [2^e, 2^(e+1)) is split into 2^kSubBits equal buckets. A value
// read back is the middle of its bucket, so it is within kRelativeError of
// the true response time (the bucket's width over its lower edge is at most
// 2^-kSubBits; half of it at most 2^-(kSubBits+1)). Memory: 8 bytes per
// bucket up to the largest response seen, at most 115 KiB (responses up to
// 2^63 ns). Its buckets nest inside LatencyHistogram's (4 per doubling), so
// summary.json's histogram is exact either way.
#pragma once

#include <cstdint>
#include <vector>

#include "common/units.h"

namespace ssdlab::sim {

class ResponseHistogram {
 public:
  static constexpr int kSubBits = 8;  // 256 buckets per doubling
  static constexpr double kRelativeError = 1.0 / double(std::uint64_t{2} << kSubBits);  // 0.195%

  void add(TimeNs ns) {
    const std::uint32_t index = index_of(ns);
    if (index >= counts_.size()) counts_.resize(index + 1, 0);
    ++counts_[index];
    ++count_;
  }
  std::uint64_t count() const { return count_; }
  // The response at nearest rank `rank` (1 .. count()): the middle of the
  // bucket that holds it.
  TimeNs at_rank(std::uint64_t rank) const;
  // Counts per bucket, by index; a bucket holds [lower_bound(i), lower_bound(i + 1)).
  const std::vector<std::uint64_t>& counts() const { return counts_; }

  static std::uint32_t index_of(TimeNs ns);  // negative: bucket 0
  static TimeNs lower_bound(std::uint32_t index);

 private:
  std::vector<std::uint64_t> counts_;
  std::uint64_t count_ = 0;
};

}  // namespace ssdlab::sim
