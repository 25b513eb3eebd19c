// The host's log-structured layer over a zoned device ([host.log];
// docs/zns.md; sim/controller/host_log.h), its counters declared once: the
// log increments them per page, saves them in its checkpoint in the list's
// order, and the summary's "host_log" block (sim/results/summary_blocks.h)
// holds them, written and read through the field list below. Pages are the
// log's pages (flash pages).
#pragma once

#include <cstdint>

#include "common/flash_ratios.h"
#include "records/field_list.h"

namespace ssdlab::records {

struct HostLogCounters {
  std::uint64_t host_pages_written = 0;      // pages the host wrote through the log
  std::uint64_t cleaning_pages_written = 0;  // pages the log's cleaning moved
  std::uint64_t cleaning_pages_read = 0;     // pages its cleaning read from the device
  std::uint64_t zones_cleaned = 0;
  std::uint64_t zone_resets = 0;
  std::uint64_t pages_verified = 0;  // --verify: reads checked end to end

  // (host + cleaning) pages over host pages: the log's own amplification.
  double write_amplification() const {
    return share(host_pages_written + cleaning_pages_written, host_pages_written);
  }
  bool operator==(const HostLogCounters&) const = default;
};

template <typename V, RecordOf<HostLogCounters> R>
void fields(V& v, R& c) {
  v("host_pages_written", c.host_pages_written);
  v("cleaning_pages_written", c.cleaning_pages_written);
  v("cleaning_pages_read", c.cleaning_pages_read);
  v("zones_cleaned", c.zones_cleaned);
  v("zone_resets", c.zone_resets);
  v("pages_verified", c.pages_verified);
  v.derived("host_write_amplification", c.write_amplification());
}

}  // namespace ssdlab::records
