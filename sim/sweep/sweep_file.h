// A sweep file (docs: sweeps): configs x sets (crossed with [grid] axes, less
// `exclude`) x workloads x seeds, read, validated as a whole before any job
// runs, and expanded into jobs in a fixed order.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ssdlab::sim {

// One run of a sweep.
struct Job {
  std::uint64_t id = 0;
  std::string config;
  std::vector<std::string> sets;
  std::string workload;                // as shown: the tenants joined by " + "
  std::vector<std::string> workloads;  // what runs: one, or several together (tenants)
  std::uint64_t seed = 1;
  std::string precondition;
  std::string load_state;  // a checkpoint every job starts from
  bool io_log = false;
  bool fairness = false;  // fairness = true: each tenant alone too (sim --fairness)
  // As sim's trace options (--mode, --qd, --speed, --layout), for the jobs
  // that replay a trace (empty / 0: not given); -w trace:FILE,key=... keys
  // stay in the workload text.
  std::string mode, layout;
  std::uint32_t queue_depth = 0;
  double speed = 0;
  unsigned precondition_threads = 0;  // as sim --precondition-threads (0: every core)
  std::string dir() const { return fmt::format("job-{:05}", id); }
};

struct Sweep {
  std::vector<Job> jobs;
  // skip_refused = true: each combination a config refused, "CONFIG with
  // SETS: why" (no job runs it).
  std::vector<std::string> skipped;
};

// Reads the sweep file at `path` and expands it; throws ssdlab::Error naming
// the file, its line and what is wrong (any job's bad config, set, workload,
// precondition or checkpoint included) before anything is written.
Sweep expand(const std::string& path);

}  // namespace ssdlab::sim
