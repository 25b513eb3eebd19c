// summary.json's fields of a zoned device and of the host's log over it
// (summary_fields.h says how a fields() list is read).
#pragma once

#include "sim/results/summary.h"

namespace ssdlab::sim {

template <typename V, typename R>
void fields(V& v, R& z) requires std::is_same_v<std::remove_const_t<R>, ZonesRecord> {
  v("zones", z.zones);
  v("zone_bytes", z.zone_bytes);
  v("capacity_bytes", z.capacity_bytes);
  v("empty", z.empty);
  v("implicitly_open", z.implicitly_open);
  v("explicitly_open", z.explicitly_open);
  v("closed", z.closed);
  v("read_only", z.read_only);
  v("full", z.full);
  v("offline", z.offline);
  fields(v, z.counters);  // its keys in this object (records/zone_counters.h)
}

template <typename V, typename R>
void fields(V& v, R& h) requires std::is_same_v<std::remove_const_t<R>, HostLogRecord> {
  v("victim", h.victim);
  v("exported_bytes", h.exported_bytes);
  v("zones", h.zones);
  fields(v, h.counters);  // its keys in this object (records/host_log_counters.h)
  v("device_write_amplification", h.device_write_amplification);
  v("total_write_amplification", h.total_write_amplification);
}

}  // namespace ssdlab::sim
