// The frozen job list of a sweep (OUTDIR/jobs.json): what every job runs,
// fixed when the sweep is submitted (`sweep`, `sweep --slurm`), so that a
// job that starts hours later (a Slurm array task waiting in the queue)
// runs exactly that, whatever happened to the sweep file and its configs
// meanwhile, and collect can tell its results from stale ones.
//
// Freezing copies each config and plan file a job names into
// OUTDIR/frozen/DIGEST/ (the digest of its text; the file keeps its name) and records, per job:
// its labels (config, sets, workload as the sweep file gives them), what
// it runs (the frozen files), its seed, precondition and state, its trace
// keys (mode, qd, speed, layout) and precondition_threads, the digest
// of its resolved config (every table, overrides applied) and its own
// digest. The sweep's id is the digest of the whole list: the same sweep
// frozen again has the same id. An array task reads its job from the list
// and writes only into its own job folder: the list is never rewritten by
// a task. Traces and load_state checkpoints are named, not copied.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "sim/results/summary.h"
#include "sim/sweep/sweep_file.h"

namespace ssdlab::sim {

// A job as the frozen list has it: the Job (config and workloads naming
// the frozen copies, resolved against the output folder) and its record.
struct FrozenJob {
  Job job;
  nlohmann::json record;
};

// The list of the jobs of `sweep` (from the sweep file `plan`) frozen for
// `outdir`, with the combinations it skipped (skip_refused), and its
// copies of the files, written by publish_frozen_list (nothing before).
struct FrozenList {
  nlohmann::json list;
  std::function<void()> write_copies;
};
FrozenList freeze_jobs(const Sweep& sweep, const std::string& plan,
                       const std::filesystem::path& outdir);

// Refuses an output folder that holds another sweep (a jobs.json of
// another id, or job folders without one) unless `replace`; with it, or
// for the same sweep when `clear_jobs`, removes the job folders (and the
// old frozen copies when the sweep differs). Then writes `list` as
// OUTDIR/jobs.json.
void publish_frozen_list(const FrozenList& frozen, const std::filesystem::path& outdir,
                         bool replace, bool clear_jobs);

// The frozen list of `outdir`; throws naming the folder if it has none
// (a folder that `sweep` or `sweep --slurm` did not write).
nlohmann::json read_frozen_list(const std::filesystem::path& outdir);

// Job `id` of the list, runnable: throws if the list has no such job.
FrozenJob frozen_job(const nlohmann::json& list, std::uint64_t id,
                     const std::filesystem::path& outdir);

// Job `id`'s record in its folder (sweep-job.json: the sweep id, the job's
// digest, the build that ran it), written by the task once its outputs
// are in place; removed first when a job starts.
void clear_job_record(const std::filesystem::path& job_dir);
void write_job_record(const nlohmann::json& list, const nlohmann::json& job,
                      const std::filesystem::path& job_dir);

// Why the job folder's summary is not this frozen job's result (another
// sweep's, an older run's, another config or seed), or empty if it is.
std::string stale_result(const nlohmann::json& list, const nlohmann::json& job,
                         const std::filesystem::path& job_dir, const SummaryRecord& summary);

// The digest of a config echo (to_json(DeviceConfig) as summary.json holds
// it): without where it came from, its derived capacity and what the FTL
// resolves when built (dftl's map cache, which a config may leave out).
std::string config_digest(nlohmann::json echo);

}  // namespace ssdlab::sim
