#include "workloads/device_runner.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

#include "common/error.h"
#include "common/rng.h"
#include "workloads/generator.h"
#include "workloads/real_target.h"

namespace ssdlab::workloads {
namespace {

class SteadyClock final : public IoClock {
 public:
  TimeNs now() const override {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  void sleep(TimeNs duration) const override {
    std::this_thread::sleep_for(std::chrono::nanoseconds(duration));
  }
};

}  // namespace

std::uint64_t max_target_threads() {
  struct rlimit limit {};
  if (::getrlimit(RLIMIT_NPROC, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    return std::min<std::uint64_t>(kMaxTargetThreads, limit.rlim_cur);
  return kMaxTargetThreads;
}

void check_target_threads(const ExperimentSpec& spec) {
  const std::uint64_t threads = std::uint64_t{spec.processes} * spec.queue_depth;
  const std::uint64_t most = max_target_threads();
  if (threads > most)
    throw make_error(
        "{}: processes x queue_depth = {} x {} = {} threads (one per outstanding I/O); a real "
        "target runs at most {}{}: lower processes or queue_depth",
        spec.origin, spec.processes, spec.queue_depth, threads, most,
        most < kMaxTargetThreads ? " (the process limit, ulimit -u)" : "");
}

const IoClock& system_clock() {
  static const SteadyClock clock;
  return clock;
}

void check_target_keys(const ExperimentSpec& spec) {
  const char* key = spec.namespace_id   ? "namespace"
                    : spec.queue        ? "queue"
                    : spec.placement_id ? "placement_id"
                                        : "ruh_update_every";
  if (spec.namespace_id || spec.queue || spec.placement_id || spec.ruh_update_every)
    throw make_error(
        "{}: {} addresses the simulated device's namespaces, submission queues or placement "
        "handles (ssdlab sim); a real target has none of them here, so the key would do "
        "nothing: leave it out",
        spec.origin, key);
}

namespace {

// The runner's buffers and threads assume one size and closed loops.
void check_target_spec(const ExperimentSpec& spec) {
  check_target_keys(spec);
  if (spec.synthetic.any())
    throw make_error(
        "{}: interarrival_us, size_distribution, sequential_share and read_share run on the "
        "simulator only (ssdlab sim), not against a real target",
        spec.origin);
  if (spec.zone.on())
    throw make_error(
        "{}: zones_open writes zones of a simulated zoned device (ssdlab sim); a real target is "
        "written through its block device, which this runner does not drive as zones",
        spec.origin);
  check_target_threads(spec);
}

void serve(const IoTarget& target, const IoRequest& io, unsigned char* buffer) {
  if (io.mode == IoMode::kWrite)
    target.write(io.offset, buffer, io.size);
  else if (io.mode == IoMode::kTrim)
    target.trim(io.offset, io.size);
  else
    target.read(io.offset, buffer, io.size);
}

// Every slot's I/Os in completion order (ties: by process, then I/O number).
std::vector<CompletedIo> in_completion_order(const std::vector<std::vector<CompletedIo>>& done) {
  std::vector<CompletedIo> all;
  for (const auto& part : done) all.insert(all.end(), part.begin(), part.end());
  std::sort(all.begin(), all.end(), [](const CompletedIo& a, const CompletedIo& b) {
    const TimeNs ea = a.submitted + a.response, eb = b.submitted + b.response;
    if (ea != eb) return ea < eb;
    return a.process != b.process ? a.process < b.process : a.io < b.io;
  });
  return all;
}

}  // namespace

std::vector<CompletedIo> run_on_target(const IoTarget& target, const IoClock& clock,
                                       const ExperimentSpec& spec, std::uint32_t run,
                                       std::uint64_t seed) {
  check_target_spec(spec);
  struct Process {
    explicit Process(IoGenerator g) : generator(std::move(g)) {}
    IoGenerator generator;
    std::mutex mutex;
    std::uint64_t issued = 0;
  };
  std::vector<std::unique_ptr<Process>> processes;
  for (std::uint32_t p = 0; p < spec.processes; ++p)
    processes.push_back(
        std::make_unique<Process>(IoGenerator(spec, p, target.bytes(), stream_seed(seed, run, p))));

  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  std::vector<std::vector<CompletedIo>> done(std::size_t{spec.processes} * spec.queue_depth);
  const TimeNs start = clock.now();
  const auto slot = [&](std::uint32_t process, std::size_t index) {
    try {
      AlignedBuffer buffer(spec.io_size);
      Rng fill(seed ^ index);  // incompressible data, whatever the device does with it
      for (std::size_t i = 0; i < buffer.size(); ++i)
        buffer.data()[i] = static_cast<unsigned char>(fill.next());
      Process& p = *processes[process];
      auto& mine = done[index];
      while (!failed.load(std::memory_order_relaxed)) {
        IoRequest io;
        std::uint64_t number;
        {
          std::lock_guard lock(p.mutex);
          if (p.issued >= spec.count) break;
          io = p.generator.next();
          number = p.issued++;
        }
        if (io.delay_ns > 0) clock.sleep(io.delay_ns);
        const TimeNs submitted = clock.now() - start;
        serve(target, io, buffer.data());
        const TimeNs response = std::max<TimeNs>(1, clock.now() - start - submitted);
        mine.push_back({submitted, response, number, io.offset, io.size, process, io.mode});
      }
    } catch (...) {
      std::lock_guard lock(error_mutex);
      if (!error) error = std::current_exception();
      failed = true;
    }
  };
  std::string no_thread;  // why a thread could not be started
  {
    std::vector<std::jthread> threads;
    try {
      for (std::uint32_t p = 0; p < spec.processes; ++p)
        for (std::uint32_t q = 0; q < spec.queue_depth; ++q)
          threads.emplace_back(slot, p, std::size_t{p} * spec.queue_depth + q);
    } catch (const std::system_error& failure) {
      failed = true;  // the threads already started stop; they are joined here
      no_thread = fmt::format("thread {} of {}: {}", threads.size() + 1,
                              std::size_t{spec.processes} * spec.queue_depth, failure.what());
    }
  }
  if (!no_thread.empty())
    throw make_error(
        "{}: threads ran out: could not start {} (processes x queue_depth threads, one per "
        "outstanding I/O): lower processes or queue_depth",
        spec.origin, no_thread);
  if (error) std::rethrow_exception(error);

  // The io number is the order of submission within a process: threads of
  // one process draw I/Os in order but may start them out of order.
  return in_completion_order(done);
}

}  // namespace ssdlab::workloads
