// summary.json's fields of a zoned device and of the host's log over it
// (summary_fields.h says how a fields() list is read).
#pragma once

#include "sim/results/summary.h"

namespace ssdlab::sim {

template <typename V, typename R>
void fields(V& v, R& r) requires std::is_same_v<std::remove_const_t<R>, ZoneRefusalRecord> {
  v("status", r.status);
  v("code", r.code);
  v("count", r.count);
}

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
  v("resets", z.resets);
  v("finishes", z.finishes);
  v("opens", z.opens);
  v("closes", z.closes);
  v("appends", z.appends);
  v("implicit_closes", z.implicit_closes);
  v("finish_padding_pages", z.finish_padding_pages);
  v("blocks_replaced", z.blocks_replaced);
  v("refused", z.refused);
  v("refusals", z.refusals);
}

template <typename V, typename R>
void fields(V& v, R& h) requires std::is_same_v<std::remove_const_t<R>, HostLogRecord> {
  v("victim", h.victim);
  v("exported_bytes", h.exported_bytes);
  v("zones", h.zones);
  v("host_pages_written", h.host_pages_written);
  v("cleaning_pages_written", h.cleaning_pages_written);
  v("cleaning_pages_read", h.cleaning_pages_read);
  v("zones_cleaned", h.zones_cleaned);
  v("zone_resets", h.zone_resets);
  v("host_write_amplification", h.host_write_amplification);
  v("device_write_amplification", h.device_write_amplification);
  v("total_write_amplification", h.total_write_amplification);
  v("pages_verified", h.pages_verified);
}

}  // namespace ssdlab::sim
