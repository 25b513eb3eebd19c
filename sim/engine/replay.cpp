#include "sim/engine/replay.h"

#include <cmath>
#include <memory>

#include "common/error.h"
#include "sim/engine/dependent_replay.h"

namespace ssdlab::sim {

const char* replay_mode_name(ReplayMode mode) {
  switch (mode) {
    case ReplayMode::kOpen:
      return "open";
    case ReplayMode::kClosed:
      return "closed";
    case ReplayMode::kDependent:
      return "dependent";
  }
  return "?";
}

std::optional<SourceIo> TraceSource::next() {
  const std::optional<Read> read = ahead_.next([this] { return this->read(); });
  if (!read) return std::nullopt;
  if (counts_.requests == 0) counts_.trace_start_ns = read->trace_time;
  counts_.trace_end_ns = read->trace_time;
  ++counts_.requests;
  counts_.trims += read->io.mode == IoMode::kTrim;
  counts_.out_of_order += read->out_of_order;
  return read->io;
}

std::optional<TraceSource::Read> TraceSource::read() {
  const std::optional<traces::TraceRecord> record = trace_.next();
  if (!record) return std::nullopt;
  ++records_;
  if (!first_time_) first_time_ = record->time_ns;
  Read read{SourceIo{{record->offset, record->size, record->mode, record->placement}, 0},
            record->time_ns, false};
  if (!open_) return read;  // closed loop: trace times are ignored
  const TimeNs since_first = record->time_ns - *first_time_;
  const double scaled = static_cast<double>(since_first) / speed_;
  if (!(scaled <= static_cast<double>(traces::kMaxTraceTimeNs)))
    throw make_error(
        "trace request {}: time {} ns after the first at --speed {} is beyond what the "
        "simulated clock holds (2^62 ns, about 146 years)",
        records_, since_first, speed_);
  TimeNs arrival = speed_ == 1.0 ? since_first : std::llround(scaled);
  if (arrival < last_arrival_) {  // trace times going backwards: submit with the previous one
    read.out_of_order = true;
    arrival = last_arrival_;
  }
  last_arrival_ = read.io.time = arrival;
  return read;
}

TraceStreams::TraceStreams(traces::TraceReader& trace, const ReplaySettings& settings,
                           std::optional<TimeNs> zero, const HostStream& place,
                           std::vector<HostStream>& streams) {
  if (settings.mode == ReplayMode::kDependent) {
    dependent_ = std::make_unique<DependentTrace>(trace, zero);
    dependent_->add_streams(place, streams);
    return;
  }
  source_ = std::make_unique<TraceSource>(trace, settings.mode, settings.speed);
  HostStream& stream = streams.emplace_back(place);
  stream.source = source_.get();
  stream.slots = settings.mode == ReplayMode::kOpen ? 0 : settings.queue_depth;
}

TraceStreams::~TraceStreams() = default;

ReplayResult TraceStreams::counts() const {
  return dependent_ ? dependent_->counts() : source_->counts();
}

std::vector<ReplayResult> replay(Simulator& simulator, const std::vector<ReplaySource>& sources,
                                 const ReplaySettings& settings) {
  std::vector<std::unique_ptr<TraceStreams>> traces;
  std::vector<HostStream> streams;
  std::vector<RunGroup> groups;
  for (std::uint32_t k = 0; k < sources.size(); ++k) {
    groups.push_back(RunGroup{sources[k].experiment, 0, 0, 0, false});
    ReplaySettings each = settings;
    if (sources[k].speed > 0) each.speed = sources[k].speed;
    traces.push_back(std::make_unique<TraceStreams>(*sources[k].trace, each, TimeNs{0},
                                                    HostStream{nullptr, k}, streams));
  }
  std::vector<RunResult> runs = simulator.run(streams, groups);
  std::vector<ReplayResult> results;
  for (std::size_t k = 0; k < sources.size(); ++k) {
    ReplayResult& result = results.emplace_back(traces[k]->counts());
    result.run = std::move(runs[k]);
  }
  return results;
}

ReplayResult replay(Simulator& simulator, traces::TraceReader& trace,
                    const ReplaySettings& settings) {
  return std::move(replay(simulator, {ReplaySource{&trace, settings.experiment}}, settings).front());
}

}  // namespace ssdlab::sim
