// The controller's thermal throttle ([controller.thermal];
// sim/config/controller_limits_config.h; docs/model.md "Energy and thermal
// throttling"), a resource of the controller's limits (controller_limits.h)
// that every host data byte crosses after the data path.
//
// The drive is one thermal node: its temperature T approaches
// idle_c + R x P, with P the power of the work under way, at the time
// constant tau (Newton's law of cooling), stepped every 10 ms of simulated
// time (forward Euler: plain IEEE arithmetic, so that runs are
// reproducible). P over an interval is the energy spent in it over its
// length: the flash's (the timeline's array and bus time at the [power]
// currents, counted when a command is scheduled, up to a few milliseconds
// ahead of its run) and the controller's (controller_nj_per_byte per host
// byte passed). At or above throttle_c the throttle engages: host data
// then crosses a first-come, first-served resource at throttle_mb_s, so the
// flash's power falls with the rate; below release_c it lets go. With a
// heavy level, at or above heavy_c the rate is heavy_mb_s, down to as far
// below heavy_c as release_c is below throttle_c. Until then a byte passes
// at once.
#pragma once

#include <array>
#include <cstdint>

#include "common/state_io.h"
#include "common/units.h"
#include "flash/nand_power.h"
#include "flash/timeline.h"
#include "records/controller_counters.h"
#include "sim/config/controller_limits_config.h"
#include "sim/controller/serial_resource.h"

namespace ssdlab::sim {

class ThermalThrottle {
 public:
  // The time step of the temperature.
  static constexpr TimeNs kStepNs = 10'000'000;

  // (`timeline` null: a throttle that only reads a saved state.)
  ThermalThrottle(const ThermalConfig& config, const flash::NandPower& power,
                  const flash::FlashTimeline* timeline);

  // `bytes` of host data reaching the throttle at `at` (nondecreasing):
  // returns when they have passed it.
  TimeNs pass(TimeNs at, std::uint64_t bytes);
  // A power cut: the throttle's reservations are lost (the temperature is
  // kept: the drive does not cool in no time).
  void reset() { resource_.free = 0; }
  // Brings the temperature and the counters to `now`, `span` of simulated
  // time after the last count (the controller's limits keep that clock).
  void count_time(TimeNs now, TimeNs span);

  double temperature_c() const { return temperature_c_; }
  bool throttled() const { return level_ > 0; }
  // 0: not throttled; 1: throttled; 2: at the heavy level.
  std::uint8_t level() const { return level_; }
  const records::ThermalCounters& counters() const { return counts_; }

  // Part of the controller limits' section CTLR.
  void save_state(StateWriter& out) const;
  void load_state(StateReader& in);
  // A state without the throttle's (saved with it off): it starts at idle
  // from the loaded flash's energy on.
  void restart();

 private:
  // The flash's energy so far, and the controller's, in nanojoules.
  double energy_nj() const;
  void advance_to(TimeNs at);
  void step(double power_w);
  // The level for the temperature now, from the level before (hysteresis).
  std::uint8_t level_now() const;
  // Moves to `level` at `t`, counting the episodes and the time throttled.
  void enter(std::uint8_t level, TimeNs t);

  ThermalConfig config_;
  flash::NandPower power_;
  const flash::FlashTimeline* timeline_;
  std::array<std::int64_t, 3> fs_per_byte_;  // by level: 0, throttle_mb_s, heavy_mb_s

  double temperature_c_;
  bool started_ = false;     // at_ and counted_nj_ hold the first pass's
  TimeNs at_ = 0;            // the temperature's time: a whole step after the first pass
  double counted_nj_ = 0;    // the energy the steps so far took into account
  std::uint64_t bytes_ = 0;  // host bytes passed, for the controller's energy
  std::uint8_t level_ = 0;
  TimeNs throttled_since_ = 0;  // (counted into throttled_ns up to here)
  TimeNs heavy_since_ = 0;      // (counted into heavy_ns up to here)
  SerialResource resource_;
  records::ThermalCounters counts_;
};

}  // namespace ssdlab::sim
