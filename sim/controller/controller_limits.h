// The controller's limits ([controller.firmware], [controller.data_path];
// sim/config/controller_limits_config.h; docs/model.md "Controller cores
// and data path"), a part of the Ssd that the host loop's stages use
// (sim/engine/host_path.h):
//  - the firmware's cores: N servers, each a SerialResource. A host
//    command that reaches the controller takes the earliest free core (the
//    lowest-numbered on ties) for its kind's time, first come first served
//    in the order commands reach it, before its flash work starts; its
//    completion costs no core (the kind's time is the whole command's);
//  - the data path: one SerialResource every host data byte crosses at one
//    rate, a write's on its way in (before its flash work), a read's on its
//    way out (after it): reads and writes share it, as they share the
//    controller's one DRAM channel (MQSim's data cache has one, busy or
//    not, for every transfer: src/ssd/Data_Cache_Manager_Flash_Advanced.h);
//  - the thermal throttle (thermal_throttle.h): host data crosses it after
//    the data path, at once until the drive is hot, then at its rate.
// Callers ask each resource in nondecreasing `at` (the host loop's clock),
// so that first come is first served. Any part may be off.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "common/io_mode.h"
#include "common/state_io.h"
#include "common/units.h"
#include "records/controller_counters.h"
#include "sim/config/config.h"
#include "sim/controller/serial_resource.h"
#include "sim/controller/ssd_part.h"
#include "sim/controller/thermal_throttle.h"

namespace ssdlab::sim {

class ControllerLimits final : public SsdPart {
 public:
  // Whether `config` has either limit (else the Ssd builds none).
  static bool wanted(const ControllerConfig& config) {
    return config.firmware.on() || config.data_path.on() || config.thermal.on();
  }
  // (The thermal throttle heats by `timeline`'s work at `power`'s currents.)
  ControllerLimits(const ControllerConfig& config, const flash::NandPower& power,
                   const flash::FlashTimeline& timeline);

  bool cores_on() const { return !cores_.empty(); }
  // Whether host data crosses a part: the data path or the throttle.
  bool moves_data() const { return fs_per_byte_ > 0 || thermal_.has_value(); }
  // A command of kind `mode` reaching the controller at `at`: returns when
  // its core time ends (`at` without cores).
  TimeNs serve(TimeNs at, IoMode mode);
  // `bytes` of host data crossing the data path and the thermal throttle
  // from `at`: returns when the last has crossed (`at` without either, or
  // for 0 bytes on an idle throttle).
  TimeNs move(TimeNs at, std::uint64_t bytes);
  const ThermalThrottle* thermal() const { return thermal_ ? &*thermal_ : nullptr; }
  // A power cut: what the cores and the data path held is lost; both are
  // free again (the time they were reserved for stays counted as busy).
  void power_lost() override;
  // Counts the simulated time up to `now` as available (the busy
  // fractions' denominator); the host loop calls it at each run's start and
  // end, before the device counters' snapshots.
  void count_time_to(TimeNs now);

  std::optional<records::CoreCounters> core_counters() const;
  std::optional<records::DataPathCounters> data_path_counters() const;
  std::optional<records::ThermalCounters> thermal_counters() const;

  // Section CTLR: each core's and the data path's busy-until time and
  // counters. A loaded section adopts what this config has of it: the first
  // cores' times (a core beyond the saved ones is free), the data path's,
  // and the counters of the parts on; the rest is read and dropped (the
  // keys are not state: a checkpoint loads into other limits, or none).
  // Optional: a checkpoint without the section loads with free cores and
  // counters from 0, and one with it into a device without the part.
  static constexpr const char* kSection = "CTLR";
  std::optional<PartCheckpoint> checkpoint() const override {
    return PartCheckpoint{kSection, "the controller's limits (controller.firmware, .data_path)",
                          true};
  }
  void save_state(StateWriter& out) const override;
  void load_state(StateReader& in) override;

 private:
  TimeNs cross_data_path(TimeNs at, std::uint64_t bytes);
  void load_thermal(StateReader& in);

  FirmwareCoresConfig firmware_;
  std::vector<SerialResource> cores_;  // empty: no cores model
  SerialResource data_path_;
  std::int64_t fs_per_byte_ = 0;  // 0: no data path model
  std::optional<ThermalThrottle> thermal_;
  records::CoreCounters core_counts_;
  records::DataPathCounters path_counts_;
  TimeNs counted_to_ = 0;  // count_time_to()
};

}  // namespace ssdlab::sim
