#include "sim/controller/host_link.h"

#include <algorithm>

namespace ssdlab::sim {

HostLink::HostLink(const HostLinkConfig& config)
    : fs_per_byte_(link_payload_fs_per_byte(config)), command_ns_(link_command_ns(config)) {}

TimeNs HostLink::transfer_ns(std::uint64_t bytes) const {
  // Rounded up to the nanosecond: a transfer never ends before its last byte.
  constexpr std::int64_t kFsPerNs = 1'000'000;
  const auto data_fs = static_cast<std::int64_t>(bytes) * fs_per_byte_;
  return command_ns_ + (data_fs + kFsPerNs - 1) / kFsPerNs;
}

TimeNs HostLink::reserve(Direction& direction, TimeNs at, std::uint64_t bytes) {
  const TimeNs length = transfer_ns(bytes);
  direction.free = std::max(at, direction.free) + length;
  direction.busy += length;
  return direction.free;
}

}  // namespace ssdlab::sim
