#include "sim/run/probe.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <atomic>
#include <chrono>
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
#include "sim/results/output.h"
#include "sim/state/precondition.h"
#include "sim/results/report.h"
#include "sim/results/run_samples.h"
#include "sim/results/uflip_report.h"
#include "workloads/generator.h"
#include "workloads/plan.h"
#include "workloads/real_target.h"

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

struct Completed {
  TimeNs submitted, response;
  std::uint64_t io, offset;
  std::uint32_t size, process;
  IoMode mode;
};

// One run of `spec` on the target: processes x queue_depth threads, each a
// closed loop. Returns the I/Os in completion order.
std::vector<Completed> run_on_target(const workloads::RealTarget& target,
                                     const workloads::ExperimentSpec& spec, std::uint32_t run,
                                     std::uint64_t seed) {
  struct Process {
    explicit Process(workloads::IoGenerator g) : generator(std::move(g)) {}
    workloads::IoGenerator generator;
    std::mutex mutex;
    std::uint64_t issued = 0;
  };
  std::vector<std::unique_ptr<Process>> processes;
  for (std::uint32_t p = 0; p < spec.processes; ++p)
    processes.push_back(std::make_unique<Process>(
        workloads::IoGenerator(spec, p, target.bytes(), workloads::stream_seed(seed, run, p))));

  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  std::vector<std::vector<Completed>> done(std::size_t{spec.processes} * spec.queue_depth);
  const auto start = Clock::now();
  const auto slot = [&](std::uint32_t process, std::size_t index) {
    try {
      workloads::AlignedBuffer buffer(spec.io_size);
      Rng fill(seed ^ index);  // incompressible data, whatever the device does with it
      for (std::size_t i = 0; i < buffer.size(); ++i)
        buffer.data()[i] = static_cast<unsigned char>(fill.next());
      Process& p = *processes[process];
      auto& mine = done[index];
      while (!failed.load(std::memory_order_relaxed)) {
        workloads::IoRequest io;
        std::uint64_t number;
        {
          std::lock_guard lock(p.mutex);
          if (p.issued >= spec.count) break;
          io = p.generator.next();
          number = p.issued++;
        }
        if (io.delay_ns > 0) std::this_thread::sleep_for(std::chrono::nanoseconds(io.delay_ns));
        const TimeNs submitted = since(start);
        if (io.mode == IoMode::kWrite)
          target.write(io.offset, buffer.data(), io.size);
        else if (io.mode == IoMode::kTrim)
          target.trim(io.offset, io.size);
        else
          target.read(io.offset, buffer.data(), io.size);
        // io.csv holds microseconds with three decimals; a response is never 0.
        const TimeNs response = std::max<TimeNs>(1, since(start) - submitted);
        mine.push_back({submitted, response, number, io.offset, io.size, process, io.mode});
      }
    } catch (...) {
      std::lock_guard lock(error_mutex);
      if (!error) error = std::current_exception();
      failed = true;
    }
  };
  {
    std::vector<std::jthread> threads;
    for (std::uint32_t p = 0; p < spec.processes; ++p)
      for (std::uint32_t q = 0; q < spec.queue_depth; ++q)
        threads.emplace_back(slot, p, std::size_t{p} * spec.queue_depth + q);
  }
  if (error) std::rethrow_exception(error);

  std::vector<Completed> all;
  for (auto& part : done) all.insert(all.end(), part.begin(), part.end());
  std::sort(all.begin(), all.end(), [](const Completed& a, const Completed& b) {
    const TimeNs ea = a.submitted + a.response, eb = b.submitted + b.response;
    if (ea != eb) return ea < eb;
    return a.process != b.process ? a.process < b.process : a.io < b.io;
  });
  // The io number is the order of submission within a process: threads of
  // one process draw I/Os in order but may start them out of order.
  return all;
}

nlohmann::json enforce_state(const workloads::RealTarget& target, const PreconditionSpec& spec,
                             std::uint64_t seed, bool quiet) {
  if (spec.kind == PreconditionSpec::Kind::kNone) return nullptr;
  target.require_writable("state enforcement (--precondition, or the plan's state)");
  const auto start = Clock::now();
  workloads::AlignedBuffer buffer(kFlashBlockGuess);
  Rng fill(seed);
  for (std::size_t i = 0; i < buffer.size(); ++i)
    buffer.data()[i] = static_cast<unsigned char>(fill.next());
  std::uint64_t bytes = 0, writes = 0;
  const StateGeometry geometry{
      target.bytes() / target.sector_size() * target.sector_size(), kFlashBlockGuess,
      std::max<std::uint64_t>(4096, target.sector_size()), target.sector_size()};
  Progress progress = Progress::on_terminal(
      quiet, "state enforcement (" + spec.text + ")",
      geometry.capacity +
          static_cast<std::uint64_t>(spec.overwrites * static_cast<double>(geometry.capacity)),
      "bytes");
  state_writes(spec, geometry, seed, [&](std::uint64_t offset, std::uint64_t size) {
    target.write(offset, buffer.data(), static_cast<std::uint32_t>(size));
    bytes += size;
    ++writes;
    progress.update(bytes);  // real writes: a clock read each costs nothing in comparison
  });
  progress.finish();
  const double seconds = static_cast<double>(since(start)) * 1e-9;
  return {{"mode", spec.text},
          {"bytes_written", bytes},
          {"writes", writes},
          {"wall_seconds", std::round(seconds * 1000) / 1000}};
}

}  // namespace

void run_probe(const ProbeOptions& options, std::ostream& out) {
  const fs::path outdir(options.outdir);
  prepare_outdir(outdir);
  if (options.workload.starts_with("trace:"))
    throw make_error("-w '{}': probe runs plans; trace replay is for the simulator",
                     options.workload);
  const workloads::RealTarget target(
      {options.target, options.size, options.allow_destroy, options.buffered});
  const workloads::DeviceInfo device{target.bytes(), target.sector_size(), kFlashBlockGuess};
  const workloads::Plan plan = workloads::load_plan(options.workload, device);
  for (const auto& spec : plan.experiments) {
    workloads::validate_against_device(spec, target.bytes(), target.sector_size());
    if (workloads::writes(spec)) target.require_writable(fmt::format("experiment {}", spec.name));
  }
  PreconditionSpec state;
  if (!options.precondition.empty())
    state = parse_precondition(options.precondition);
  else if (!plan.state.empty())
    state = parse_precondition(plan.state);

  fmt::print(out, "{} on {} ({}, {}{})\n", plan.source, target.path(), format_size(target.bytes()),
             target.block_device() ? "block device" : "file",
             target.direct() ? ", O_DIRECT" : ", buffered");
  std::uint32_t resets = 0;
  const auto enforce = [&](const char* what) {
    const nlohmann::json done =
        enforce_state(target, state, options.seed + 0x9e37 * resets++, options.quiet);
    if (!done.is_null())
      fmt::print(out, "{} ({}): {} written in {:.2f} s\n", what, state.text,
                 format_size(done["bytes_written"].get<std::uint64_t>()),
                 done["wall_seconds"].get<double>());
    return done;
  };
  const nlohmann::json preconditioned = enforce("state enforced");

  std::unique_ptr<IoLog> io_log;
  if (options.io_log) io_log = std::make_unique<IoLog>(outdir / "io.csv");
  print_experiment_header(out);
  nlohmann::json experiments = nlohmann::json::array();
  for (const auto& spec : plan.experiments) {
    nlohmann::json experiment = experiment_json(spec, target.bytes(), options.seed);
    if (spec.reset_state_before) experiment["state_reset"] = enforce("state enforced again");
    nlohmann::json runs = nlohmann::json::array();
    for (std::uint32_t run = 0; run < spec.runs; ++run) {
      if (spec.run_pause_ns > 0)
        std::this_thread::sleep_for(std::chrono::nanoseconds(spec.run_pause_ns));
      const auto ios = run_on_target(target, spec, run, seed_of(spec, options.seed));
      RunSamples samples(RunGroup{spec.name, run, spec.count * spec.processes, spec.io_ignore,
                                  spec.io_ignore_auto});  // in completion order, as run_on_target returns them
      for (const Completed& io : ios) {
        if (io_log)
          io_log->row(spec.name, run, io.process, io.io, io.submitted, io.response, io.mode,
                      io.offset, io.size);
        samples.add(io.submitted, io.response, io.io, io.size);
      }
      std::uint64_t startup = 0;
      nlohmann::json entry =
          to_json(options.percentiles.empty() ? samples.summarize(&startup)
                                              : samples.summarize(&startup, options.percentiles));
      entry["run"] = run;
      if (spec.io_ignore_auto) entry["startup_ios"] = startup;
      runs.push_back(std::move(entry));
    }
    experiment["runs"] = std::move(runs);
    print_experiment(out, experiment);
    experiments.push_back(std::move(experiment));
  }
  const nlohmann::json tables = benchmark_tables(experiments, target.sector_size());
  const nlohmann::json summary = {
      {"ssdlab", {{"version", SSDLAB_VERSION}}},
      {"workload", plan.source},
      {"seed", options.seed},
      {"logical_bytes", target.bytes()},
      {"precondition", preconditioned},
      {"experiments", experiments},
      {"benchmarks", tables},
      {"target",
       {{"path", target.path()},
        {"kind", target.block_device() ? "block device" : "file"},
        {"bytes", target.bytes()},
        {"sector_size", target.sector_size()},
        {"direct", target.direct()},
        {"created", target.created()}}},
  };
  if (io_log) io_log->commit();
  write_file_atomically(outdir / "summary.json", summary.dump(2) + "\n");
  print_benchmark_tables(out, tables);
  if (io_log) fmt::print(out, "  io.csv:       {}\n", (outdir / "io.csv").string());
  fmt::print(out, "  summary.json: {}\n", (outdir / "summary.json").string());
}

}  // namespace ssdlab::sim
