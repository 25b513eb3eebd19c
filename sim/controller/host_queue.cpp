#include "sim/controller/host_queue.h"

#include <algorithm>

namespace ssdlab::sim {

HostQueue::HostQueue(const ControllerConfig& config)
    : depth_(config.queue_depth),
      policy_(config.scheduling),
      arbitration_(config.host_queues.arbitration),
      burst_(config.host_queues.burst),
      weights_{config.host_queues.weight_high, config.host_queues.weight_medium,
               config.host_queues.weight_low} {
  for (const SubmissionQueueConfig& q : config.host_queues.queues)
    queues_.push_back(Queue{q.depth, q.priority, 0, {}});
  if (queues_.empty()) queues_.emplace_back();
  unlimited_ = depth_ == 0 && queues_.size() == 1 && queues_[0].depth == 0;
  // The first turn goes to queue 0 (the pointer names the last one served).
  next_.fill(static_cast<std::uint32_t>(queues_.size() - 1));
}

void HostQueue::clear() {
  for (Queue& queue : queues_) {
    queue.waiting.clear();
    queue.outstanding = 0;
  }
  outstanding_ = 0;
  waiting_ = 0;
  burst_left_ = 0;
  credits_ = {};
}

std::optional<QueuedRequest> HostQueue::dispatch() {
  if (waiting_ == 0 || (depth_ != 0 && outstanding_ >= depth_)) return std::nullopt;
  const std::optional<std::uint32_t> chosen =
      queues_.size() == 1 ? (may_fetch(queues_[0]) ? std::optional<std::uint32_t>(0) : std::nullopt)
                          : arbitrate();
  if (!chosen) return std::nullopt;
  Queue& queue = queues_[*chosen];
  ++outstanding_;
  ++queue.outstanding;
  --waiting_;
  return take(queue);
}

QueuedRequest HostQueue::take(Queue& queue) {
  auto pick = queue.waiting.begin();
  if (policy_ == Scheduling::kReadsFirst) {
    const auto read =
        std::find_if(queue.waiting.begin(), queue.waiting.end(),
                     [](const QueuedRequest& r) { return r.request.mode == IoMode::kRead; });
    if (read != queue.waiting.end()) pick = read;
  }
  const QueuedRequest request = *pick;
  queue.waiting.erase(pick);
  return request;
}

std::optional<std::uint32_t> HostQueue::next_in_turn(std::size_t slot,
                                                     std::optional<QueuePriority> priority) {
  const auto n = static_cast<std::uint32_t>(queues_.size());
  for (std::uint32_t k = 1; k <= n; ++k) {
    const std::uint32_t q = (next_[slot] + k) % n;
    if ((!priority || queues_[q].priority == *priority) && may_fetch(queues_[q])) {
      next_[slot] = q;
      return q;
    }
  }
  return std::nullopt;
}

std::optional<std::uint32_t> HostQueue::arbitrate() {
  // A burst goes on while its queue may give (and, weighted, while no urgent
  // queue waits and its class has credit).
  if (burst_left_ > 0 && may_fetch(queues_[current_])) {
    const QueuePriority p = queues_[current_].priority;
    const bool weighted = arbitration_ == Arbitration::kWeighted;
    const bool urgent_waits = weighted && p != QueuePriority::kUrgent &&
                              std::any_of(queues_.begin(), queues_.end(), [this](const Queue& q) {
                                return q.priority == QueuePriority::kUrgent && may_fetch(q);
                              });
    const std::size_t cls = static_cast<std::size_t>(p) - 1;
    if (!weighted || p == QueuePriority::kUrgent || (!urgent_waits && credits_[cls] > 0)) {
      --burst_left_;
      if (weighted && p != QueuePriority::kUrgent) --credits_[cls];
      return current_;
    }
  }
  const std::optional<std::uint32_t> q =
      arbitration_ == Arbitration::kWeighted ? weighted() : next_in_turn(0, std::nullopt);
  if (q) {
    current_ = *q;
    burst_left_ = burst_ - 1;
  }
  return q;
}

std::optional<std::uint32_t> HostQueue::weighted() {
  if (auto q = next_in_turn(1, QueuePriority::kUrgent)) return q;
  for (int round = 0; round < 2; ++round) {
    for (std::size_t cls = 0; cls < 3; ++cls) {
      if (credits_[cls] == 0) continue;
      if (auto q = next_in_turn(2 + cls, static_cast<QueuePriority>(cls + 1))) {
        --credits_[cls];
        return q;
      }
    }
    // Every class with a request waiting has used its weight: a new round.
    credits_ = weights_;
  }
  return std::nullopt;
}

}  // namespace ssdlab::sim
