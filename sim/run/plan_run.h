// `ssdlab sim`: run a workload against a device model and write OUTDIR/io.csv
// and OUTDIR/summary.json.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "common/progress.h"
#include "sim/results/output.h"
#include "sim/views/teaching.h"

namespace ssdlab::sim {

struct SimOptions {
  std::string config;
  std::string workload;
  std::string outdir;
  std::vector<std::string> overrides;  // --set table.key=value
  std::uint64_t seed = 1;
  bool verify = false;                 // check every read against the latest write
  bool io_log = true;                  // write io.csv
  bool io_detail = false;              // --io-detail: io_detail.csv too (sim/views/io_detail.h)
  std::string precondition;            // "", seq, random[:N], uflip[:N]
  // Reuse a preconditioned state from the user's cache folder, and save one
  // there (sim/state/state_cache.h); --no-state-cache turns it off.
  bool state_cache = true;
  // Threads preconditioning may use (0: one per usable CPU, common/host_info.h); the state
  // is the same whatever the number (sim/state/precondition.h).
  unsigned precondition_threads = 0;
  std::uint64_t check_every = 100000;  // --verify: invariant check interval in requests
  std::string fio_lat_log;             // --fio-lat-log PREFIX (sim/results/fio_export.h)
  // Lifetime run: stop once this many flash blocks have worn out (0: no
  // limit; the device's end of life always stops the run).
  std::uint64_t until_expired = 0;
  TeachingOptions teaching;             // --timeline, --trace-ftl
  std::vector<std::string> power_cuts;  // --power-cut-at (sim/state/power_cut_plan.h)
  // Checkpoints (sim/state/checkpoint.h): start from this saved state instead of
  // preconditioning; save the state here at the end of the run (with no
  // workload, right after preconditioning).
  std::string load_state;
  std::string save_state;
  // The files of -w trace:FILE (set by run_workloads): inputs that no output
  // option may name.
  std::vector<std::string> trace_files;
  // No progress line on the terminal (common/progress.h); off a terminal
  // there is none anyway.
  bool quiet = false;
  // Set (a sweep's jobs): each stage's progress (preconditioning, simulating)
  // goes here instead of the terminal (common/progress.h).
  Progress::Observer progress_observer;
  // Response-time percentiles of each run in summary.json, in percent
  // (sim/results/output.h; empty: the default list).
  std::vector<double> percentiles;
  // Per run: response times kept for exact percentiles, beyond which a
  // histogram takes over (sim/results/run_samples.h).
  std::uint64_t exact_samples = kDefaultExactSamples;
  // --fairness: with several workloads (tenants), each also runs alone on the
  // same device and state; summary.json gets each one's slowdown and the
  // fairness index (sim/run/tenant_run.h).
  bool fairness = false;
  // How the command that read these options names them in its messages:
  // `ssdlab sim`'s options by default, a live device's keys (io-log=, ...,
  // sim/live/live_options.h) there. named() writes one with its value.
  struct OptionNames {
    std::string config = "-c", outdir = "-o", load_state = "--load-state",
                save_state = "--save-state";
  };
  OptionNames names;
};

// "OPTION VALUE", or "KEY=VALUE" for a name that ends with '='.
std::string named(const std::string& option, const std::string& value);

// Runs the simulation; prints a short summary to `out`. Throws ssdlab::Error
// on bad input; nothing that looks complete is left in outdir on failure.
void run_sim(const SimOptions& options, std::ostream& out);

// `ssdlab config FILE`: validates and prints the derived geometry.
void run_config(const std::string& path, const std::vector<std::string>& overrides,
                std::ostream& out);

}  // namespace ssdlab::sim
