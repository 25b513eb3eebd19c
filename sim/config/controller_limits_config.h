// The controller's limits ([controller.firmware], [controller.data_path];
// sim/controller/controller_limits.h): the firmware's cores, a pool of
// servers each host command takes for its kind's time before its flash
// work starts, and the data path (DRAM and ECC) every host data byte
// crosses at one rate. Off by default (neither table): commands reach the
// flash with no such cost, as before. docs/model.md, "Controller cores and
// data path", has the model and its sources.
#pragma once

#include <cstdint>

#include "common/io_mode.h"
#include "common/units.h"

namespace ssdlab::sim {

struct FirmwareCoresConfig {
  std::uint32_t cores = 0;  // 0: no cores model (the default)
  // Core time per command of each kind: reads; writes and zone appends;
  // trims; zone management (reset, finish, open, close).
  TimeNs read_ns = 0, write_ns = 0, trim_ns = 0, zone_management_ns = 0;

  bool on() const { return cores != 0; }
  TimeNs time_of(IoMode mode) const {
    switch (mode) {
      case IoMode::kRead:
        return read_ns;
      case IoMode::kWrite:
      case IoMode::kZoneAppend:
        return write_ns;
      case IoMode::kTrim:
        return trim_ns;
      default:
        return zone_management_ns;
    }
  }
};

struct DataPathConfig {
  double bytes_per_s = 0;  // 0: no data path model (the default)
  bool on() const { return bytes_per_s > 0; }
  // Femtoseconds per byte (rounded), what the data path charges.
  std::int64_t fs_per_byte() const;
};

// The controller's thermal throttle ([controller.thermal]; docs/model.md
// "Energy and thermal throttling"): the drive's temperature as one thermal
// node, a resistance and a time constant over the idle temperature, heated
// by the flash's power (flash/nand_power.h) and the controller's per host
// byte; at or above throttle_c the controller passes host data at
// throttle_bytes_per_s until the temperature falls below release_c, and
// with a heavy level at or above heavy_c at heavy_bytes_per_s (a drive's
// firmware rule, as NVMe's two thermal management temperatures, TMT1 and
// TMT2, and Samsung's Dynamic Thermal Guard). Off by default (no table).
struct ThermalConfig {
  bool enabled = false;
  double idle_c = 0;                  // the drive's temperature when idle
  double resistance_c_per_w = 0;      // steady-state rise per watt
  double time_constant_s = 0;         // how fast it approaches it
  double throttle_c = 0;              // throttling starts at or above
  double release_c = 0;               // and ends below
  double throttle_bytes_per_s = 0;    // the host data rate while throttled
  double controller_nj_per_byte = 0;  // the controller's energy per host byte
  double heavy_c = 0;                 // the heavy level starts at or above (0: none)
  double heavy_bytes_per_s = 0;       // the host data rate at the heavy level
  bool on() const { return enabled; }
  bool heavy_on() const { return heavy_bytes_per_s > 0; }
};

// At most so many cores (a linear search picks the earliest free one).
inline constexpr std::uint32_t kMaxFirmwareCores = 256;

}  // namespace ssdlab::sim
