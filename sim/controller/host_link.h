// The host link (PCIe, [host.link]; sim/config/host_link_config.h): a
// full-duplex serial link, host-to-device (commands, write data) and
// device-to-host (read data, completions), each direction a FIFO resource
// free from a time on. A transfer reserves its direction from max(at, free)
// for the command's own link time plus its data at the payload rate, and
// ends there; transfers queue in the order they are asked for. The host
// loop owns one (sim/engine/simulator.h) when the config has a link.
#pragma once

#include <cstdint>

#include "common/units.h"
#include "sim/config/host_link_config.h"
#include "sim/controller/serial_resource.h"

namespace ssdlab::sim {

class HostLink {
 public:
  explicit HostLink(const HostLinkConfig& config);

  // A command and `bytes` of its data to the device, asked for at `at`;
  // returns when the last byte has arrived.
  TimeNs to_device(TimeNs at, std::uint64_t bytes) {
    return to_device_.reserve(at, transfer_ns(bytes));
  }
  // A completion and `bytes` of read data to the host.
  TimeNs to_host(TimeNs at, std::uint64_t bytes) { return to_host_.reserve(at, transfer_ns(bytes)); }
  // The link time of one transfer of `bytes` (the command's time included).
  TimeNs transfer_ns(std::uint64_t bytes) const;
  // A power cut: what was on the link is lost; both directions are free.
  void reset() { to_device_.free = to_host_.free = 0; }
  // Time each direction has been busy, all transfers so far.
  TimeNs busy_to_device_ns() const { return to_device_.busy; }
  TimeNs busy_to_host_ns() const { return to_host_.busy; }

 private:
  std::int64_t fs_per_byte_;  // payload, femtoseconds
  TimeNs command_ns_;
  SerialResource to_device_, to_host_;  // the two directions
};

}  // namespace ssdlab::sim
