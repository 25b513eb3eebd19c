#include "sim/controller/host_link.h"

namespace ssdlab::sim {

HostLink::HostLink(const HostLinkConfig& config)
    : fs_per_byte_(link_payload_fs_per_byte(config)), command_ns_(link_command_ns(config)) {}

TimeNs HostLink::transfer_ns(std::uint64_t bytes) const {
  return command_ns_ + transfer_time_ns(bytes, fs_per_byte_);
}

}  // namespace ssdlab::sim
