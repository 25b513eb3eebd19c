// --mode dependent: a recorded run (ssdlab's io.csv: traces/ssdlab_csv.cpp)
// replayed with its programs' dependencies rather than its timestamps.
//
// Each recorded process becomes a closed loop of its own, with as many I/Os
// outstanding as it ever had in the recording (its depth, D). Its I/Os keep
// their order; the i-th waits for a slot, then for its think time: for the
// first D, their submit time from the recording's first request; after,
// the time from the recording's (i - D)-th completion in that process (the
// one that freed the slot it took) to its submit. A process that waited for
// each I/O before the next (D = 1) thus issues each one that long after the
// simulated completion of the one before it, however much sooner or later
// that completion comes than in the recording. A recording that was an
// open loop is taken as a closed loop of its largest outstanding count.
//
// The records are held in memory (24 bytes each, 40 while the loops are
// built, besides TraceFile's sorted copy), since each process's slots need
// the whole recording.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "sim/engine/io_source.h"
#include "sim/engine/replay.h"
#include "traces/trace.h"

namespace ssdlab::sim {

class DependentTrace {
 public:
  // Reads `trace` to its end. The first I/Os' think times count from
  // `zero` (io.csv's submit times count from its run's start: 0 keeps the
  // processes of one recording, replayed as tenants, at their offsets), or
  // from the first record's time if not given (a replay from --start).
  // Throws ssdlab::Error if a record has no recorded response time (a
  // format other than ssdlab's io.csv).
  DependentTrace(traces::TraceReader& trace, std::optional<TimeNs> zero);
  ~DependentTrace();
  DependentTrace(const DependentTrace&) = delete;
  DependentTrace& operator=(const DependentTrace&) = delete;

  // One closed-loop stream per recorded process, in process order: `place`
  // (its group, queue, flow and placement) with its source, its depth as
  // slots and its process number as io.csv's `process`.
  void add_streams(const HostStream& place, std::vector<HostStream>& streams);
  // What the streams gave so far (requests, trims), the trace's first and
  // last times and each process's depth.
  const ReplayResult& counts() const { return counts_; }

 private:
  class Process;
  std::vector<std::unique_ptr<Process>> processes_;
  ReplayResult counts_;
};

}  // namespace ssdlab::sim
