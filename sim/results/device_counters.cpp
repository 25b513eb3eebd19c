#include "sim/results/device_counters.h"

#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "common/flash_ratios.h"
#include "records/walk.h"
#include "sim/results/device_counter_fields.h"

namespace ssdlab::sim {
namespace {

// Each counter of the field lists (device_counter_fields.h and records/)
// of `a` and `b`: op(a's, b's), into a; per-pool counts element by element,
// counts by name key by key. Devices with and without a write buffer (cell
// counters, suspend counters) are a logic_error.
template <typename T>
struct IsNamed : std::false_type {};
template <typename T>
struct IsNamed<std::map<std::string, T>> : std::true_type {};

// op(value, other) for a counter; element by element for per-pool counts;
// key by key for counts by name and for the registered parts' records.
template <typename T, typename Op>
void combine_value(T& value, const T& other, Op op) {
  if constexpr (std::is_same_v<T, std::vector<std::uint64_t>>) {
    if (value.size() != other.size())
      throw std::logic_error("per-pool counters of different devices");
    for (std::size_t i = 0; i < value.size(); ++i) value[i] = op(value[i], other[i]);
  } else if constexpr (IsNamed<T>::value) {
    for (const auto& [key, item] : other) combine_value(value[key], item, op);
  } else {
    value = op(value, other);
  }
}

template <typename Op>
void combine(DeviceCounters& a, const DeviceCounters& b, Op op) {
  records::pairwise(a, b,
                    [op](auto& value, const auto& other) { combine_value(value, other, op); });
}

double us(TimeNs ns) { return static_cast<double>(ns) / 1000.0; }

double mean_us(TimeNs ns, std::uint64_t samples) {
  return samples == 0 ? 0.0 : us(ns) / static_cast<double>(samples);
}

}  // namespace

DeviceCounters::AccessTime DeviceCounters::access_time() const {
  const std::uint64_t cleanings = ftl.blocks_cleaned + ftl.wear_migrations;
  const TimeNs writes_ns = host_write_flash_ns + cleaning_flash_ns;
  const std::uint64_t write_samples = host_write_accesses + cleanings;
  AccessTime a;
  a.samples = host_read_accesses + write_samples;
  a.read_us = mean_us(host_read_flash_ns, host_read_accesses);
  a.write_us = mean_us(writes_ns, write_samples);
  a.mean_us = mean_us(host_read_flash_ns + writes_ns, a.samples);
  return a;
}

std::optional<double> DeviceCounters::host_log_write_amplification() const {
  if (!host_log || host_log->host_pages == 0) return std::nullopt;
  return ssdlab::write_amplification(host_log->host_pages + host_log->cleaning_pages,
                                     host_log->host_pages);
}

std::optional<double> DeviceCounters::end_to_end_write_amplification() const {
  if (!host_log || host_log->host_pages == 0) return std::nullopt;
  return ssdlab::write_amplification(ftl.flash_pages_written, host_log->host_pages);
}

DeviceCounters operator-(const DeviceCounters& after, const DeviceCounters& before) {
  DeviceCounters delta = after;
  combine(delta, before, [](auto a, auto b) { return a - b; });
  return delta;
}

DeviceCounters& operator+=(DeviceCounters& sum, const DeviceCounters& more) {
  combine(sum, more, [](auto a, auto b) { return a + b; });
  return sum;
}

}  // namespace ssdlab::sim
