// The controller's limits ([controller.firmware], [controller.data_path];
// controller_limits_config.h), a config part (config_part.h): their keys
// read and checked, echoed (only where set, so that other configs echo as
// before) and described.
#include <fmt/format.h>

#include <array>
#include <cmath>

#include "common/units.h"
#include "sim/config/config_part.h"
#include "sim/config/controller_limits_config.h"

namespace ssdlab::sim {

std::int64_t DataPathConfig::fs_per_byte() const { return std::llround(1e15 / bytes_per_s); }

namespace {

constexpr const char* kFirmware = "controller.firmware";
constexpr const char* kTimeKeys[] = {"read_us", "write_us", "trim_us", "zone_management_us"};

// The member of kTimeKeys[key], of a FirmwareCoresConfig const or not.
template <typename F>
auto time_of(F& f, int key) {
  const std::array times{&f.read_ns, &f.write_ns, &f.trim_ns, &f.zone_management_ns};
  return times[key];
}

void read_controller_limits(KeyReader& r, DeviceConfig& config) {
  ControllerConfig& c = config.controller;
  FirmwareCoresConfig& f = c.firmware;
  const auto [cores, cores_key] = r.find(kFirmware, "cores");
  r.integer(kFirmware, "cores", f.cores, 1, kMaxFirmwareCores);
  bool any_time = false;
  for (int k = 0; k < 4; ++k) {
    // Like host.firmware_us: 0 to 1 s per command.
    any_time |= r.find(kFirmware, kTimeKeys[k]).first != nullptr;
    r.scaled(kFirmware, kTimeKeys[k], *time_of(f, k), 1000.0, 0.0, 1e6);
  }
  if (any_time && !cores)
    r.fail(cores_key, nullptr,
           fmt::format("a [controller.firmware] table needs cores (1-{}): the times are what "
                       "each command holds one for",
                       kMaxFirmwareCores));
  // 1 byte/s to 1 TB/s; above 0 (0 would never move a byte).
  r.real("controller.data_path", "bytes_per_s", c.data_path.bytes_per_s, 0.0, 1e12, false);
}

void controller_limits_json(const DeviceConfig& config, nlohmann::json& echo) {
  const ControllerConfig& c = config.controller;
  nlohmann::json& controller = echo["controller"];
  if (c.firmware.on()) {
    nlohmann::json firmware = {{"cores", c.firmware.cores}};
    for (int k = 0; k < 4; ++k)
      firmware[kTimeKeys[k]] = *time_of(c.firmware, k) / 1000.0;
    controller["firmware"] = std::move(firmware);
  }
  if (c.data_path.on()) controller["data_path"] = {{"bytes_per_s", c.data_path.bytes_per_s}};
}

void describe_controller_limits(const DeviceConfig& config, std::string& text) {
  const ControllerConfig& c = config.controller;
  if (const FirmwareCoresConfig& f = c.firmware; f.on())
    text += fmt::format(
        "  cores       {} firmware core{}, per command: read {} us, write {} us, trim {} us, "
        "zone management {} us\n",
        f.cores, f.cores > 1 ? "s" : "", format_us(f.read_ns), format_us(f.write_ns),
        format_us(f.trim_ns), format_us(f.zone_management_ns));
  if (c.data_path.on())
    text += fmt::format("  data path   {:.0f} MB/s of host data (reads and writes share it)\n",
                        c.data_path.bytes_per_s / 1e6);
}

constexpr KeyDoc kFirmwareKeys[] = {
    {"cores",
     "1–256, required in the table: servers each host command takes, the earliest free first, "
     "in the order commands reach the controller"},
    {"read_us", "0 to 10^6, default 0: the core time of a read before its flash work"},
    {"write_us",
     "0 to 10^6, default 0: the core time of a write or zone append before its flash work"},
    {"trim_us", "0 to 10^6, default 0: the core time of a trim"},
    {"zone_management_us",
     "0 to 10^6, default 0: the core time of a zone reset, finish, open, close or explicit ZRWA "
     "flush"},
};
constexpr KeyDoc kDataPathKeys[] = {
    {"bytes_per_s",
     "above 0 to 10^12: the rate of one first-come, first-served resource every host data byte "
     "crosses once, a write's before its flash work, a read's after it; reads and writes share "
     "it"},
};
constexpr TableDoc kLimitsTables[] = {
    {"controller.firmware", "[controller.firmware]",
     "the firmware's cores; no table (the default): none. N cores at *t* µs cap a kind of "
     "command at N / *t* per µs. May be set with `host.firmware_us`, which adds a delay no core "
     "serves (see [Controller cores and data path](../model.md#controller-cores-and-data-path))",
     kFirmwareKeys},
    {"controller.data_path", "[controller.data_path]",
     "the controller's data path (DRAM, ECC); no table (the default): none (see [Controller "
     "cores and data path](../model.md#controller-cores-and-data-path))",
     kDataPathKeys},
};

}  // namespace

extern const ConfigPart controller_limits_part{kLimitsTables, &read_controller_limits,
                                               &controller_limits_json,
                                               &describe_controller_limits};

}  // namespace ssdlab::sim
