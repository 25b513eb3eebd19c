#include "sim/replay.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace ssdlab::sim {

const char* replay_mode_name(ReplayMode mode) {
  return mode == ReplayMode::kOpen ? "open" : "closed";
}

void Replayer::read_next(Stream& s) {
  s.pending = s.trace->next();
  if (!s.pending) return;
  if (s.result.requests == 0) s.result.trace_start_ns = s.pending->time_ns;
  const TimeNs since_first = s.pending->time_ns - s.result.trace_start_ns;
  const TimeNs delay = settings_->speed == 1.0
                           ? since_first
                           : std::llround(static_cast<double>(since_first) / settings_->speed);
  TimeNs arrival = start_ + delay;
  if (arrival < s.last_arrival) {  // trace times going backwards: submit with the previous one
    ++s.result.out_of_order;
    arrival = s.last_arrival;
  }
  s.last_arrival = arrival;
  s.pending_arrival = arrival;
}

void Replayer::schedule_next_arrival() {
  // One arrival is queued at a time, the earliest of all streams (the first
  // stream on ties), so that merging does not depend on when records were read.
  const Stream* earliest = nullptr;
  std::size_t index = 0;
  for (std::size_t i = 0; i < streams_.size(); ++i) {
    const Stream& s = streams_[i];
    if (s.pending && (!earliest || s.pending_arrival < earliest->pending_arrival)) {
      earliest = &s;
      index = i;
    }
  }
  if (earliest) queue_.push(earliest->pending_arrival, Arrival{index});
}

void Replayer::submit(std::size_t stream, const traces::TraceRecord& record) {
  ReplayResult& result = streams_[stream].result;
  if (result.requests == 0) result.trace_start_ns = record.time_ns;
  result.trace_end_ns = record.time_ns;
  const TimeNs done = ssd_.submit(HostRequest{record.offset, record.size, record.write}, now_);
  queue_.push(done,
              Completion{stream, result.requests, record.offset, now_, record.size, record.write});
  ++result.requests;
}

ReplayResult Replayer::replay(traces::TraceReader& trace, const ReplaySettings& settings) {
  return std::move(replay({ReplaySource{&trace, settings.experiment}}, settings).front());
}

std::vector<ReplayResult> Replayer::replay(const std::vector<ReplaySource>& sources,
                                           const ReplaySettings& settings) {
  settings_ = &settings;
  start_ = now_;
  streams_.clear();
  for (const auto& source : sources) {
    Stream& s = streams_.emplace_back();
    s.trace = source.trace;
    s.experiment = &source.experiment;
    s.last_arrival = start_;
    s.last_completion = start_;
  }
  const nlohmann::json before = device_counters(ssd_);

  const bool open = settings.mode == ReplayMode::kOpen;
  if (open) {
    for (Stream& s : streams_) read_next(s);
    schedule_next_arrival();
  } else {
    for (std::size_t i = 0; i < streams_.size(); ++i)
      for (std::uint32_t slot = 0; slot < settings.queue_depth; ++slot)
        queue_.push(start_, Arrival{i});
  }

  while (!queue_.empty()) {
    auto entry = queue_.pop();
    now_ = entry.time;
    if (const auto* arrival = std::get_if<Arrival>(&entry.event)) {
      Stream& s = streams_[arrival->stream];
      if (open) {
        submit(arrival->stream, *s.pending);
        read_next(s);
        schedule_next_arrival();
      } else if (auto record = s.trace->next()) {
        submit(arrival->stream, *record);
      }
      continue;
    }
    const auto& done = std::get<Completion>(entry.event);
    Stream& s = streams_[done.stream];
    const TimeNs response = now_ - done.submitted;
    if (log_)
      log_->row(*s.experiment, 0, 0, done.io, done.submitted - start_, response, done.write,
                done.offset, done.size);
    s.responses.push_back(response);
    s.bytes += done.size;
    s.last_completion = now_;
    if (!open)
      if (auto record = s.trace->next()) submit(done.stream, *record);
  }

  const nlohmann::json device =
      counters_delta(before, device_counters(ssd_), ssd_.config().geometry.pages_per_block);
  std::vector<ReplayResult> results;
  for (Stream& s : streams_) {
    ReplayResult& result = s.result;
    result.run.run = 0;
    result.run.start_ns = start_;
    result.run.end_ns = now_;
    // The first request is submitted at the start in both modes.
    result.run.stats =
        compute_stats(s.responses, result.requests, s.last_completion - start_, s.bytes);
    result.run.device = device;
    results.push_back(std::move(result));
  }
  streams_.clear();
  settings_ = nullptr;
  return results;
}

}  // namespace ssdlab::sim
