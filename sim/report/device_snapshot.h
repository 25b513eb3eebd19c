// A snapshot of a simulated device's counters (sim/results/device_counters.h):
// the simulator's side of the device counters, which the results library
// holds as plain values without seeing the FTL or the controller.
#pragma once

#include "sim/results/device_counters.h"

namespace ssdlab::sim {

class Ssd;

// The counters of `ssd` now: its FTL's (ftl::FtlStats), the controller's
// cleaning time and write buffer, the flash timelines and scheduler.
DeviceCounters device_counters_of(const Ssd& ssd);

}  // namespace ssdlab::sim
