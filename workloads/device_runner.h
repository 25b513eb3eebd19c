// The real-device I/O loop of `ssdlab probe`: one run of an experiment
// against a target, processes x queue_depth threads, each a closed loop
// (uFLIP §4: one thread per outstanding I/O). The target and the clock are
// interfaces (LevelDB's Env): RealTarget and the steady clock in a real run,
// fakes in tests, so that the loop is tested without disk timing.
#pragma once

#include <cstdint>
#include <vector>

#include "common/io_mode.h"
#include "common/units.h"
#include "workloads/plan.h"

namespace ssdlab::workloads {

// What the loop reads, writes and trims. Calls come from several threads at
// once; errors are ssdlab::Error naming the target, the offset and the size.
class IoTarget {
 public:
  virtual ~IoTarget() = default;
  virtual std::uint64_t bytes() const = 0;
  // `buffer` is aligned to 4096 bytes and `size` long.
  virtual void read(std::uint64_t offset, void* buffer, std::uint32_t size) const = 0;
  virtual void write(std::uint64_t offset, const void* buffer, std::uint32_t size) const = 0;
  virtual void trim(std::uint64_t offset, std::uint32_t size) const = 0;
};

// Monotonic time and sleeping; called from several threads at once.
class IoClock {
 public:
  virtual ~IoClock() = default;
  virtual TimeNs now() const = 0;  // from any fixed origin
  virtual void sleep(TimeNs duration) const = 0;
};

// The steady clock of the machine.
const IoClock& system_clock();

// One I/O done: times from the run's start.
struct CompletedIo {
  TimeNs submitted, response;
  std::uint64_t io, offset;  // io: its number within its process, in submission order
  std::uint32_t size, process;
  IoMode mode;
};

// One thread per outstanding I/O: a run on a target starts processes x
// queue_depth threads, at most kMaxTargetThreads (and at most the soft
// RLIMIT_NPROC, when that is lower).
inline constexpr std::uint64_t kMaxTargetThreads = 1024;
std::uint64_t max_target_threads();
// Refuses (ssdlab::Error naming processes and queue_depth) an experiment that
// needs more threads than max_target_threads(); run_on_target() calls it, and
// `probe` before it touches the target.
void check_target_threads(const ExperimentSpec& spec);
// Refuses the plan keys that address parts of the simulated device only
// (namespace, queue, placement_id): on a real target (probe, export-fio)
// they would do nothing (issue 51, L5).
void check_target_keys(const ExperimentSpec& spec);

// Runs `spec`'s run `run` on `target`; returns every I/O in completion order
// (ties by process, then io). The first error of any thread stops the others
// and is rethrown; a thread that cannot be started is an ssdlab::Error
// saying that threads ran out. A response is at least 1 ns (io.csv holds microseconds
// with three decimals; a response is never 0).
std::vector<CompletedIo> run_on_target(const IoTarget& target, const IoClock& clock,
                                       const ExperimentSpec& spec, std::uint32_t run,
                                       std::uint64_t seed);

}  // namespace ssdlab::workloads
