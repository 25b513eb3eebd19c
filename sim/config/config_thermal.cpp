// The controller's thermal throttle ([controller.thermal];
// controller_limits_config.h), a config part (config_part.h): the table
// switches it on; its keys read and checked, echoed (only with the table)
// and described. docs/model.md, "Energy and thermal throttling", has the
// model and its sources.
#include <fmt/format.h>

#include "sim/config/config_part.h"
#include "sim/config/controller_limits_config.h"

namespace ssdlab::sim {
namespace {

constexpr const char* kThermal = "controller.thermal";
constexpr const char* kRequired[] = {"idle_c", "resistance_c_per_w", "time_constant_s",
                                     "throttle_c", "throttle_mb_s"};

constexpr KeyDoc kThermalKeys[] = {
    {"idle_c", "-40 to 150, required in the table: the drive's temperature when idle (°C)"},
    {"resistance_c_per_w",
     "above 0 to 1000, required: the temperature rise over idle_c that one watt held for long "
     "gives (°C/W)"},
    {"time_constant_s",
     "above 0 to 10^5, required: the time the temperature takes to cover 63% of the way to "
     "that rise (s)"},
    {"throttle_c", "above idle_c to 200, required: throttling starts at or above this (°C)"},
    {"release_c",
     "above idle_c to below throttle_c, default throttle_c - 2: throttling ends below this"},
    {"throttle_mb_s",
     "above 0 to 10^6, required: the host data rate (MB/s, reads and writes together) while "
     "throttled"},
    {"heavy_c",
     "above throttle_c to 200, default none: a second, heavy level starts at or above this "
     "(NVMe's TMT2), and ends as far below it as release_c is below throttle_c"},
    {"heavy_mb_s", "above 0 to below throttle_mb_s, required with heavy_c: the rate at that level"},
    {"controller_nj_per_byte",
     "0 to 10^4, default 0: the controller's energy per host byte moved (DRAM, ECC, PHY), which "
     "heats the drive with the flash's"},
};

// The heavy level: both keys or neither.
void read_heavy(KeyReader& r, ThermalConfig& t) {
  const auto [heavy, heavy_key] = r.find(kThermal, "heavy_c");
  const auto [rate, rate_key] = r.find(kThermal, "heavy_mb_s");
  r.real(kThermal, "heavy_c", t.heavy_c, t.throttle_c, 200.0, false);
  double mb_s = 0;
  r.real(kThermal, "heavy_mb_s", mb_s, 0.0, t.throttle_bytes_per_s / 1e6, false);
  if (heavy && !rate)
    r.fail(rate_key, nullptr,
           "a heavy level (controller.thermal.heavy_c) needs its rate, heavy_mb_s");
  if (rate && !heavy)
    r.fail(heavy_key, nullptr, "heavy_mb_s needs the heavy level's temperature, heavy_c");
  if (rate && !(mb_s * 1e6 < t.throttle_bytes_per_s))
    r.fail(rate_key, rate,
           fmt::format("must be below throttle_mb_s ({})", t.throttle_bytes_per_s / 1e6));
  t.heavy_bytes_per_s = mb_s * 1e6;
}

void read_thermal(KeyReader& r, DeviceConfig& config) {
  if (!r.has_table(kThermal)) {
    for (const KeyDoc& key : kThermalKeys) r.find(kThermal, std::string(key.key).c_str());
    return;
  }
  for (const char* key : kRequired)
    if (const auto [node, dotted] = r.find(kThermal, key); !node)
      r.fail(dotted, nullptr,
             fmt::format("a [controller.thermal] table needs {} (docs/model.md, \"Energy and "
                         "thermal throttling\")",
                         key));
  ThermalConfig& t = config.controller.thermal;
  t.enabled = true;
  r.real(kThermal, "idle_c", t.idle_c, -40.0, 150.0);
  r.real(kThermal, "resistance_c_per_w", t.resistance_c_per_w, 0.0, 1000.0, false);
  r.real(kThermal, "time_constant_s", t.time_constant_s, 0.0, 1e5, false);
  r.real(kThermal, "throttle_c", t.throttle_c, t.idle_c, 200.0, false);
  t.release_c = t.throttle_c - 2.0;
  const auto [release, release_key] = r.find(kThermal, "release_c");
  r.real(kThermal, "release_c", t.release_c, t.idle_c, t.throttle_c, false);
  if (release && !(t.release_c < t.throttle_c))
    r.fail(release_key, release, fmt::format("must be below throttle_c ({})", t.throttle_c));
  if (!release && !(t.release_c > t.idle_c))
    r.fail(release_key, nullptr,
           fmt::format("the default release_c, throttle_c - 2 = {}, is not above idle_c ({}): "
                       "set release_c",
                       t.release_c, t.idle_c));
  double mb_s = 0;
  r.real(kThermal, "throttle_mb_s", mb_s, 0.0, 1e6, false);
  t.throttle_bytes_per_s = mb_s * 1e6;
  r.real(kThermal, "controller_nj_per_byte", t.controller_nj_per_byte, 0.0, 1e4);
  read_heavy(r, t);
}

void thermal_json(const DeviceConfig& config, nlohmann::json& echo) {
  const ThermalConfig& t = config.controller.thermal;
  if (!t.on()) return;
  echo["controller"]["thermal"] = {{"idle_c", t.idle_c},
                                   {"resistance_c_per_w", t.resistance_c_per_w},
                                   {"time_constant_s", t.time_constant_s},
                                   {"throttle_c", t.throttle_c},
                                   {"release_c", t.release_c},
                                   {"throttle_mb_s", t.throttle_bytes_per_s / 1e6},
                                   {"controller_nj_per_byte", t.controller_nj_per_byte}};
  if (t.heavy_on()) {
    echo["controller"]["thermal"]["heavy_c"] = t.heavy_c;
    echo["controller"]["thermal"]["heavy_mb_s"] = t.heavy_bytes_per_s / 1e6;
  }
}

void describe_thermal(const DeviceConfig& config, std::string& out) {
  const ThermalConfig& t = config.controller.thermal;
  if (!t.on()) return;
  out += fmt::format(
      "  thermal     {} °C idle, {} °C/W, time constant {} s; at {} °C host data at {} MB/s "
      "until below {} °C; controller {} nJ per host byte\n",
      t.idle_c, t.resistance_c_per_w, t.time_constant_s, t.throttle_c, t.throttle_bytes_per_s / 1e6,
      t.release_c, t.controller_nj_per_byte);
  if (t.heavy_on())
    out +=
        fmt::format("              heavy level at {} °C: host data at {} MB/s until below {} °C\n",
                    t.heavy_c, t.heavy_bytes_per_s / 1e6, t.heavy_c - (t.throttle_c - t.release_c));
}

constexpr TableDoc kThermalTables[] = {
    {"controller.thermal", "[controller.thermal]",
     "the controller's thermal throttle; no table (the default): none. The drive's temperature "
     "follows the power of the flash's work and the controller's; at throttle_c the controller "
     "slows host data to throttle_mb_s until the drive cools below release_c, and with heavy_c "
     "to heavy_mb_s at a second level (see [Energy and thermal "
     "throttling](../model.md#energy-and-thermal-throttling))",
     kThermalKeys},
};

}  // namespace

extern const ConfigPart thermal_part{kThermalTables, &read_thermal, &thermal_json,
                                     &describe_thermal};

}  // namespace ssdlab::sim
