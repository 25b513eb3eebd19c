// A sweep file (docs: sweeps): configs x sets (crossed with [grid] axes) x
// workloads x seeds, read, validated as a whole before any job runs, and
// expanded into jobs in a fixed order.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ssdlab::sim {

// One run of a sweep.
struct Job {
  std::uint64_t id;
  std::string config;
  std::vector<std::string> sets;
  std::string workload;                // as shown: the tenants joined by " + "
  std::vector<std::string> workloads;  // what runs: one, or several together (tenants)
  std::uint64_t seed;
  std::string precondition;
  std::string load_state;  // a checkpoint every job starts from
  bool io_log;
  bool fairness = false;  // fairness = true: each tenant alone too (sim --fairness)
  std::string dir() const { return fmt::format("job-{:05}", id); }
};

// Reads the sweep file at `path` and expands it; throws ssdlab::Error naming
// the file, its line and what is wrong (any job's bad config, set, workload,
// precondition or checkpoint included) before anything is written.
std::vector<Job> expand(const std::string& path);

}  // namespace ssdlab::sim
