// The controller's limits ([controller.firmware], [controller.data_path];
// controller_limits_config.h): their keys read and checked, echoed (only
// where set, so that other configs echo as before) and described.
#include <fmt/format.h>

#include <array>
#include <cmath>

#include "common/units.h"
#include "sim/config/config_reader.h"
#include "sim/config/controller_limits_config.h"

namespace ssdlab::sim {

std::int64_t DataPathConfig::fs_per_byte() const { return std::llround(1e15 / bytes_per_s); }

namespace config_detail {
namespace {

constexpr const char* kFirmware = "controller.firmware";
constexpr const char* kTimeKeys[] = {"read_us", "write_us", "trim_us", "zone_management_us"};

// The member of kTimeKeys[key], of a FirmwareCoresConfig const or not.
template <typename F>
auto time_of(F& f, int key) {
  const std::array times{&f.read_ns, &f.write_ns, &f.trim_ns, &f.zone_management_ns};
  return times[key];
}

}  // namespace

void read_controller_limits(KeyReader& r, ControllerConfig& c) {
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

void controller_limits_json(const ControllerConfig& c, nlohmann::json& controller) {
  if (c.firmware.on()) {
    nlohmann::json firmware = {{"cores", c.firmware.cores}};
    for (int k = 0; k < 4; ++k)
      firmware[kTimeKeys[k]] = *time_of(c.firmware, k) / 1000.0;
    controller["firmware"] = std::move(firmware);
  }
  if (c.data_path.on()) controller["data_path"] = {{"bytes_per_s", c.data_path.bytes_per_s}};
}

std::string describe_controller_limits(const ControllerConfig& c) {
  std::string text;
  if (const FirmwareCoresConfig& f = c.firmware; f.on())
    text += fmt::format(
        "  cores       {} firmware core{}, per command: read {} us, write {} us, trim {} us, "
        "zone management {} us\n",
        f.cores, f.cores > 1 ? "s" : "", format_us(f.read_ns), format_us(f.write_ns),
        format_us(f.trim_ns), format_us(f.zone_management_ns));
  if (c.data_path.on())
    text += fmt::format("  data path   {:.0f} MB/s of host data (reads and writes share it)\n",
                        c.data_path.bytes_per_s / 1e6);
  return text;
}

}  // namespace config_detail

}  // namespace ssdlab::sim
