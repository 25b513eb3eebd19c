// `ssdlab sweep SWEEP.toml -o OUTDIR`: a grid of device configs x config
// overrides x workloads x seeds, run in parallel on every core of this
// machine, each job writing its own output folder, and the results collected
// into one table (OUTDIR/sweep.csv). For clusters, `--slurm FILE` writes a
// Slurm job-array script instead (sweep_slurm.h), whose task i runs
// `sweep -o OUTDIR --job i` from the job list frozen at submission
// (sweep_frozen.h); `ssdlab collect OUTDIR` then builds the table from the
// job folders, taking only results of the frozen jobs.
//
//   configs   = ["configs/agrawal-baseline.toml"]      # required
//   workloads = ["RW:io_size=4096,count=100000"]       # required
//   seeds     = [1, 2, 3]                              # default [1]
//   sets      = [["ftl.overprovisioning=0.07"], ["ftl.overprovisioning=0.28"]]
//   [grid]                                             # axes crossed (cartesian product),
//   "ftl.overprovisioning" = [0.07, 0.15, 0.28]        # and with each of sets
//   "ftl.type" = ["page-mapped", "bast"]
//   precondition = "random"                            # as sim --precondition
//   io_log    = false                                  # io.csv per job (default false)
// and exclude, skip_refused, [[grid]], mode, qd, speed, layout,
// precondition_threads, load_state, fairness (docs/reference/cli.md,
// "Sweep files"; keys before the first [grid] line).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

#include "sim/sweep/sweep_slurm.h"

namespace ssdlab::sim {

struct SweepOptions {
  std::string plan;
  std::string outdir;
  unsigned jobs = 0;                 // parallel jobs; 0: one per core
  std::optional<std::uint64_t> job;  // run only job N of the frozen list (a Slurm array task)
  std::optional<std::uint64_t> state;  // make only shared state N (a preconditioning task)
  std::string slurm;                 // write a job-array script here instead of running
  SlurmOptions cluster;              // its resources (sim/sweep/sweep_slurm.h)
  bool replace = false;              // remove another sweep's job folders in OUTDIR
  bool quiet = false;                // no progress line (jobs done) on the terminal
};

// Returns the exit status: 0 if every job ran, 1 if any failed (each failure
// is reported on its own line and recorded in its folder).
int run_sweep(const SweepOptions& options, std::ostream& out);

// Builds OUTDIR/sweep.csv from the job folders and prints it: a row per job
// and experiment, with one typed column per swept key (numbers as numbers,
// sizes in bytes) besides the `sets` text, one per workload parameter
// (workload.KEY) and the experiment's pattern and uFLIP cell
// (sim/sweep/sweep_columns.h).
int run_collect(const std::string& outdir, std::ostream& out);
// `ssdlab collect OUTDIR`: run_collect() holding the folder's lock shared,
// so that it is refused while a whole sweep writes there (the array tasks of
// a Slurm sweep share the lock and do not stop it).
int run_collect_alone(const std::string& outdir, std::ostream& out);

}  // namespace ssdlab::sim
