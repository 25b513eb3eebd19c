#include "sim/run/probe.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <ostream>
#include <thread>
#include <vector>

#include "common/error.h"
#include "common/progress.h"
#include "common/rng.h"
#include "common/units.h"
#include "sim/report/report.h"
#include "sim/report/uflip_report.h"
#include "sim/results/output.h"
#include "sim/results/run_samples.h"
#include "sim/results/summary.h"
#include "workloads/device_runner.h"
#include "workloads/generator.h"
#include "workloads/plan.h"
#include "workloads/real_target.h"
#include "workloads/state_enforcement.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

// uFLIP §4.1's state enforcement writes random sizes up to the flash block,
// which a real device does not tell us: the paper's 128 KB.
constexpr std::uint64_t kFlashBlockGuess = 128 * 1024;

TimeNs since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
}

std::optional<StateRecord> enforce_state(const workloads::RealTarget& target,
                                         const workloads::PreconditionSpec& spec,
                                         std::uint64_t seed, bool quiet) {
  if (spec.kind == workloads::PreconditionSpec::Kind::kNone) return std::nullopt;
  target.require_writable("state enforcement (--precondition, or the plan's state)");
  const auto start = Clock::now();
  workloads::AlignedBuffer buffer(kFlashBlockGuess);
  Rng fill(seed);
  for (std::size_t i = 0; i < buffer.size(); ++i)
    buffer.data()[i] = static_cast<unsigned char>(fill.next());
  std::uint64_t bytes = 0, writes = 0;
  const workloads::StateGeometry geometry{
      target.bytes() / target.sector_size() * target.sector_size(), kFlashBlockGuess,
      std::max<std::uint64_t>(4096, target.sector_size()), target.sector_size()};
  Progress progress = Progress::on_terminal(
      quiet, "state enforcement (" + spec.text + ")",
      geometry.capacity +
          static_cast<std::uint64_t>(spec.overwrites * static_cast<double>(geometry.capacity)),
      "bytes");
  workloads::state_writes(spec, geometry, seed, [&](std::uint64_t offset, std::uint64_t size) {
    target.write(offset, buffer.data(), static_cast<std::uint32_t>(size));
    bytes += size;
    ++writes;
    progress.update(bytes);  // real writes: a clock read each costs nothing in comparison
  });
  progress.finish();
  const double seconds = static_cast<double>(since(start)) * 1e-9;
  StateRecord done;
  done.mode = spec.text;
  done.bytes_written = bytes;
  done.writes = writes;
  done.wall_seconds = std::round(seconds * 1000) / 1000;
  return done;
}

// The runs of `spec` on the target, each summarised as summary.json holds
// it; their I/Os go to `io_log` (if any) in completion order. A run's
// start_us and end_us are wall-clock times from `origin` (the first
// experiment's start): its first submission and its last completion.
std::vector<RunRecord> probe_runs(const workloads::RealTarget& target,
                                  const workloads::ExperimentSpec& spec, std::uint64_t seed,
                                  const std::vector<double>& percentiles, IoLog* io_log,
                                  Clock::time_point origin) {
  std::vector<RunRecord> runs;
  for (std::uint32_t run = 0; run < spec.runs; ++run) {
    if (spec.run_pause_ns > 0)
      std::this_thread::sleep_for(std::chrono::nanoseconds(spec.run_pause_ns));
    const TimeNs run_start = since(origin);
    const auto ios = workloads::run_on_target(target, workloads::system_clock(), spec, run,
                                              seed_of(spec, seed));
    TimeNs first = 0, last = 0;  // from the run's start
    for (std::size_t i = 0; i < ios.size(); ++i) {
      first = i == 0 ? ios[i].submitted : std::min(first, ios[i].submitted);
      last = std::max(last, ios[i].submitted + ios[i].response);
    }
    RunSamples samples(RunGroup{spec.name, run, spec.count * spec.processes, spec.io_ignore,
                                spec.io_ignore_auto});
    for (const workloads::CompletedIo& io : ios) {
      if (io_log)
        io_log->row(spec.name, run, io.process, io.io, io.submitted, io.response, io.mode,
                    io.offset, io.size);
      samples.add(io.submitted, io.response, io.io, io.size,
                  RunSamples::kind_of(io.mode, /*refused=*/false));
    }
    std::uint64_t startup = 0;
    RunRecord& entry = runs.emplace_back(RunRecord::of(
        run, percentiles.empty() ? samples.summarize(&startup)
                                 : samples.summarize(&startup, percentiles)));
    if (spec.io_ignore_auto) entry.startup_ios = startup;
    entry.start_us = static_cast<double>(run_start + first) / 1000.0;
    entry.end_us = static_cast<double>(run_start + last) / 1000.0;
  }
  return runs;
}

TargetRecord target_record(const workloads::RealTarget& target) {
  return {target.path(), target.block_device() ? "block device" : "file", target.bytes(),
          target.sector_size(), target.direct(), target.created()};
}

// A FILE target to be created must fit in its filesystem's free space (with
// room to spare), checked before anything is created: a mistyped size would
// otherwise write until the disk is full.
void check_target_size(const ProbeOptions& options) {
  if (options.size == 0) return;
  std::error_code error;
  if (fs::exists(options.target, error)) return;  // RealTarget checks the size of what exists
  fs::path parent = fs::path(options.target).parent_path();
  if (parent.empty()) parent = ".";
  struct statvfs info {};
  if (::statvfs(parent.c_str(), &info) != 0)
    throw make_error("{}: cannot create the target: {}: {}", options.target, parent.string(),
                     std::strerror(errno));
  if (info.f_flag & ST_RDONLY)  // its free space is beside the point
    throw make_error("{}: cannot create the target: {}: {}", options.target, parent.string(),
                     std::strerror(EROFS));
  const Uint128 free_bytes =
      static_cast<Uint128>(info.f_bavail) * info.f_frsize;
  // Keep 1% of the free space (at least 64 MiB) for the outputs.
  const Uint128 spare = std::max<Uint128>(free_bytes / 100, 64ull << 20);
  if (options.size + spare > free_bytes)
    throw make_error("--size {}: {} has only {} free; give a smaller --size", format_size(options.size),
                     parent.string(),
                     format_size(static_cast<std::uint64_t>(
                         std::min<Uint128>(free_bytes, UINT64_MAX))));
}

}  // namespace

void run_probe(const ProbeOptions& options, std::ostream& out) {
  const fs::path outdir(options.outdir);
  check_target_size(options);
  const OutputLock lock = prepare_outdir(outdir);
  if (options.workload.starts_with("trace:"))
    throw make_error("-w '{}': probe runs plans; trace replay is for the simulator",
                     options.workload);
  const workloads::RealTarget target(
      {options.target, options.size, options.allow_destroy, options.buffered});
  const workloads::DeviceInfo device{target.bytes(), target.sector_size(), kFlashBlockGuess};
  const workloads::Plan plan = workloads::load_plan(options.workload, device);
  for (const auto& spec : plan.experiments) {
    workloads::validate_against_device(spec, target.bytes(), target.sector_size());
    workloads::check_target_threads(spec);
    workloads::check_target_keys(spec);
    if (workloads::writes(spec)) target.require_writable(fmt::format("experiment {}", spec.name));
  }
  workloads::PreconditionSpec state;
  if (!options.precondition.empty())
    state = workloads::parse_precondition(options.precondition);
  else if (!plan.state.empty())
    state = workloads::parse_precondition(plan.state);
  if (state.kind != workloads::PreconditionSpec::Kind::kNone)
    target.require_writable("state enforcement (--precondition, or the plan's state)");
  // The inputs are valid: an earlier run's outputs go now.
  clear_stale_outputs(outdir);

  fmt::print(out, "{} on {} ({}, {}{})\n", plan.source, target.path(), format_size(target.bytes()),
             target.block_device() ? "block device" : "file",
             target.direct() ? ", O_DIRECT" : ", buffered");
  std::uint32_t resets = 0;
  const auto enforce = [&](const char* what) {
    std::optional<StateRecord> done =
        enforce_state(target, state, options.seed + 0x9e37 * resets++, options.quiet);
    if (done)
      fmt::print(out, "{} ({}): {} written in {:.2f} s\n", what, state.text,
                 format_size(done->bytes_written.value_or(0)), done->wall_seconds);
    return done;
  };
  SummaryRecord summary;
  summary.precondition = enforce("state enforced");

  std::unique_ptr<IoLog> io_log;
  if (options.io_log) io_log = std::make_unique<IoLog>(outdir / "io.csv");
  print_experiment_header(out);
  const Clock::time_point origin = Clock::now();
  for (const auto& spec : plan.experiments) {
    ExperimentRecord experiment = experiment_record(spec, target.bytes(), options.seed);
    if (spec.reset_state_before) experiment.state_reset.emplace(enforce("state enforced again"));
    experiment.runs =
        probe_runs(target, spec, options.seed, options.percentiles, io_log.get(), origin);
    print_experiment(out, experiment);
    summary.experiments.push_back(std::move(experiment));
  }
  summary.benchmarks = benchmark_tables(summary.experiments, target.sector_size());
  summary.schema_version = kSummarySchemaVersion;
  summary.ssdlab_version = SSDLAB_VERSION;
  summary.workload = plan.source;
  summary.seed = options.seed;
  summary.logical_bytes = target.bytes();
  summary.target = target_record(target);
  if (io_log) io_log->finish();
  PendingFile summary_file(outdir / "summary.json", summary.text());
  if (io_log) io_log->publish();
  summary_file.publish();
  print_benchmark_tables(out, *summary.benchmarks);
  if (io_log) fmt::print(out, "  io.csv:       {}\n", (outdir / "io.csv").string());
  fmt::print(out, "  summary.json: {}\n", (outdir / "summary.json").string());
}

}  // namespace ssdlab::sim
