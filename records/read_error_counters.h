// Flash read errors' counters ([errors]; sim/controller/read_errors.h),
// declared once: the error part counts them, and the device counters
// (sim/results/device_counters.h) snapshot, subtract, sum, write and read
// them through the field list below as summary.json's read_error_* keys
// (only on a device with the part).
#pragma once

#include <cstdint>

#include "common/units.h"
#include "records/field_list.h"

namespace ssdlab::records {

struct ReadErrorCounters {
  std::uint64_t page_reads = 0;        // page reads decoded (host and map reads)
  std::uint64_t bit_errors = 0;        // raw bit errors of their worst codewords, summed
  std::uint64_t corrected_first = 0;   // corrected by the first read's hard decode
  std::uint64_t corrected_retry = 0;   // corrected after read retries
  std::uint64_t corrected_soft = 0;    // corrected by soft-decision decoding
  std::uint64_t uncorrectable = 0;     // no step corrected: a media error to the host
  std::uint64_t retry_reads = 0;       // read-retry array reads
  std::uint64_t soft_reads = 0;        // soft-sensing array reads
  TimeNs decode_ns = 0;                // ECC decode time, summed over page reads
  std::uint64_t reclaimed_blocks = 0;  // blocks read reclaim rewrote
  std::uint64_t reclaimed_pages = 0;   // the valid pages it moved

  // Per page read decoded; 0 without one.
  double retries_per_read() const { return per_read(retry_reads); }
  double mean_bit_errors() const { return per_read(bit_errors); }
  double per_read(std::uint64_t count) const {
    return page_reads == 0 ? 0.0 : static_cast<double>(count) / static_cast<double>(page_reads);
  }
  bool operator==(const ReadErrorCounters&) const = default;
};

template <typename V, RecordOf<ReadErrorCounters> R>
void fields(V& v, R& c) {
  v("read_error_page_reads", c.page_reads);
  v("read_error_bit_errors", c.bit_errors);
  v("read_error_corrected_first_read", c.corrected_first);
  v("read_error_corrected_by_retry", c.corrected_retry);
  v("read_error_corrected_by_soft_decoding", c.corrected_soft);
  v("read_error_uncorrectable", c.uncorrectable);
  v("read_error_retry_reads", c.retry_reads);
  v("read_error_soft_reads", c.soft_reads);
  v.time_us("read_error_decode_us", c.decode_ns);
  v("read_reclaim_blocks", c.reclaimed_blocks);
  v("read_reclaim_pages", c.reclaimed_pages);
  v.derived("read_error_retries_per_read", c.retries_per_read());
  v.derived("read_error_mean_bit_errors", c.mean_bit_errors());
}

}  // namespace ssdlab::records
