// Trace replay: the records of one or more traces as I/O sources of the one
// host loop (sim/engine/simulator.h).
//
// Open loop (the default for traces): every request arrives at its trace
// time (from the trace's first replayed request, divided by the speed
// factor), whatever is still outstanding: the SSD queues it. Closed loop:
// `queue_depth` requests outstanding per trace, each completion submits the
// next, trace times are ignored. Dependent (ssdlab's io.csv only): each
// recorded process a closed loop of its recorded depth and think times
// (dependent_replay.h). Records are pulled from the reader one at a
// time, so memory does not grow with the trace (only with the requests in
// flight, and the 8 bytes per request that exact percentiles need, up to
// --exact-samples: beyond, a histogram of bounded size; run_samples.h).
//
// Several traces replayed together share the SSD: their requests are merged
// by time, each trace's time counted from its own first request (so that
// they all start at the run's start); equal arrival times go in the order
// the traces were given.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/engine/io_source.h"
#include "sim/engine/read_ahead.h"
#include "sim/engine/simulator.h"
#include "traces/trace.h"

namespace ssdlab::sim {

enum class ReplayMode { kOpen, kClosed, kDependent };
const char* replay_mode_name(ReplayMode mode);

struct ReplaySettings {
  std::string experiment;  // the io.csv `experiment` column
  ReplayMode mode = ReplayMode::kOpen;
  std::uint32_t queue_depth = 1;  // closed loop
  double speed = 1.0;             // open loop: 2 = gaps between requests halved
};

struct ReplayResult {
  RunResult run;                   // run 0: statistics and device counters, as for plans
  std::uint64_t requests = 0;      // requests replayed (io.csv rows)
  std::uint64_t trims = 0;         // of which trims (discards)
  std::uint64_t out_of_order = 0;  // open loop: earlier than the previous one, submitted with it
  TimeNs trace_start_ns = 0;       // trace time of the first replayed request
  TimeNs trace_end_ns = 0;         // and of the last one
  // --mode dependent: each recorded process's depth, by process number.
  std::map<std::uint32_t, std::uint32_t> process_depths;
};

// One of several traces replayed together.
struct ReplaySource {
  traces::TraceReader* trace;
  std::string experiment;  // its io.csv `experiment` column
  double speed = 0;        // open loop: this trace's speed factor; 0: the settings' one
};

// One trace as an I/O source: its records (already selected and mapped onto
// the device: sector-aligned, inside its logical space) with their arrival
// times in open loop.
class TraceSource final : public IoSource {
 public:
  TraceSource(traces::TraceReader& trace, ReplayMode mode, double speed)
      : trace_(trace), open_(mode == ReplayMode::kOpen), speed_(speed) {}
  // Records are read two ahead of next(), for peek(); a bad record's error
  // comes when it is read.
  std::optional<SourceIo> next() override;
  const SourceIo* peek(std::size_t ahead) const override {
    const Read* read = ahead_.peek(ahead);
    return read ? &read->io : nullptr;
  }
  // What next() gave so far (requests, trims, out of order, trace times).
  const ReplayResult& counts() const { return counts_; }

 private:
  struct Read {
    SourceIo io;
    TimeNs trace_time = 0;
    bool out_of_order = false;
  };
  std::optional<Read> read();

  traces::TraceReader& trace_;
  bool open_;
  double speed_;
  std::optional<TimeNs> first_time_;  // of the first record read
  std::uint64_t records_ = 0;         // records read
  TimeNs last_arrival_ = 0;
  ReplayResult counts_;
  ReadAhead<Read, 2> ahead_;
};

class DependentTrace;  // dependent_replay.h

// One trace's streams on the host loop, as its replay mode makes them: one
// stream of its records (a TraceSource: open or closed loop, at `speed` and
// `queue_depth` of `settings`), or with --mode dependent one closed loop per
// recorded process (DependentTrace, the first I/Os' think times from
// `zero`). What replay() and a run of tenants (sim/run/tenants.h) both build.
class TraceStreams {
 public:
  // Appends its streams to `streams`, each `place` (its group, queue, flow
  // and placement) with its source and slots.
  TraceStreams(traces::TraceReader& trace, const ReplaySettings& settings,
               std::optional<TimeNs> zero, const HostStream& place,
               std::vector<HostStream>& streams);
  ~TraceStreams();
  TraceStreams(const TraceStreams&) = delete;
  TraceStreams& operator=(const TraceStreams&) = delete;
  // What its streams gave so far (TraceSource::counts, DependentTrace::counts).
  ReplayResult counts() const;

 private:
  std::unique_ptr<TraceSource> source_;
  std::unique_ptr<DependentTrace> dependent_;
};

// Replays `sources` together on `simulator`'s device from its now(), with
// the mode, queue depth and speed of `settings` (its experiment is not
// used); one result per source, each with its own statistics and io
// indices, and the device counters of the whole run (the device is shared:
// they cannot be told apart by trace). Reader errors (ssdlab::Error)
// propagate.
std::vector<ReplayResult> replay(Simulator& simulator, const std::vector<ReplaySource>& sources,
                                 const ReplaySettings& settings);
// The same for one trace, named settings.experiment.
ReplayResult replay(Simulator& simulator, traces::TraceReader& trace,
                    const ReplaySettings& settings);

}  // namespace ssdlab::sim
