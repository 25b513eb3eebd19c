// summary.json's "zones" and "host_log" blocks (summary_blocks.h) from a
// zoned device and the host's log over it.
#include "sim/report/report.h"

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
  const ftl::ZoneCounters& c = device.zone_counters();
  z.resets = c.resets;
  z.finishes = c.finishes;
  z.opens = c.opens;
  z.closes = c.closes;
  z.appends = c.appends;
  z.implicit_closes = c.implicit_closes;
  z.finish_padding_pages = c.finish_padding;
  z.blocks_replaced = c.blocks_replaced;
  for (std::size_t i = 0; i < ftl::kZoneErrors.size(); ++i) {
    z.refused += c.refused[i];
    z.refusals.push_back({std::string(ftl::zone_status_name(ftl::kZoneErrors[i])),
                          static_cast<std::uint64_t>(ftl::kZoneErrors[i]), c.refused[i]});
  }
  return z;
}

HostLogRecord host_log_record(const HostLog& log, const Ssd& ssd) {
  const HostLog::Counters& c = log.counters();
  HostLogRecord h;
  h.victim = host_log_victim_name(log.config().victim);
  h.exported_bytes = log.exported_bytes();
  h.zones = log.zones();
  h.host_pages_written = c.host_pages;
  h.cleaning_pages_written = c.cleaning_pages;
  h.cleaning_pages_read = c.cleaning_reads;
  h.zones_cleaned = c.zones_cleaned;
  h.zone_resets = c.resets;
  h.pages_verified = c.pages_verified;
  const ftl::FtlStats& stats = ssd.ftl().stats();
  const auto ratio = [](std::uint64_t a, std::uint64_t b) {
    return b ? static_cast<double>(a) / static_cast<double>(b) : 0.0;
  };
  h.host_write_amplification = ratio(c.host_pages + c.cleaning_pages, c.host_pages);
  h.device_write_amplification = ratio(stats.flash_pages_written, stats.host_pages_written);
  h.total_write_amplification = ratio(stats.flash_pages_written, c.host_pages);
  return h;
}

}  // namespace

void add_zones_summary(SummaryRecord& summary, const Ssd& ssd) {
  if (!ssd.zones()) return;
  summary.zones = zones_record(*ssd.zones());
  if (ssd.host_log()) summary.host_log = host_log_record(*ssd.host_log(), ssd);
}

}  // namespace ssdlab::sim
