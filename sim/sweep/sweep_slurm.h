// `ssdlab sweep --slurm FILE`: the batch script of a sweep whose job list
// is frozen (sweep_frozen.h), as an HPC user would write it: absolute,
// quoted paths; --mem and --time from ssdlab's own estimates (overridable);
// --cpus-per-task, which the task's preconditioning threads follow
// (common/host_info.h usable_cpus); logs named %A_%a; partition, account
// and extra #SBATCH lines from options. Beside it, FILE's stem + "-submit.sh"
// submits the whole sweep: one preconditioning task per shared state, the
// jobs as arrays of at most MaxArraySize tasks (chunks with an offset),
// each after the preconditioning (afterok), and collect after them all
// (afterany).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/sweep/sweep_file.h"

namespace ssdlab::sim {

struct SlurmOptions {
  std::string partition, account;
  std::vector<std::string> extra;       // more #SBATCH lines, as "--constraint=x"
  std::string mem, time;                // instead of the estimates (as sbatch takes them)
  unsigned cpus = 1;                    // --cpus-per-task
  std::uint64_t max_array_size = 1001;  // the cluster's MaxArraySize (Slurm's default)
};

// What one job needs, estimated from its config and workload: memory from
// the bytes per flash page of its FTL x the device's pages, plus the
// statistics' 8 bytes per I/O; time from its I/O count and the flash pages
// its preconditioning writes, at rates measured on a 1 TiB device
// (docs/performance.md "Scale"), halved for a slower or busier node.
struct JobEstimate {
  std::uint64_t memory_bytes = 0;
  double run_seconds = 0, precondition_seconds = 0;
};
JobEstimate estimate_job(const Job& job);

// Refuses, before anything is written, what the scripts cannot carry: an
// output folder whose path an #SBATCH line cannot (a double quote, a
// backslash, a control character), a script or sweep file path with a
// control character (a newline would end a comment line), and option values
// that are not one value of Slurm's format (slurm_values.h).
void check_slurm_submission(const std::string& plan, const std::string& script,
                            const std::string& outdir, const SlurmOptions& options);

// Writes the script and the submit script; prints what to do next.
int write_slurm_scripts(const std::string& script, const SlurmOptions& options,
                        const std::vector<Job>& jobs, const nlohmann::json& list,
                        const std::string& outdir, std::ostream& out);

}  // namespace ssdlab::sim
