// One host I/O as the device sees it: where, how many bytes, and what it
// does. The one request type of the host path: sources produce it (with
// their timing, sim/engine/io_source.h), the host queue holds it
// (sim/controller/host_queue.h) and the controller serves it
// (sim/controller/ssd.h).
#pragma once

#include <cstdint>

#include "common/io_mode.h"

namespace ssdlab {

struct HostIo {
  std::uint64_t offset = 0;  // bytes, sector aligned, inside the device
  std::uint32_t size = 0;    // bytes, sector aligned, > 0
  IoMode mode = IoMode::kRead;
  // Its placement identifier (ftl.placement; docs/fdp.md): the FDP placement
  // handle or stream its data goes to; 0 is the default handle (TP4146: a
  // write without one uses placement handle 0). Its bits kPlacementIdMask
  // hold the identifier; kRuhUpdate says that an I/O Management Send
  // (TP4146's Reclaim Unit Handle Update) for that identifier came before
  // this write (plan key ruh_update_every; docs/fdp.md). Beside `mode`, so
  // that the struct stays 16 bytes.
  std::uint8_t placement = 0;
  // The tenant (flow) it belongs to: its index among the workloads of a run
  // that several share (0 with one). The flash scheduler's fewest-queued order
  // (flash/scheduler.h) and the per-tenant statistics tell flows apart by it.
  std::uint16_t flow = 0;
};
// HostIo::placement's parts: the identifier, and the update before the write.
constexpr std::uint8_t kPlacementIdMask = 0x7f;
constexpr std::uint8_t kRuhUpdate = 0x80;

static_assert(sizeof(HostIo) == 16, "HostIo is copied on every I/O's path");

}  // namespace ssdlab
