#include "sim/sweep/sweep_slurm.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <ostream>

#include "common/error.h"
#include "common/script_text.h"
#include "common/units.h"
#include "sim/config/config.h"
#include "sim/results/output.h"
#include "sim/sweep/slurm_values.h"
#include "workloads/plan.h"
#include "workloads/state_enforcement.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

namespace {

// docs/performance.md, "Memory": 8.25 bytes per physical page for the
// page-mapped FTL on agrawal-1tib (dftl keeps the same map), 4.43-4.44 for
// the block FTLs; a run keeps 8 bytes per I/O for its statistics up to
// --exact-samples (2^25); the binary and its buffers: a tiny run's peak RSS
// is 8.4 MiB (`/usr/bin/time -f %M ssdlab sim -c configs/tiny.toml ...`).
constexpr double kPageMappedBytesPerPage = 8.5, kBlockBytesPerPage = 4.6;
constexpr std::uint64_t kBaseBytes = 16ull << 20, kExactSamples = 1ull << 25;
// docs/performance.md, "Scale": 0.93-1.67 M I/Os per CPU second (1 TiB and
// 32 GiB); preconditioning ~7 M flash pages per CPU second. Halved.
constexpr double kIosPerSecond = 0.45e6, kPreconditionPagesPerSecond = 3.5e6;
constexpr double kStartSeconds = 30;  // building the device, loading a cached state
constexpr double kMemoryMargin = 1.25, kTimeMargin = 1.5;

std::uint64_t plan_ios(const std::string& workload, const workloads::DeviceInfo& device) {
  if (workload.starts_with("trace:")) {  // ~30 bytes per request line
    std::error_code error;
    const std::uint64_t bytes = fs::file_size(workload.substr(6), error);
    return error ? 0 : bytes / 30;
  }
  std::uint64_t ios = 0;
  for (const auto& spec : workloads::load_plan(workload, device).experiments)
    ios += spec.count * spec.processes * spec.runs;
  return ios;
}

// Flash pages the preconditioning writes: the fill, then its overwrites at
// a write amplification of about 4 when random (the 32 GiB baseline: 37 M
// flash pages for 8.4 M physical, docs/performance.md).
double precondition_pages(const std::string& text, std::uint64_t pages) {
  if (text.empty()) return 0;
  const workloads::PreconditionSpec spec = workloads::parse_precondition(text);
  using Kind = workloads::PreconditionSpec::Kind;
  if (spec.kind == Kind::kNone) return 0;
  const double factor = spec.kind == Kind::kSequential ? 1.0 : 4.0;
  return static_cast<double>(pages) * (1.0 + factor * spec.overwrites);
}

// A log file `name` (a Slurm file name pattern) in the folder `path`, for
// an #SBATCH line: in double quotes (spaces), the folder's % doubled (not
// a pattern); refused where Slurm's parser cannot carry it.
std::string sbatch_path(const std::string& path, const std::string& name) {
  if (path.find_first_of("\"\\") != std::string::npos || has_control(path))
    throw make_error(
        "{}: a path with a double quote, backslash or control character (a newline) cannot be "
        "given to #SBATCH; give -o another folder",
        escaped_controls(path));
  std::string out = "\"";
  for (char c : path) out += c == '%' ? std::string("%%") : std::string(1, c);
  return out + "/" + name + "\"";
}

std::string slurm_time(double seconds) {
  const auto minutes = static_cast<std::uint64_t>(std::ceil(std::max(seconds, 300.0) / 60));
  return fmt::format("{}-{:02}:{:02}:00", minutes / 1440, minutes / 60 % 24, minutes % 60);
}

std::string slurm_mem(std::uint64_t bytes) {
  return fmt::format("{}M", (bytes + (1 << 20) - 1) >> 20);
}

std::string this_executable() {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  return error ? std::string("ssdlab") : self.string();
}

}  // namespace

JobEstimate estimate_job(const Job& job) {
  const DeviceConfig config = load_config(job.config, job.sets);
  const auto& g = config.geometry;
  const workloads::DeviceInfo device{g.capacity_bytes(), config.sector_size,
                                     std::uint64_t{g.pages_per_block} * g.page_size};
  std::uint64_t ios = 0;
  for (const std::string& workload : job.workloads) ios += plan_ios(workload, device);
  const bool page_map = config.ftl.type == "page-mapped" || config.ftl.type == "dftl";
  const double per_page = page_map ? kPageMappedBytesPerPage : kBlockBytesPerPage;
  JobEstimate e;
  e.memory_bytes = static_cast<std::uint64_t>(
      kMemoryMargin * (static_cast<double>(kBaseBytes) + per_page * static_cast<double>(g.pages()) +
                       8.0 * static_cast<double>(std::min(ios, kExactSamples))));
  e.run_seconds = kTimeMargin * (kStartSeconds + static_cast<double>(ios) / kIosPerSecond);
  e.precondition_seconds =
      kTimeMargin * precondition_pages(job.precondition, g.pages()) / kPreconditionPagesPerSecond;
  return e;
}

namespace {

// What every task asks for: the largest of each estimate over the jobs
// (one script for all), unless given.
struct Resources {
  JobEstimate most;
  std::string mem, time, state_time;
};

Resources resources(const SlurmOptions& options, const std::vector<Job>& jobs) {
  Resources r;
  std::map<std::string, JobEstimate> seen;  // per config, sets, workloads and precondition
  for (const Job& job : jobs) {
    const std::string key =
        nlohmann::json({job.config, job.sets, job.workloads, job.precondition}).dump();
    if (!seen.count(key)) seen[key] = estimate_job(job);
    const JobEstimate& e = seen[key];
    r.most.memory_bytes = std::max(r.most.memory_bytes, e.memory_bytes);
    r.most.run_seconds = std::max(r.most.run_seconds, e.run_seconds);
    r.most.precondition_seconds = std::max(r.most.precondition_seconds, e.precondition_seconds);
  }
  r.mem = options.mem.empty() ? slurm_mem(r.most.memory_bytes) : options.mem;
  // A job makes its state itself when it finds none (no preconditioning
  // task, or a cache folder it does not share): counted in.
  r.time = options.time.empty() ? slurm_time(r.most.run_seconds + r.most.precondition_seconds)
                                : options.time;
  r.state_time =
      options.time.empty() ? slurm_time(kStartSeconds + r.most.precondition_seconds) : options.time;
  return r;
}

std::string directives(const SlurmOptions& options, const Resources& r, const std::string& name,
                       std::uint64_t tasks, const std::string& outdir) {
  std::string text = fmt::format(
      "#SBATCH --job-name={}\n#SBATCH --array=0-{}\n#SBATCH --cpus-per-task={}\n"
      "#SBATCH --mem={}\n#SBATCH --time={}\n#SBATCH --output={}\n",
      slurm_job_name(name), tasks - 1, options.cpus, r.mem, r.time,
      sbatch_path(outdir + "/logs", "slurm-%A_%a.log"));
  if (!options.partition.empty())
    text += fmt::format("#SBATCH --partition={}\n", options.partition);
  if (!options.account.empty()) text += fmt::format("#SBATCH --account={}\n", options.account);
  check_slurm_options(options);  // (checked before anything was written, too)
  for (const std::string& line : options.extra) text += fmt::format("#SBATCH {}\n", line);
  return text;
}

// The array script: job N is task N - OFFSET of `sbatch SCRIPT OFFSET`;
// `SCRIPT precondition` and `SCRIPT collect` are the other two kinds of task.
std::string array_script(const std::string& directives, const Resources& r,
                         const nlohmann::json& list, const std::string& outdir,
                         const std::string& script, const std::string& submit) {
  const std::string ssdlab = shell_quoted(this_executable()), out = shell_quoted(outdir);
  return fmt::format(
      "#!/bin/bash\n"
      "# Generated by `ssdlab sweep --slurm` for {plan} (sweep {id}: {jobs} jobs, frozen in\n"
      "# {outdir}/jobs.json; the tasks read their job there, not the sweep file).\n"
      "# Job N is array task N - OFFSET of `sbatch {script} OFFSET` (OFFSET 0 if not given):\n"
      "#   everything:   bash {submit}\n"
      "#   rerun job N:  sbatch --array=N {script}   (N - OFFSET and OFFSET past the first chunk)\n"
      "# Estimates per job: memory {mem}, run {run:.0f} s, preconditioning {pre:.0f} s.\n"
      "{directives}"
      "set -euo pipefail\n"
      "mode=\"${{1:-0}}\"\n"
      "case \"$mode\" in\n"
      "  precondition) exec {ssdlab} sweep -o {out} --state \"$SLURM_ARRAY_TASK_ID\" ;;\n"
      "  collect) exec {ssdlab} collect {out} ;;\n"
      "  *) exec {ssdlab} sweep -o {out} --job \"$((SLURM_ARRAY_TASK_ID + mode))\" ;;\n"
      "esac\n",
      fmt::arg("plan", list.at("sweep").get<std::string>()),
      fmt::arg("id", list.at("sweep_id").get<std::string>()),
      fmt::arg("jobs", list.at("jobs").size()), fmt::arg("outdir", outdir),
      fmt::arg("script", shell_quoted(script)), fmt::arg("submit", shell_quoted(submit)),
      fmt::arg("mem", format_size(r.most.memory_bytes)), fmt::arg("run", r.most.run_seconds),
      fmt::arg("pre", r.most.precondition_seconds), fmt::arg("directives", directives),
      fmt::arg("ssdlab", ssdlab), fmt::arg("out", out));
}

// The submit script: sbatch --parsable gives "ID" or "ID;CLUSTER".
std::string submit_script(const Resources& r, const nlohmann::json& list, std::uint64_t chunk,
                          const std::string& script, const std::string& outdir) {
  const std::size_t states = list.at("states").size(), jobs = list.at("jobs").size();
  if (states > chunk)
    throw make_error("{} shared states: more than --max-array-size {}", states, chunk);
  std::string body = fmt::format(
      "#!/bin/bash\n"
      "# Submits sweep {id}: {states} preconditioning task(s), {jobs} jobs in arrays of at most\n"
      "# {chunk} tasks (MaxArraySize), then collect. Generated by `ssdlab sweep --slurm`.\n"
      "set -euo pipefail\n"
      "script={script}\n"
      "id() {{ local out; out=$(sbatch --parsable \"$@\"); echo \"${{out%%;*}}\"; }}\n"
      "after=()\n",
      fmt::arg("id", list.at("sweep_id").get<std::string>()), fmt::arg("states", states),
      fmt::arg("jobs", jobs), fmt::arg("chunk", chunk), fmt::arg("script", shell_quoted(script)));
  if (states)
    body += fmt::format(
        "pre=$(id --array=0-{} --time={} \"$script\" precondition)\n"
        "echo \"preconditioning: $pre ({} states)\"\nafter=(--dependency=afterok:$pre)\n",
        states - 1, r.state_time, states);
  body += "jobs=()\n";
  for (std::uint64_t offset = 0; offset < jobs; offset += chunk)
    body += fmt::format("jobs+=($(id ${{after[@]+\"${{after[@]}}\"}} --array=0-{} \"$script\" {}))\n",
                        std::min<std::uint64_t>(chunk, jobs - offset) - 1, offset);
  return body +
         fmt::format(
             "echo \"jobs: ${{jobs[*]}} (offsets 0 to {} by {})\"\n"
             "deps=$(IFS=:; echo \"${{jobs[*]}}\")\n"
             "done=$(id --dependency=afterany:$deps --array=0 --mem=1G --time=00:30:00 \"$script\" "
             "collect)\n"
             // The path outside the double quotes: quoted for bash on its own.
             "echo \"collect: $done (after every job, whatever its end):\" {} \"when it ends\"\n",
             (jobs - 1) / chunk * chunk, chunk, shell_quoted(outdir + "/sweep.csv"));
}

void write_script(const fs::path& path, const std::string& text) {
  write_file_atomically(path, text);
  fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add);
}

}  // namespace

void check_slurm_submission(const std::string& plan, const std::string& script,
                            const std::string& outdir, const SlurmOptions& options) {
  (void)sbatch_path(fs::absolute(outdir).lexically_normal().string(), "");
  // Both paths are written, absolute, into the scripts' comments (and quoted in their code).
  refuse_controls("--slurm", fs::absolute(script).lexically_normal().string(), "a batch script");
  refuse_controls("the sweep file", fs::absolute(plan).lexically_normal().string(),
                  "a batch script's comments");
  check_slurm_options(options);
}

int write_slurm_scripts(const std::string& script, const SlurmOptions& options,
                        const std::vector<Job>& jobs, const nlohmann::json& list,
                        const std::string& outdir_text, std::ostream& out) {
  const std::string outdir = fs::absolute(outdir_text).lexically_normal().string();
  const fs::path path = fs::absolute(script).lexically_normal();
  const fs::path submit = fs::path(path).replace_filename(path.stem().string() + "-submit.sh");
  const Resources r = resources(options, jobs);
  const std::uint64_t chunk = std::max<std::uint64_t>(1, options.max_array_size);
  const std::string name = fs::path(list.at("sweep").get<std::string>()).stem().string();
  const std::string text = array_script(
      directives(options, r, name, std::min<std::uint64_t>(jobs.size(), chunk), outdir), r, list,
      outdir, path.string(), submit.string());
  const std::string submit_text = submit_script(r, list, chunk, path.string(), outdir);
  fs::create_directories(fs::path(outdir) / "logs");  // Slurm needs it when a task starts
  write_script(script, text);
  write_script(submit, submit_text);
  const std::uint64_t chunks = (jobs.size() + chunk - 1) / chunk;
  fmt::print(
      out, "{}: {} jobs as a Slurm array{}; --mem={} --time={} per task\n", script, jobs.size(),
      chunks > 1 ? fmt::format(" in {} chunks of at most {} (MaxArraySize)", chunks, chunk) : "",
      r.mem, r.time);
  fmt::print(out,
             "submit it all (preconditioning, jobs, collect) with `bash {}`; then `ssdlab "
             "collect {}`\n",
             submit.string(), outdir_text);
  return 0;
}

}  // namespace ssdlab::sim
