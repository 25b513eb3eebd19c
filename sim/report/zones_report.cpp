// summary.json's "zones" and "host_log" blocks (summary_blocks.h) from a
// zoned device and the host's log over it.
#include "sim/report/report.h"

#include "common/flash_ratios.h"
#include "ftl/zones.h"
#include "sim/controller/ssd.h"
#include "sim/results/summary.h"

namespace ssdlab::sim {

namespace {

ZonesRecord zones_record(const ZoneFront& front) {
  const ftl::ZonedDevice& device = front.device();
  ZonesRecord z;
  z.zones = device.zones();
  z.zone_bytes = front.zone_bytes();
  z.capacity_bytes = front.capacity_bytes();
  for (std::uint64_t i = 0; i < device.zones(); ++i) {
    switch (device.zone(i).state) {
      case ftl::ZoneState::kEmpty: ++z.empty; break;
      case ftl::ZoneState::kImplicitlyOpen: ++z.implicitly_open; break;
      case ftl::ZoneState::kExplicitlyOpen: ++z.explicitly_open; break;
      case ftl::ZoneState::kClosed: ++z.closed; break;
      case ftl::ZoneState::kReadOnly: ++z.read_only; break;
      case ftl::ZoneState::kFull: ++z.full; break;
      case ftl::ZoneState::kOffline: ++z.offline; break;
    }
  }
  z.counters = device.zone_counters();
  return z;
}

HostLogRecord host_log_record(const HostLog& log, const Ssd& ssd) {
  HostLogRecord h;
  h.victim = host_log_victim_name(log.config().victim);
  h.exported_bytes = log.exported_bytes();
  h.zones = log.zones();
  h.counters = log.counters();
  const ftl::FtlStats& stats = ssd.ftl().stats();
  h.device_write_amplification = stats.write_amplification();
  h.total_write_amplification =
      ssdlab::write_amplification(stats.flash_pages_written, h.counters.host_pages_written);
  return h;
}

}  // namespace

void add_zones_summary(SummaryRecord& summary, const Ssd& ssd) {
  const ZoneStack* zoned = ssd.zoned();
  if (!zoned) return;
  summary.zones = zones_record(zoned->front());
  if (const HostLog* log = zoned->log()) summary.host_log = host_log_record(*log, ssd);
}

}  // namespace ssdlab::sim
