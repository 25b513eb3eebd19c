#include "sim/controller/thermal_throttle.h"

#include <algorithm>
#include <cmath>

#include "common/error.h"
#include "records/counter_state.h"

namespace ssdlab::sim {

ThermalThrottle::ThermalThrottle(const ThermalConfig& config, const flash::NandPower& power,
                                 const flash::FlashTimeline* timeline)
    : config_(config),
      power_(power),
      timeline_(timeline),
      fs_per_byte_{0, std::llround(1e15 / config.throttle_bytes_per_s),
                   config.heavy_on() ? std::llround(1e15 / config.heavy_bytes_per_s) : 0},
      temperature_c_(config.idle_c) {}

double ThermalThrottle::energy_nj() const {
  return static_cast<double>(timeline_->energy(power_).total_nj()) +
         config_.controller_nj_per_byte * static_cast<double>(bytes_);
}

// One step of the temperature toward its target at `power_w`.
void ThermalThrottle::step(double power_w) {
  const double target = config_.idle_c + config_.resistance_c_per_w * power_w;
  const double k = static_cast<double>(kStepNs) / (config_.time_constant_s * 1e9);
  temperature_c_ = k >= 1.0 ? target : temperature_c_ + (target - temperature_c_) * k;
}

void ThermalThrottle::advance_to(TimeNs at) {
  if (!started_) {
    started_ = true;
    at_ = at;
    counted_nj_ = energy_nj();
    return;
  }
  if (at < at_ + kStepNs) return;
  const TimeNs steps = (at - at_) / kStepNs;
  // The energy spent since at_, spread evenly up to `at`: the steps take
  // their share and leave the rest to the next call.
  const double power_w = (energy_nj() - counted_nj_) / static_cast<double>(at - at_);
  counted_nj_ += power_w * static_cast<double>(steps * kStepNs);
  // After 50 time constants at one power the temperature has reached its
  // target (to e^-50): later steps change nothing.
  const double tau_steps = config_.time_constant_s * 1e9 / static_cast<double>(kStepNs);
  const TimeNs stepped = std::min<TimeNs>(steps, static_cast<TimeNs>(50.0 * tau_steps) + 1);
  for (TimeNs s = 1; s <= steps; ++s) {
    if (s <= stepped) step(power_w);
    enter(level_now(), at_ + s * kStepNs);
    if (s > stepped) break;  // (constant from here: no transition either)
  }
  at_ += steps * kStepNs;
}

std::uint8_t ThermalThrottle::level_now() const {
  const double t = temperature_c_, gap = config_.throttle_c - config_.release_c;
  if (config_.heavy_on() && (t >= config_.heavy_c || (level_ == 2 && t >= config_.heavy_c - gap)))
    return 2;
  if (t >= config_.throttle_c || (level_ >= 1 && t >= config_.release_c)) return 1;
  return 0;
}

void ThermalThrottle::enter(std::uint8_t level, TimeNs t) {
  if (level == level_) return;
  if (level_ == 0) {
    ++counts_.throttles;
    throttled_since_ = t;
  }
  if (level == 0) counts_.throttled_ns += t - throttled_since_;
  if (level_ == 2) counts_.heavy_ns += t - heavy_since_;
  if (level == 2) heavy_since_ = t;
  level_ = level;
}

TimeNs ThermalThrottle::pass(TimeNs at, std::uint64_t bytes) {
  advance_to(at);
  bytes_ += bytes;
  // Throttled, data waits its turn at throttle_mb_s; once released, what
  // was queued still goes first (first come, first served).
  if (level_ > 0 && bytes > 0)
    return resource_.reserve(at, transfer_time_ns(bytes, fs_per_byte_[level_]));
  return std::max(at, resource_.free);
}

void ThermalThrottle::count_time(TimeNs now, TimeNs span) {
  advance_to(now);
  if (level_ > 0 && now > throttled_since_) {
    counts_.throttled_ns += now - throttled_since_;
    throttled_since_ = now;
  }
  if (level_ == 2 && now > heavy_since_) {
    counts_.heavy_ns += now - heavy_since_;
    heavy_since_ = now;
  }
  counts_.available_ns += span;
}

void ThermalThrottle::restart() {
  started_ = false;
  temperature_c_ = config_.idle_c;
  level_ = 0;
  bytes_ = 0;
}

void ThermalThrottle::save_state(StateWriter& out) const {
  out.f64(temperature_c_);
  out.boolean(started_);
  out.i64(at_);
  out.f64(counted_nj_);
  out.u64(bytes_);
  out.u8(level_);
  out.i64(throttled_since_);
  out.i64(heavy_since_);
  out.i64(resource_.free);
  records::save_counters(out, counts_);
}

void ThermalThrottle::load_state(StateReader& in) {
  temperature_c_ = in.f64();
  started_ = in.boolean();
  at_ = in.i64();
  counted_nj_ = in.f64();
  bytes_ = in.u64();
  level_ = in.u8();
  throttled_since_ = in.i64();
  heavy_since_ = in.i64();
  resource_.free = in.i64();
  records::load_counters(in, counts_, "the thermal throttle's");
  if (!std::isfinite(temperature_c_) || !std::isfinite(counted_nj_) || at_ < 0 ||
      throttled_since_ < 0 || heavy_since_ < 0 || level_ > 2 || resource_.free < 0)
    throw Error("the thermal throttle's state is out of range");
}

}  // namespace ssdlab::sim
