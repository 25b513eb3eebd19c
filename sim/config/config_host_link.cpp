// The host link ([host.link]) and firmware time (host.firmware_us), a
// config part (config_part.h): their keys read and checked, echoed (only
// where set, so that other configs echo as before) and described; and the
// link's rates (host_link_config.h).
#include <fmt/format.h>

#include <cmath>

#include "common/units.h"
#include "sim/config/config_part.h"
#include "sim/config/host_link_config.h"

namespace ssdlab::sim {

// PCI Express Base Specification (PCI-SIG), Physical Layer: 2.5 GT/s (1.x),
// 5.0 (2.x), 8.0 (3.x), 16.0 (4.0), 32.0 GT/s (5.0) per lane; 8b/10b
// encoding up to 5.0 GT/s, 128b/130b from 8.0 GT/s (Intel AN 855 and AN 690,
// "Protocol Overhead": 250 and 500 MB/s per lane for Gen1 and Gen2, 1.56%
// for Gen3's 128b/130b).
double link_lane_gts(std::uint32_t generation) {
  constexpr double kGts[] = {0, 2.5, 5.0, 8.0, 16.0, 32.0};
  return generation < 6 ? kGts[generation] : 0;
}

double link_encoding(std::uint32_t generation) {
  return generation < 3 ? 8.0 / 10.0 : 128.0 / 130.0;
}

double link_default_efficiency() {
  return double{kMaxPayload} / double{kMaxPayload + kTlpOverhead};
}

double link_raw_bytes_per_s(const HostLinkConfig& link) {
  return link_lane_gts(link.generation) * 1e9 * link_encoding(link.generation) / 8.0 * link.lanes;
}

double link_payload_bytes_per_s(const HostLinkConfig& link) {
  return link_raw_bytes_per_s(link) *
         (link.efficiency > 0 ? link.efficiency : link_default_efficiency());
}

std::int64_t link_payload_fs_per_byte(const HostLinkConfig& link) {
  return std::llround(1e15 / link_payload_bytes_per_s(link));
}

TimeNs link_default_command_ns(const HostLinkConfig& link) {
  return static_cast<TimeNs>(std::ceil(kCommandBytes * 1e9 / link_raw_bytes_per_s(link)));
}

TimeNs link_command_ns(const HostLinkConfig& link) {
  return link.command_ns >= 0 ? link.command_ns : link_default_command_ns(link);
}

namespace {

void read_host_link(KeyReader& r, DeviceConfig& config) {
  ControllerConfig& c = config.controller;
  // A latency per command, not a resource: 0 to 1 s.
  r.scaled("host", "firmware_us", c.firmware_ns, 1000.0, 0.0, 1e6);
  HostLinkConfig& link = c.link;
  const auto [generation, generation_key] = r.find("host.link", "generation");
  const auto [lanes, lanes_key] = r.find("host.link", "lanes");
  r.integer("host.link", "generation", link.generation, 1, 5);
  r.integer("host.link", "lanes", link.lanes, 1, 16);
  r.real("host.link", "efficiency", link.efficiency, 0.0, 1.0, false);
  r.scaled("host.link", "command_overhead_ns", link.command_ns, 1.0, 0.0, 1e6);
  // No key of [host.link]: no link model.
  if (!generation && !lanes && link.efficiency == 0 && link.command_ns < 0) return;
  if (!generation) r.fail(generation_key, nullptr, "a [host.link] table needs a generation (1-5)");
  if (!lanes) r.fail(lanes_key, nullptr, "a [host.link] table needs lanes (1, 2, 4, 8 or 16)");
  if (link.lanes & (link.lanes - 1))
    r.fail(lanes_key, lanes,
           fmt::format("{} is not a PCIe link width: allowed 1, 2, 4, 8 or 16", link.lanes));
}

void host_link_json(const DeviceConfig& config, nlohmann::json& echo) {
  const ControllerConfig& c = config.controller;
  nlohmann::json& host = echo["host"];
  if (c.firmware_ns > 0) host["firmware_us"] = c.firmware_ns / 1000.0;
  if (!c.link.on()) return;
  nlohmann::json link = {{"generation", c.link.generation}, {"lanes", c.link.lanes}};
  if (c.link.efficiency > 0) link["efficiency"] = c.link.efficiency;
  if (c.link.command_ns >= 0) link["command_overhead_ns"] = c.link.command_ns;
  host["link"] = std::move(link);
}

void describe_host_link(const DeviceConfig& config, std::string& text) {
  const ControllerConfig& c = config.controller;
  if (c.link.on()) {
    const HostLinkConfig& link = c.link;
    text += fmt::format(
        "  host link   PCIe gen{} x{}: {:.0f} MB/s on the wire, {:.0f} MB/s of data each way "
        "({:.1f}% efficiency), {} ns of link time per command\n",
        link.generation, link.lanes, link_raw_bytes_per_s(link) / 1e6,
        link_payload_bytes_per_s(link) / 1e6,
        100 * (link.efficiency > 0 ? link.efficiency : link_default_efficiency()),
        link_command_ns(link));
  }
  if (c.firmware_ns > 0)
    text += fmt::format("  firmware    {} us per command before it reaches the flash\n",
                        format_us(c.firmware_ns));
}

constexpr KeyDoc kLinkKeys[] = {
    {"generation", "1–5: 2.5, 5, 8, 16, 32 GT/s per lane; required in the table"},
    {"lanes", "1, 2, 4, 8, 16; required in the table"},
    {"efficiency",
     "above 0 to 1: payload bytes per link byte after encoding; default 256 / 280 = 0.914, "
     "256-byte max payload behind 24 bytes of TLP overhead"},
    {"command_overhead_ns",
     "0 to 10^6: link time of a command's own packets in each direction; default 140 bytes at "
     "the link's raw rate"},
};
constexpr TableDoc kLinkTables[] = {
    {"host.link", "[host.link]",
     "the PCIe link to the host; no table (the default): no link, the host reaches the device "
     "at no cost (see [The host link and firmware "
     "time](../model.md#the-host-link-and-firmware-time))",
     kLinkKeys},
};

}  // namespace

extern const ConfigPart host_link_part{kLinkTables, &read_host_link, &host_link_json,
                                       &describe_host_link};

}  // namespace ssdlab::sim
