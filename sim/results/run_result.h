// What a run counts and what it produced, as typed values the results
// library owns: RunGroup, the I/Os counted together (one io.csv
// `experiment` and run), and RunResult, one group's statistics and the device
// counters during its run. The engine fills them in (sim/engine/simulator.h);
// reports and probe read them without the simulator.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/units.h"
#include "sim/results/device_counters.h"
#include "sim/results/output.h"
#include "sim/results/page_type_reads.h"

namespace ssdlab::sim {

// The I/Os counted together: one io.csv `experiment` and one set of
// statistics (an experiment's run, over all its processes; or one trace).
struct RunGroup {
  std::string name;       // the io.csv `experiment` column
  std::uint32_t run = 0;  // the io.csv `run` column
  // I/Os of the run (over every stream of the group); 0: as many as complete.
  std::uint64_t count = 0;
  std::uint64_t io_ignore = 0;  // per stream: its first I/Os are not measured
  bool io_ignore_auto = false;  // detect the start-up phase instead
};

// A served read or write: when it was submitted and completed (from the
// run's start).
struct IoSpan {
  TimeNs submitted = 0, completed = 0;
};

// One group's run: its statistics and the device counters during the run.
struct RunResult {
  std::uint32_t run = 0;
  std::uint64_t startup = 0;  // I/Os the start-up detection cut (io_ignore = "auto")
  RunStats stats;
  TimeNs start_ns = 0, end_ns = 0;  // simulated time of the run
  DeviceCounters device;            // device counters during the run (shared by its groups)
  // Why the run stopped before its count: the device's end of life
  // (ftl::EndOfLife), or the lifetime limit of stop_when_expired(); empty if
  // it ran to the end.
  std::string stopped;
  bool end_of_life = false;
  // Tenants (Simulator::attribute_cleaning()): pages moved by cleaning while
  // the group's writes were started (the foreground cleaning its writes
  // caused; background and idle cleaning belongs to no group).
  std::uint64_t pages_moved_by_writes = 0;
  // Simulator::keep_io_spans(): the group's served reads and writes in
  // completion order (io_ignore's excluded); empty otherwise.
  std::vector<IoSpan> io_spans;
  // Cells of several bits: its served reads by the page type they waited
  // for, past io_ignore (page_type_reads.h); empty otherwise.
  std::vector<PageTypeReadRecord> reads_by_page_type;
};

}  // namespace ssdlab::sim
