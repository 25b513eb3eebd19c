// The controller's write buffer's counters (sim/controller/write_buffer.h),
// declared once: the buffer increments them per page, and the device
// counters (sim/results/device_counters.h) snapshot, subtract, sum, write
// and read them through the field list below, as summary.json's
// write_buffer_* keys.
#pragma once

#include <cstdint>

#include "common/units.h"
#include "records/field_list.h"

namespace ssdlab::records {

struct WriteBufferCounters {
  std::uint64_t write_pages = 0;      // host pages written into the buffer
  std::uint64_t coalesced_pages = 0;  // of those, overwrites of a page it still held
  std::uint64_t read_hit_pages = 0;   // host pages read from the buffer
  std::uint64_t read_miss_pages = 0;  // host pages read from flash
  std::uint64_t flushed_pages = 0;    // pages written to flash by flushes
  std::uint64_t flushes = 0;
  std::uint64_t full_waits = 0;  // writes that waited for a flush to free space
  TimeNs full_wait_ns = 0;       // their summed wait
  bool operator==(const WriteBufferCounters&) const = default;
};

template <typename V, RecordOf<WriteBufferCounters> R>
void fields(V& v, R& b) {
  v("write_buffer_write_pages", b.write_pages);
  v("write_buffer_coalesced_pages", b.coalesced_pages);
  v("write_buffer_read_hit_pages", b.read_hit_pages);
  v("write_buffer_read_miss_pages", b.read_miss_pages);
  v("write_buffer_flushed_pages", b.flushed_pages);
  v("write_buffer_flushes", b.flushes);
  v("write_buffer_full_waits", b.full_waits);
  v.time_us("write_buffer_full_wait_us", b.full_wait_ns);
}

}  // namespace ssdlab::records
