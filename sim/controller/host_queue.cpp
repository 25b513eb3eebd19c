#include "sim/controller/host_queue.h"

#include <algorithm>

namespace ssdlab::sim {

std::optional<QueuedRequest> HostQueue::dispatch() {
  if (waiting_.empty() || outstanding_ >= depth_) return std::nullopt;
  auto pick = waiting_.begin();
  if (policy_ == Scheduling::kReadsFirst) {
    const auto read = std::find_if(waiting_.begin(), waiting_.end(),
                                   [](const QueuedRequest& r) { return r.request.mode == IoMode::kRead; });
    if (read != waiting_.end()) pick = read;
  }
  const QueuedRequest request = *pick;
  waiting_.erase(pick);
  ++outstanding_;
  return request;
}

}  // namespace ssdlab::sim
