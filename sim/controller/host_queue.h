// The host queue in front of the device (Agrawal et al. §3.3, §4.1: requests
// queue at the controller before they reach the flash elements).
//
// The device accepts at most `depth` requests at once (a SATA NCQ or NVMe
// queue depth); more wait here, and each time one completes the policy picks
// the next: the oldest (FIFO), or the oldest read if any waits (reads-first,
// which shortens reads behind a backlog of writes at the writes' expense).
// Dispatched requests are split into logical pages and flash commands by the
// Ssd; each die serves its commands in dispatch order (flash/timeline.h), so
// the dies act as per-element FIFO queues below this one.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>

#include "common/units.h"
#include "common/host_io.h"
#include "sim/config/config.h"

namespace ssdlab::sim {

struct QueuedRequest {
  std::uint32_t stream = 0;  // of the host loop (sim/engine/io_source.h)
  std::uint64_t io = 0;      // the stream's I/O number, given at arrival
  TimeNs arrived = 0;
  HostIo request{};
  bool resubmitted = false;  // sent again after a power cut interrupted it
};

class HostQueue {
 public:
  // depth 0: unlimited (requests are dispatched on arrival; nothing waits).
  HostQueue(std::uint32_t depth, Scheduling policy) : depth_(depth), policy_(policy) {}

  bool unlimited() const { return depth_ == 0; }
  void arrive(const QueuedRequest& request) { waiting_.push_back(request); }
  // The next request to dispatch, if the device has room and one waits; the
  // device then counts it as outstanding until complete().
  std::optional<QueuedRequest> dispatch();
  void complete() { --outstanding_; }
  void clear() {
    waiting_.clear();
    outstanding_ = 0;
  }
  std::uint64_t waiting() const { return waiting_.size(); }

 private:
  std::uint32_t depth_;
  Scheduling policy_;
  std::uint32_t outstanding_ = 0;
  std::deque<QueuedRequest> waiting_;  // arrival order
};

}  // namespace ssdlab::sim
