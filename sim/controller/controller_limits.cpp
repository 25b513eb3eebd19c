#include "sim/controller/controller_limits.h"

#include <algorithm>

#include "common/error.h"
#include "records/counter_state.h"

namespace ssdlab::sim {

ControllerLimits::ControllerLimits(const ControllerConfig& config, const flash::NandPower& power,
                                   const flash::FlashTimeline& timeline)
    : firmware_(config.firmware),
      cores_(config.firmware.cores),
      fs_per_byte_(config.data_path.on() ? config.data_path.fs_per_byte() : 0) {
  if (config.thermal.on()) thermal_.emplace(config.thermal, power, &timeline);
}

TimeNs ControllerLimits::serve(TimeNs at, IoMode mode) {
  if (cores_.empty()) return at;
  // The earliest free core; the first of those on ties (min_element).
  const auto core = std::min_element(
      cores_.begin(), cores_.end(),
      [](const SerialResource& a, const SerialResource& b) { return a.free < b.free; });
  const TimeNs length = firmware_.time_of(mode);
  const TimeNs end = core->reserve(at, length);
  ++core_counts_.commands;
  core_counts_.busy_ns += length;
  core_counts_.wait_ns += end - length - at;
  return end;
}

TimeNs ControllerLimits::move(TimeNs at, std::uint64_t bytes) {
  const TimeNs crossed = cross_data_path(at, bytes);
  return thermal_ ? thermal_->pass(crossed, bytes) : crossed;
}

TimeNs ControllerLimits::cross_data_path(TimeNs at, std::uint64_t bytes) {
  if (fs_per_byte_ == 0 || bytes == 0) return at;
  const TimeNs length = transfer_time_ns(bytes, fs_per_byte_);
  const TimeNs end = data_path_.reserve(at, length);
  ++path_counts_.transfers;
  path_counts_.bytes += bytes;
  path_counts_.busy_ns += length;
  path_counts_.wait_ns += end - length - at;
  return end;
}

void ControllerLimits::power_lost() {
  for (SerialResource& core : cores_) core.free = 0;
  data_path_.free = 0;
  if (thermal_) thermal_->reset();
}

void ControllerLimits::count_time_to(TimeNs now) {
  if (now <= counted_to_) return;
  const TimeNs span = now - counted_to_;
  core_counts_.available_ns += span * static_cast<TimeNs>(cores_.size());
  if (fs_per_byte_ > 0) path_counts_.available_ns += span;
  counted_to_ = now;
  if (thermal_) thermal_->count_time(now, span);
}

std::optional<records::CoreCounters> ControllerLimits::core_counters() const {
  if (cores_.empty()) return std::nullopt;
  return core_counts_;
}

std::optional<records::DataPathCounters> ControllerLimits::data_path_counters() const {
  if (fs_per_byte_ == 0) return std::nullopt;
  return path_counts_;
}

std::optional<records::ThermalCounters> ControllerLimits::thermal_counters() const {
  if (!thermal_) return std::nullopt;
  return thermal_->counters();
}

void ControllerLimits::save_state(StateWriter& out) const {
  // Version 2: the thermal throttle's state, where on.
  out.section(kSection, 2);
  out.i64(counted_to_);
  out.u64(cores_.size());
  for (const SerialResource& core : cores_) out.i64(core.free);
  records::save_counters(out, core_counts_);
  out.boolean(fs_per_byte_ > 0);
  out.i64(data_path_.free);
  records::save_counters(out, path_counts_);
  out.boolean(thermal_.has_value());
  if (thermal_) thermal_->save_state(out);
}

void ControllerLimits::load_state(StateReader& in) {
  in.section(kSection, 2);
  counted_to_ = in.i64();
  const std::uint64_t cores = in.count(kMaxFirmwareCores, "firmware cores");
  for (std::uint64_t c = 0; c < cores; ++c) {
    const TimeNs free = in.i64();
    if (c < cores_.size()) cores_[c].free = free;
  }
  records::CoreCounters core_counts;
  records::load_counters(in, core_counts, "the controller's");
  if (cores > 0 && !cores_.empty()) core_counts_ = core_counts;
  const bool path = in.boolean();
  const TimeNs path_free = in.i64();
  records::DataPathCounters path_counts;
  records::load_counters(in, path_counts, "the controller's");
  if (path && fs_per_byte_ > 0) {
    data_path_.free = path_free;
    path_counts_ = path_counts;
  }
  load_thermal(in);
  if (counted_to_ < 0 || path_free < 0 ||
      std::any_of(cores_.begin(), cores_.end(), [](const SerialResource& c) { return c.free < 0; }))
    throw Error("a controller clock is negative");
}

// A saved throttle is adopted by a config with one, and read and dropped
// by one without (through a throttle of no config's: its state alone).
void ControllerLimits::load_thermal(StateReader& in) {
  if (!in.boolean()) {
    if (thermal_) thermal_->restart();
    return;
  }
  if (thermal_) return thermal_->load_state(in);
  ThermalConfig any;
  any.throttle_bytes_per_s = 1;
  ThermalThrottle dropped(any, flash::NandPower{}, nullptr);
  dropped.load_state(in);
}

}  // namespace ssdlab::sim
