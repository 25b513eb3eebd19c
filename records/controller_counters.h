// The controller's limits' counters (sim/controller/controller_limits.h),
// declared once: the firmware's cores and the data path each fill theirs,
// and the device counters (sim/results/device_counters.h) snapshot,
// subtract, sum, write and read them through the field lists below, as
// summary.json's controller_core_*, controller_data_path_* and thermal_*
// keys (only on a device that has the part).
#pragma once

#include <cstdint>
#include <optional>

#include "common/units.h"
#include "records/field_list.h"

namespace ssdlab::records {

// A resource's busy time over the time it had (`available_ns`: its
// servers times the simulated time it was counted over); none when it had
// none.
inline std::optional<double> busy_fraction(TimeNs busy_ns, TimeNs available_ns) {
  if (available_ns <= 0) return std::nullopt;
  return static_cast<double>(busy_ns) / static_cast<double>(available_ns);
}

// A summed wait over its samples, in microseconds; 0 without samples.
inline double mean_us(TimeNs ns, std::uint64_t samples) {
  return samples == 0 ? 0.0 : static_cast<double>(ns) / 1000.0 / static_cast<double>(samples);
}

struct CoreCounters {
  std::uint64_t commands = 0;  // host commands the cores served
  TimeNs busy_ns = 0;          // their core time, summed over the cores
  TimeNs wait_ns = 0;          // their wait for a free core, summed
  TimeNs available_ns = 0;     // the cores times the simulated time counted
  bool operator==(const CoreCounters&) const = default;
};

template <typename V, RecordOf<CoreCounters> R>
void fields(V& v, R& c) {
  v("controller_core_commands", c.commands);
  v.time_us("controller_core_busy_us", c.busy_ns);
  v.time_us("controller_core_wait_us", c.wait_ns);
  v.time_us("controller_core_available_us", c.available_ns);
  v.derived("controller_core_busy_fraction", busy_fraction(c.busy_ns, c.available_ns));
  v.derived("controller_core_mean_wait_us", mean_us(c.wait_ns, c.commands));
}

struct DataPathCounters {
  std::uint64_t transfers = 0;  // host data transfers (a read's or a write's bytes)
  std::uint64_t bytes = 0;
  TimeNs busy_ns = 0;
  TimeNs wait_ns = 0;       // transfers' wait for the path, summed
  TimeNs available_ns = 0;  // the simulated time counted
  bool operator==(const DataPathCounters&) const = default;
};

template <typename V, RecordOf<DataPathCounters> R>
void fields(V& v, R& d) {
  v("controller_data_path_transfers", d.transfers);
  v("controller_data_path_bytes", d.bytes);
  v.time_us("controller_data_path_busy_us", d.busy_ns);
  v.time_us("controller_data_path_wait_us", d.wait_ns);
  v.time_us("controller_data_path_available_us", d.available_ns);
  v.derived("controller_data_path_busy_fraction", busy_fraction(d.busy_ns, d.available_ns));
  v.derived("controller_data_path_mean_wait_us", mean_us(d.wait_ns, d.transfers));
}

// The thermal throttle ([controller.thermal]): how often it engaged, and
// for how long of the time counted.
struct ThermalCounters {
  std::uint64_t throttles = 0;  // times the temperature reached throttle_c
  TimeNs throttled_ns = 0;      // time spent throttled
  TimeNs heavy_ns = 0;          // of which at the heavy level
  TimeNs available_ns = 0;      // the simulated time counted
  bool operator==(const ThermalCounters&) const = default;
};

template <typename V, RecordOf<ThermalCounters> R>
void fields(V& v, R& t) {
  v("thermal_throttles", t.throttles);
  v.time_us("thermal_throttled_us", t.throttled_ns);
  v.time_us("thermal_heavy_us", t.heavy_ns);
  v.time_us("thermal_available_us", t.available_ns);
  v.derived("thermal_throttled_fraction", busy_fraction(t.throttled_ns, t.available_ns));
}

}  // namespace ssdlab::records
