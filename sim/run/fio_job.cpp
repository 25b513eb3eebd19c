#include "sim/run/fio_job.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <filesystem>
#include <fstream>
#include <ostream>
#include <vector>

#include "common/error.h"
#include "common/script_text.h"
#include "common/units.h"
#include "sim/report/report.h"
#include "sim/results/fio_export.h"
#include "sim/results/output.h"
#include "workloads/device_runner.h"
#include "workloads/generator.h"
#include "workloads/plan.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

namespace {

// probe's guess of the flash block (sim/run/probe.cpp), for plans that size
// their state enforcement by it: the same plan, the same experiments.
constexpr std::uint64_t kFlashBlockGuess = 128 * 1024;
constexpr std::uint32_t kSectorSize = 512;

std::uint64_t target_bytes(const FioJobOptions& options) {
  if (options.size > 0) return options.size;
  std::error_code error;
  const auto bytes = fs::file_size(options.target, error);
  if (error || bytes == 0)
    throw make_error(
        "--target {}: not an existing, non-empty file: give its size with --size (the size "
        "probe --size created it with)",
        options.target);
  return bytes;
}

const char* action(IoMode mode) {
  return mode == IoMode::kWrite ? "write" : mode == IoMode::kTrim ? "trim" : "read";
}

// One process of one run as a fio iolog (version 2): the generator's I/Os in
// submission order. Returns whether the process had idle time, which the
// iolog does not keep.
bool write_iolog(const fs::path& path, const std::string& target,
                 const workloads::ExperimentSpec& spec, std::uint32_t process,
                 std::uint64_t device_bytes, std::uint64_t seed) {
  workloads::IoGenerator generator(spec, process, device_bytes, seed);
  std::string text = fmt::format("fio version 2 iolog\n{0} add\n{0} open\n", target);
  bool idle = false;
  for (std::uint64_t i = 0; i < spec.count; ++i) {
    const workloads::IoRequest io = generator.next();
    idle = idle || io.delay_ns > 0;
    text += fmt::format("{} {} {} {}\n", target, action(io.mode), io.offset, io.size);
  }
  text += fmt::format("{} close\n", target);
  write_file_atomically(path, text);
  return idle;
}

// The job file's section of one process of one run.
std::string job_section(const workloads::ExperimentSpec& spec, bool first_of_run,
                        const fs::path& iolog) {
  std::string text = fmt::format("[{}]\n", spec.name);
  if (first_of_run) text += "stonewall\n";
  if (spec.queue_depth > 1)
    text += fmt::format("ioengine=libaio\niodepth={}\n", spec.queue_depth);
  text += fmt::format("read_iolog={}\n\n", iolog.string());
  return text;
}

// What the job file and the iologs cannot carry, refused before anything is
// written: a control character (a newline) in -w, --target or DIR would
// end a comment or a key=value line and start a line of fio's own (an
// exec_prerun= runs a shell command); an iolog line's fields are separated
// by whitespace, so the target path holds none.
// The paths are checked as written: absolute.
void check_fio_text(const FioJobOptions& options) {
  const std::string target = fs::absolute(options.target).lexically_normal().string();
  refuse_controls("-w", options.workload, "a fio job file's comment");
  refuse_controls("--target", target, "a fio job file");
  refuse_controls("DIR", fs::absolute(options.outdir).string(), "a fio job file");
  if (target.find(' ') != std::string::npos)
    throw make_error(
        "--target '{}': a fio iolog separates its fields by spaces, so the target's path can "
        "hold none; give a path without spaces (a symbolic link to it)",
        target);
}

}  // namespace

void write_fio_job(const FioJobOptions& options, std::ostream& out) {
  check_fio_text(options);
  const std::uint64_t bytes = target_bytes(options);
  const workloads::Plan plan =
      workloads::load_plan(options.workload, {bytes, kSectorSize, kFlashBlockGuess});
  for (const auto& spec : plan.experiments) {
    workloads::validate_against_device(spec, bytes, kSectorSize);
    workloads::check_target_keys(spec);
  }
  const fs::path dir(options.outdir);
  std::error_code error;
  fs::create_directories(dir, error);
  if (error)
    throw make_error("{}: cannot create the folder: {}", dir.string(), error.message());
  const std::string target = fs::absolute(options.target).lexically_normal().string();
  std::string jobs, idle;
  std::uint64_t iologs = 0;
  for (std::size_t e = 0; e < plan.experiments.size(); ++e) {
    const auto& spec = plan.experiments[e];
    bool had_idle = false;
    for (std::uint32_t run = 0; run < spec.runs; ++run)
      for (std::uint32_t p = 0; p < spec.processes; ++p) {
        const fs::path iolog = fs::absolute(
            dir / fmt::format("{:03}-{}-run{}-p{}.iolog", e, file_safe(spec.name), run, p + 1));
        had_idle |= write_iolog(iolog, target, spec, p, bytes,
                                workloads::stream_seed(seed_of(spec, options.seed), run, p));
        jobs += job_section(spec, p == 0, iolog);
        ++iologs;
      }
    if (had_idle || spec.run_pause_ns > 0) idle += fmt::format("#   {}\n", spec.name);
  }
  std::string text = fmt::format(
      "# Written by `ssdlab export-fio -w {} --target {}` (seed {}, {} B): the plan's I/Os\n"
      "# as fio iologs, one job per run and process, named after its experiment.\n"
      "#   fio {} --output-format=json+ --output=fio.json\n"
      "#   ssdlab compare PROBE_OR_SIM_OUTDIR fio.json\n"
      "# Not replayed: the plan's state enforcement{}.\n",
      options.workload, options.target, options.seed, bytes, (dir / "ssdlab.fio").string(),
      plan.state.empty() ? "" : fmt::format(" ('{}'; run probe first)", plan.state));
  if (!idle.empty())
    text += "# Not replayed: the idle time (pauses, bursts, run pauses) of\n" + idle;
  text += "\n[global]\nioengine=psync\ndirect=1\nthread\nlat_percentiles=1\n\n" + jobs;
  write_file_atomically(dir / "ssdlab.fio", text);
  fmt::print(out, "wrote {} ({} experiments, {} jobs) and {} iologs; run it with\n  fio {} "
                  "--output-format=json+ --output=fio.json\n",
             (dir / "ssdlab.fio").string(), plan.experiments.size(), iologs, iologs,
             (dir / "ssdlab.fio").string());
}

}  // namespace ssdlab::sim
