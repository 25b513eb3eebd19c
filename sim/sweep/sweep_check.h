// A sweep file's keys that every job shares (how the jobs run), and the check
// of the whole sweep before any job runs: every config with every
// combination of overrides, every workload, the precondition and checkpoint.
// Internal to sim/run (sweep_file.cpp).
#pragma once

#include <toml++/toml.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/sweep/sweep_grid.h"

namespace ssdlab::sim {

struct SweepRunKeys {
  std::string precondition, load_state;
  bool io_log = false, fairness = false;
  bool skip_refused = false;  // leave out the combinations a config refuses
  // As sim's --mode, --qd, --speed, --layout (trace workloads), and
  // --precondition-threads; empty / 0: not given.
  std::string mode, layout;
  std::uint32_t queue_depth = 0;
  double speed = 0;
  unsigned precondition_threads = 0;
};

// Reads them; throws ssdlab::Error "PATH:LINE: key: what".
SweepRunKeys read_run_keys(const std::string& path, const toml::table& root);

using ResolvePath = std::function<std::string(const std::string&)>;

// Every mistake a job would make on its own (a bad precondition, a missing
// checkpoint or config, a bad set or workload, a trace option a trace
// refuses) found before the first job runs, with the sweep file's line (a
// combination a config refuses: the line of the value it refuses). Returns,
// per config and combination, whether it runs: with skip_refused, the
// combinations a config refuses do not, and `skipped` gets one line for
// each; a value that no combination accepts is still an error.
std::vector<std::vector<bool>> validate(const std::string& path, const toml::table& root,
                                        const ResolvePath& resolve,
                                        const std::vector<std::string>& configs,
                                        const std::vector<Combination>& combinations,
                                        const std::vector<std::vector<std::string>>& workloads,
                                        const SweepRunKeys& keys,
                                        std::vector<std::string>& skipped);

}  // namespace ssdlab::sim
