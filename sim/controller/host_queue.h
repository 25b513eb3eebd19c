// The host queues in front of the device (Agrawal et al. §3.3, §4.1:
// requests queue at the controller before they reach the flash elements),
// as NVMe submission queues (NVMe Base Specification 2.0, §3.4.4).
//
// The device accepts at most `host.queue_depth` requests at once (a SATA
// NCQ depth, or an NVMe controller's command slots); more wait here. Each
// request arrives on a submission queue (one by default); a queue's own
// depth bounds its requests outstanding, as a blk-mq hardware queue's tags
// do, and the rest wait behind them at the host. When the device has room,
// arbitration picks the queue it fetches from next:
//  - round robin: the queues in turn, each giving up to `arbitration_burst`
//    requests per turn (the Arbitration Burst);
//  - weighted round robin with an urgent class: urgent queues first (strict
//    priority, in turn among them), then the high, medium and low classes,
//    each giving up to its weight in requests per round (queues of a class
//    in turn), bursts as above.
// Within a queue the policy picks: the oldest (FIFO), or the oldest read if
// any waits (reads-first, which shortens reads behind a backlog of writes at
// the writes' expense). Dispatched requests are split into logical pages and
// flash commands by the Ssd; each die serves its commands by the flash
// scheduler's order (flash/scheduler.h) below these queues.
//
// One queue without a depth of its own is exactly the single host queue of
// earlier versions.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "common/host_io.h"
#include "common/units.h"
#include "sim/config/config.h"

namespace ssdlab::sim {

struct QueuedRequest {
  std::uint32_t stream = 0;  // of the host loop (sim/engine/io_source.h)
  std::uint64_t io = 0;      // the stream's I/O number, given at arrival
  TimeNs arrived = 0;
  HostIo request{};
  bool resubmitted = false;  // sent again after a power cut interrupted it
  std::uint16_t queue = 0;   // its submission queue (0-based)
};

class HostQueue {
 public:
  explicit HostQueue(const ControllerConfig& config);

  // One queue, no bound anywhere: requests are dispatched on arrival and
  // nothing waits (the host loop then bypasses the queue).
  bool unlimited() const { return unlimited_; }
  std::uint32_t queues() const { return static_cast<std::uint32_t>(queues_.size()); }
  void arrive(const QueuedRequest& request) {
    queues_[request.queue].waiting.push_back(request);
    ++waiting_;
  }
  // The next request to dispatch, if the device has room and one may go;
  // the device then counts it as outstanding until complete().
  std::optional<QueuedRequest> dispatch();
  void complete(std::uint16_t queue) {
    --outstanding_;
    --queues_[queue].outstanding;
  }
  void clear();
  std::uint64_t waiting() const { return waiting_; }

 private:
  struct Queue {
    std::uint32_t depth = 0;  // 0: no bound of its own
    QueuePriority priority = QueuePriority::kMedium;
    std::uint32_t outstanding = 0;
    std::deque<QueuedRequest> waiting;  // arrival order
  };
  bool may_fetch(const Queue& queue) const {
    return !queue.waiting.empty() && (queue.depth == 0 || queue.outstanding < queue.depth);
  }
  // The queue arbitration fetches from next, if any may.
  std::optional<std::uint32_t> arbitrate();
  // Round robin among the queues of `priority` (any: all), from the one
  // after `next_[slot]`.
  std::optional<std::uint32_t> next_in_turn(std::size_t slot,
                                            std::optional<QueuePriority> priority);
  std::optional<std::uint32_t> weighted();
  // The request the policy takes from `queue`.
  QueuedRequest take(Queue& queue);

  std::uint32_t depth_;
  Scheduling policy_;
  Arbitration arbitration_;
  std::uint32_t burst_;
  std::array<std::uint32_t, 3> weights_;  // high, medium, low
  bool unlimited_;
  std::vector<Queue> queues_;
  std::uint32_t outstanding_ = 0;
  std::uint64_t waiting_ = 0;
  // Arbitration's state: the queue in its burst and what it may still give;
  // the last queue served per class (0: all queues, round robin; 1 + class:
  // weighted); the weighted classes' credits left in this round.
  std::uint32_t current_ = 0, burst_left_ = 0;
  std::array<std::uint32_t, 5> next_{};
  std::array<std::uint32_t, 3> credits_{};
};

}  // namespace ssdlab::sim
