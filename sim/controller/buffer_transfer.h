// The time the controller takes to move bytes between the host interface
// and its DRAM (controller.write_buffer_ns_per_byte): what a write-buffer
// hit costs (write_buffer_front.cpp) and what a read of unwritten pages
// costs (SsdCore::flash_read; docs/model.md, "Reads of unwritten pages").
#pragma once

#include <cstdint>

#include "common/units.h"
#include "sim/config/config.h"

namespace ssdlab::sim {

// `bytes` at buffer_ps_per_byte, rounded to the nearest nanosecond.
inline TimeNs buffer_transfer_ns(const ControllerConfig& controller, std::uint64_t bytes) {
  return static_cast<TimeNs>((bytes * controller.buffer_ps_per_byte + 500) / 1000);
}

}  // namespace ssdlab::sim
