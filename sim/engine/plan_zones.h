// A plan's zone workload (workloads/zone_stream.h) on a device's zones.
#pragma once

#include "sim/controller/ssd.h"
#include "workloads/plan.h"

namespace ssdlab::sim {

// `spec` with the zone size and capacity of `ssd`'s zones where a zone
// workload (zones_open) gives none. An ssdlab::Error naming the experiment
// where the workload asks what the device cannot do: zone commands on a
// conventional device, a zone size not the device's, a capacity above its.
workloads::ExperimentSpec with_device_zones(const workloads::ExperimentSpec& spec, const Ssd& ssd);

}  // namespace ssdlab::sim
