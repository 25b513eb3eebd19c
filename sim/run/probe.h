// `ssdlab probe`: run a workload against a real file or block device and
// write io.csv and summary.json exactly as `ssdlab sim` does, so that a
// measurement and a model can be compared line by line (`ssdlab compare`).
//
// Each uFLIP process runs queue_depth threads, each a synchronous closed
// loop of pread/pwrite with O_DIRECT, so that a process keeps queue_depth
// I/Os outstanding like the simulator's processes. Response times come from
// the monotonic clock around each call. The methodology is the simulator's:
// state enforcement (real writes here, so it takes the device's time), idle
// time before runs, pauses and bursts (sleeps), start-up detection.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace ssdlab::sim {

struct ProbeOptions {
  std::string target;
  std::string workload;
  std::string outdir;
  std::uint64_t size = 0;  // --size: create a missing FILE target of this size
  bool allow_destroy = false;
  bool buffered = false;
  std::string precondition;  // as for sim; default: the plan's state
  std::uint64_t seed = 1;
  bool io_log = true;
  bool quiet = false;               // no progress line (common/progress.h)
  std::vector<double> percentiles;  // of each run in summary.json (empty: the default)
};

void run_probe(const ProbeOptions& options, std::ostream& out);

}  // namespace ssdlab::sim
