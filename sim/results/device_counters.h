// What the device did, counted: the FTL's counters (ftl::FtlStats), the
// controller's cleaning time and write buffer, the flash buses and dies. A
// typed value (summary.json is only its output format): a run's counters are
// the difference of two snapshots, a plan's the sum of its runs'.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>

#include "common/units.h"
#include "ftl/ftl.h"
#include "sim/controller/write_buffer.h"

namespace ssdlab::sim {

class Ssd;

struct DeviceCounters {
  ftl::FtlStats ftl;
  TimeNs cleaning_ns = 0;             // cleaning in progress, foreground and background
  TimeNs background_cleaning_ns = 0;  // of which started by idle pools
  std::uint64_t two_plane_commands = 0;
  TimeNs bus_busy_ns = 0, die_busy_ns = 0;  // summed over channels, dies
  std::optional<WriteBufferStats> buffer;   // only with a write buffer
  std::uint32_t pages_per_block = 0;        // for cleaning_efficiency()

  // A snapshot of `ssd`'s counters now.
  static DeviceCounters of(const Ssd& ssd);

  // Flash pages written per host page written (0 without host writes).
  double write_amplification() const { return ftl.write_amplification(); }
  // Superseded pages over all pages of the cleaned blocks (Agrawal §3.2).
  double cleaning_efficiency() const { return ftl.cleaning_efficiency(pages_per_block); }

  bool operator==(const DeviceCounters&) const = default;
};

// What happened between two snapshots of one device, and the sum of such
// differences (per-pool counts element by element). DeviceCounters::of is
// the simulator's (device_snapshot.cpp); the rest is in ssdlab_results.
DeviceCounters operator-(const DeviceCounters& after, const DeviceCounters& before);
DeviceCounters& operator+=(DeviceCounters& sum, const DeviceCounters& more);

// summary.json's form: counts, times in microseconds, and the ratios; and
// back (the ratios are derived, pages_per_block is left 0: the config has
// it). Throws nlohmann::json::exception on another shape.
void to_json(nlohmann::json& json, const DeviceCounters& counters);
DeviceCounters device_counters_from_json(const nlohmann::json& json);

}  // namespace ssdlab::sim
