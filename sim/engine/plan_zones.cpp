#include "sim/engine/plan_zones.h"

#include <fmt/format.h>

#include "common/error.h"
#include "common/units.h"
#include "ftl/zoned.h"

namespace ssdlab::sim {

workloads::ExperimentSpec with_device_zones(const workloads::ExperimentSpec& spec, const Ssd& ssd) {
  workloads::ExperimentSpec out = spec;
  if (!spec.zone.on()) return out;
  const ZoneStack* zoned = ssd.zoned();
  const workloads::ZoneKeys& z = spec.zone;
  if (!zoned || zoned->log()) {
    // A conventional device (or the host log's) has no zone commands: it
    // would serve a reset or an append as nothing (issue 51, H4). Zones in
    // order with writes at their start need none of them.
    const bool writes = spec.pattern == workloads::Pattern::kSW;
    if (writes && (z.append || z.reset || z.finish_at != 1.0 || z.zrwa))
      throw make_error(
          "{}: zone_append, zone_reset, zone_finish_at and zrwa are zone commands, and this device "
          "is not zoned{} (a zoned device has ftl.type = \"zoned\" and no [host.log]); on a "
          "conventional device a zone workload writes its zones in order with zone_reset=false",
          spec.origin, zoned ? ": the host log exports a conventional device" : "");
    return out;
  }
  const ZoneFront& zones = zoned->front();
  // The zones are the device's: another size would cross them (issue 51, L1).
  if (z.zone_size && z.zone_size != zones.zone_bytes())
    throw make_error("{}: zone_size {} is not the device's zone size, {} (leave it out)",
                     spec.origin, format_size(z.zone_size), format_size(zones.zone_bytes()));
  if (z.zone_capacity > zones.capacity_bytes())
    throw make_error("{}: zone_capacity {} is more than the device's zone capacity, {}",
                     spec.origin, format_size(z.zone_capacity),
                     format_size(zones.capacity_bytes()));
  out.zone.zone_size = zones.zone_bytes();
  out.zone.zrwa_size = ssd.config().ftl.keys.get<ftl::ZonedKeys>().zrwa_size;
  if (!out.zone.zone_capacity) out.zone.zone_capacity = zones.capacity_bytes();
  return out;
}

}  // namespace ssdlab::sim
