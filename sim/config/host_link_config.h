// The host link ([host.link]) and the firmware time (host.firmware_us): the
// PCIe link between host and device, whose bandwidth caps the device's
// sequential throughput, and a fixed controller time per command. Off by
// default (no [host.link] table, firmware_us = 0): the host reaches the
// device at no cost, as before. docs/model.md, "The host link and firmware
// time", has the model and its sources.
#pragma once

#include <cstdint>

#include "common/units.h"

namespace ssdlab::sim {

struct HostLinkConfig {
  // PCIe generation 1-5; 0: no link model (the default).
  std::uint32_t generation = 0;
  std::uint32_t lanes = 0;  // 1, 2, 4, 8, 16
  // Payload bytes over link bytes after encoding: a data TLP carries at most
  // kMaxPayload bytes behind kTlpOverhead bytes of framing, sequence number,
  // header and LCRC. 0: that default (link_default_efficiency()).
  double efficiency = 0;
  // Link time of one command's own packets in each direction (doorbells, the
  // submission entry, the completion entry, the interrupt); -1: derived from
  // kCommandBytes at the link's rate (link_default_command_ns()).
  TimeNs command_ns = -1;

  bool on() const { return generation != 0; }
};

// PCIe data TLPs (Intel AN 855 "Protocol Overhead": 6 dwords of overhead
// without ECRC, with a 4-dword header; a max payload size of 256 bytes, the
// common setting, PCIe base spec's Max_Payload_Size 128-4096).
inline constexpr std::uint32_t kMaxPayload = 256;
inline constexpr std::uint32_t kTlpOverhead = 24;
// The link bytes of one NVMe command's own packets host-to-device (the
// larger direction): SQ tail doorbell write (24 + 4), the 64-byte submission
// queue entry's completion TLP (20 + 64) and the CQ head doorbell (24 + 4).
inline constexpr std::uint32_t kCommandBytes = 140;

// Raw data rate of one lane in gigatransfers per second and the fraction the
// line code leaves (8b/10b for generations 1-2, 128b/130b from 3).
double link_lane_gts(std::uint32_t generation);
double link_encoding(std::uint32_t generation);
// kMaxPayload / (kMaxPayload + kTlpOverhead).
double link_default_efficiency();
// Bytes per second on the wire after encoding, all lanes (no TLP overhead).
double link_raw_bytes_per_s(const HostLinkConfig& link);
// Payload bytes per second: raw times efficiency.
double link_payload_bytes_per_s(const HostLinkConfig& link);
// Femtoseconds per payload byte (rounded), what HostLink charges.
std::int64_t link_payload_fs_per_byte(const HostLinkConfig& link);
// kCommandBytes at the raw rate, rounded up to a nanosecond.
TimeNs link_default_command_ns(const HostLinkConfig& link);
// command_ns, or its default.
TimeNs link_command_ns(const HostLinkConfig& link);

}  // namespace ssdlab::sim
