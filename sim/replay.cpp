#include "sim/replay.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace ssdlab::sim {

const char* replay_mode_name(ReplayMode mode) {
  return mode == ReplayMode::kOpen ? "open" : "closed";
}

void Replayer::schedule_next_arrival() {
  pending_ = trace_->next();
  if (!pending_) return;
  if (result_->requests == 0) result_->trace_start_ns = pending_->time_ns;
  const TimeNs since_first = pending_->time_ns - result_->trace_start_ns;
  const TimeNs delay = settings_->speed == 1.0
                           ? since_first
                           : std::llround(static_cast<double>(since_first) / settings_->speed);
  TimeNs arrival = start_ + delay;
  if (arrival < last_arrival_) {  // trace times going backwards: submit with the previous one
    ++result_->out_of_order;
    arrival = last_arrival_;
  }
  last_arrival_ = arrival;
  queue_.push(arrival, Arrival{});
}

void Replayer::submit(const traces::TraceRecord& record) {
  if (result_->requests == 0) result_->trace_start_ns = record.time_ns;
  result_->trace_end_ns = record.time_ns;
  const TimeNs done = ssd_.submit(HostRequest{record.offset, record.size, record.write}, now_);
  queue_.push(done, Completion{result_->requests, record.offset, now_, record.size, record.write});
  ++result_->requests;
}

ReplayResult Replayer::replay(traces::TraceReader& trace, const ReplaySettings& settings) {
  ReplayResult result;
  trace_ = &trace;
  settings_ = &settings;
  result_ = &result;
  start_ = now_;
  last_arrival_ = now_;
  const nlohmann::json before = device_counters(ssd_);

  std::vector<TimeNs> responses;
  std::uint64_t bytes = 0;
  TimeNs last_completion = start_;
  if (settings.mode == ReplayMode::kOpen)
    schedule_next_arrival();
  else
    for (std::uint32_t slot = 0; slot < settings.queue_depth; ++slot)
      queue_.push(start_, Arrival{});

  while (!queue_.empty()) {
    auto entry = queue_.pop();
    now_ = entry.time;
    if (std::holds_alternative<Arrival>(entry.event)) {
      if (settings.mode == ReplayMode::kOpen) {
        submit(*pending_);
        schedule_next_arrival();
      } else if (auto record = trace.next()) {
        submit(*record);
      }
      continue;
    }
    const auto& done = std::get<Completion>(entry.event);
    const TimeNs response = now_ - done.submitted;
    if (log_)
      log_->row(settings.experiment, 0, 0, done.io, done.submitted - start_, response, done.write,
                done.offset, done.size);
    responses.push_back(response);
    bytes += done.size;
    last_completion = now_;
    if (settings.mode == ReplayMode::kClosed)
      if (auto record = trace.next()) submit(*record);
  }

  result.run.run = 0;
  result.run.start_ns = start_;
  result.run.end_ns = now_;
  // The first request is submitted at the start in both modes.
  result.run.stats = compute_stats(responses, result.requests, last_completion - start_, bytes);
  result.run.device =
      counters_delta(before, device_counters(ssd_), ssd_.config().geometry.pages_per_block);
  trace_ = nullptr;
  settings_ = nullptr;
  result_ = nullptr;
  return result;
}

}  // namespace ssdlab::sim
