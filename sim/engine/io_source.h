// Where the host's I/Os come from: a plan's uFLIP processes, a trace, or
// several traces at once. Every source feeds the one host loop
// (sim/engine/simulator.h), so that every host-side feature (host queue, write
// buffer, idle periods, power cuts, lifetime stop, start-up detection) works
// the same whatever drives the device.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/host_io.h"
#include "common/units.h"

namespace ssdlab::sim {

// One host I/O as its source produces it: the I/O and when it is sent.
struct SourceIo : HostIo {
  // Closed loop: the pause before it is submitted, counted from when its slot
  // frees (uFLIP's pause and burst time functions). Open loop: its arrival,
  // from the start of the run; never earlier than the previous arrival of the
  // same source.
  TimeNs time = 0;
};

// A stream of host I/Os, pulled one at a time (a trace is never held in
// memory). Errors of the underlying input (a bad trace line) propagate as
// ssdlab::Error.
class IoSource {
 public:
  virtual ~IoSource() = default;
  // The next I/O, or nullopt once the stream has ended.
  virtual std::optional<SourceIo> next() = 0;
  // The I/O `ahead` places after the one next() returned last (0: the one
  // it returns next), if the source already holds it; else nullptr. A hint
  // for prefetching the device state it will touch (Ssd::prefetch): a
  // source that reads ahead must not change what next() returns.
  virtual const SourceIo* peek(std::size_t /*ahead*/) const { return nullptr; }
};

// One stream of a run and how the host drives it.
struct HostStream {
  IoSource* source = nullptr;
  std::uint32_t group = 0;    // its statistics group (RunGroup index)
  std::uint32_t process = 0;  // the io.csv `process` column
  // Closed loop: this many I/Os outstanding, each completion frees a slot for
  // the next. 0: open loop, each I/O arrives at its time whatever is
  // outstanding.
  std::uint32_t slots = 0;
  std::uint16_t queue = 0;  // its submission queue (sim/controller/host_queue.h), 0-based
  std::uint16_t flow = 0;   // its tenant: HostIo::flow of its I/Os
  // Its placement identifier (plan key placement_id): HostIo::placement of
  // its I/Os; 0 keeps the source's own (a trace column, or none).
  std::uint8_t placement = 0;
};

}  // namespace ssdlab::sim
