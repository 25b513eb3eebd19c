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
//
// Several traces can be replayed together against the one SSD: their requests
// are merged by time, each trace's time counted from its own first request
// (so that they all start at the run's start); in closed loop each trace keeps
// its own `queue_depth` requests outstanding.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

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

// One of several traces replayed together.
struct ReplaySource {
  traces::TraceReader* trace;
  std::string experiment;  // its io.csv `experiment` column
};

class Replayer {
 public:
  // `log` may be null: no per-I/O output.
  Replayer(Ssd& ssd, IoLog* log) : ssd_(ssd), log_(log) {}

  // Replays every record of `trace` (already selected and mapped onto the
  // device: sector-aligned, inside its logical space), from simulated time
  // now(). Reader errors (ssdlab::Error) propagate.
  ReplayResult replay(traces::TraceReader& trace, const ReplaySettings& settings);
  // Replays `sources` together, with the mode, queue depth and speed of
  // `settings` (its experiment is not used); one result per source, each with
  // its own statistics and io indices, and the device counters of the whole
  // run (the device is shared: they cannot be told apart by trace). Equal
  // arrival times go in the order of `sources`.
  std::vector<ReplayResult> replay(const std::vector<ReplaySource>& sources,
                                   const ReplaySettings& settings);
  TimeNs now() const { return now_; }
  // Continues from simulated time `now` (a loaded checkpoint's clock).
  void resume_at(TimeNs now) { now_ = now; }

 private:
  struct Arrival {  // submit the next request (closed loop: a free queue slot)
    std::size_t stream;
  };
  struct Completion {
    std::size_t stream;
    std::uint64_t io;
    std::uint64_t offset;
    TimeNs submitted;
    std::uint32_t size;
    bool write;
  };
  using Event = std::variant<Arrival, Completion>;

  // A trace being replayed.
  struct Stream {
    traces::TraceReader* trace = nullptr;
    const std::string* experiment = nullptr;
    ReplayResult result;
    std::optional<traces::TraceRecord> pending;  // open loop: the record of its next arrival
    TimeNs pending_arrival = 0;
    TimeNs last_arrival = 0;
    std::vector<TimeNs> responses;
    std::uint64_t bytes = 0;
    TimeNs last_completion = 0;
  };

  // Open loop: reads stream `s`'s next record and when it arrives.
  void read_next(Stream& s);
  // Open loop: schedules the earliest pending arrival of all streams.
  void schedule_next_arrival();
  void submit(std::size_t stream, const traces::TraceRecord& record);

  Ssd& ssd_;
  IoLog* log_;
  EventQueue<Event> queue_;
  TimeNs now_ = 0;
  // State of the replay in progress.
  const ReplaySettings* settings_ = nullptr;
  std::vector<Stream> streams_;
  TimeNs start_ = 0;
};

}  // namespace ssdlab::sim
