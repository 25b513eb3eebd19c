// Replays a stream of trace records against one SSD: the discrete-event loop
// of a trace workload, beside Simulator's for plans.
//
// Open loop (the default for traces): every request is submitted at its trace
// time (from the first replayed request, divided by the speed factor),
// whatever is still outstanding: the SSD queues it. Closed loop: `queue_depth`
// requests outstanding, each completion submits the next, trace times are
// ignored. Records are pulled from the reader one at a time, so memory does
// not grow with the trace (only with the requests in flight, and the 8 bytes
// per request that exact percentiles need).
#pragma once

#include <cstdint>
#include <string>
#include <variant>

#include "sim/event_queue.h"
#include "sim/output.h"
#include "sim/simulator.h"
#include "sim/ssd.h"
#include "traces/trace.h"

namespace ssdlab::sim {

enum class ReplayMode { kOpen, kClosed };
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
  std::uint64_t out_of_order = 0;  // open loop: earlier than the previous one, submitted with it
  TimeNs trace_start_ns = 0;       // trace time of the first replayed request
  TimeNs trace_end_ns = 0;         // and of the last one
};

class Replayer {
 public:
  // `log` may be null: no per-I/O output.
  Replayer(Ssd& ssd, IoLog* log) : ssd_(ssd), log_(log) {}

  // Replays every record of `trace` (already selected and mapped onto the
  // device: sector-aligned, inside its logical space), from simulated time
  // now(). Reader errors (ssdlab::Error) propagate.
  ReplayResult replay(traces::TraceReader& trace, const ReplaySettings& settings);
  TimeNs now() const { return now_; }

 private:
  struct Arrival {};  // submit the next request (closed loop: a free queue slot)
  struct Completion {
    std::uint64_t io;
    std::uint64_t offset;
    TimeNs submitted;
    std::uint32_t size;
    bool write;
  };
  using Event = std::variant<Arrival, Completion>;

  // Open loop: reads the next record and schedules its arrival.
  void schedule_next_arrival();
  void submit(const traces::TraceRecord& record);

  Ssd& ssd_;
  IoLog* log_;
  EventQueue<Event> queue_;
  TimeNs now_ = 0;
  // State of the replay in progress.
  traces::TraceReader* trace_ = nullptr;
  const ReplaySettings* settings_ = nullptr;
  ReplayResult* result_ = nullptr;
  TimeNs start_ = 0;
  TimeNs last_arrival_ = 0;
  std::optional<traces::TraceRecord> pending_;  // open loop: the record of the next arrival
};

}  // namespace ssdlab::sim
