// The progress line of a sweep run on this machine (common/progress.h): jobs
// done, counting the running jobs' parts done, with the rate and an ETA over
// the whole sweep, then what each running job is doing ("job-00014
// simulating 62%"). Each job's own stages (preconditioning, simulating)
// report to it through SimOptions::progress_observer, as `sim` shows them on
// its own line. Thread-safe: the jobs run on a pool of threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>

#include "common/progress.h"

namespace ssdlab::sim {

class SweepProgress {
 public:
  // Off (quiet, or stderr not a terminal): observer() is empty, and
  // finished() only prints.
  SweepProgress(bool quiet, std::size_t jobs);
  // For testing: draws through `progress` (a Progress of `jobs` * kScale).
  SweepProgress(Progress progress, std::size_t jobs);

  // What job `id` reports its stages to; empty when the line is off.
  Progress::Observer observer(std::size_t id);
  // Job `id` is over: `print` writes its line (the progress line is erased
  // first and drawn again after).
  void finished(std::size_t id, const std::function<void()>& print);
  void finish();

  // A job counts as 1 / kScale parts: preconditioning its first half (when
  // it has one), simulating the rest.
  static constexpr std::uint64_t kScale = 1000;
  // The parts of a job done, from its stage and that stage's count.
  static std::uint64_t parts(bool preconditioned, std::string_view stage, std::uint64_t done,
                             std::uint64_t total);

 private:
  struct Running {
    std::string stage;  // "simulating", "preconditioning (random)"
    std::uint64_t done = 0, total = 0, parts = 0;
    bool preconditioned = false;
  };
  void report(std::size_t id, std::string_view stage, std::uint64_t done, std::uint64_t total);
  std::uint64_t parts_done() const;  // under mutex_
  std::string detail() const;        // under mutex_

  std::mutex mutex_;
  Progress progress_;
  std::map<std::size_t, Running> running_;
  std::size_t done_ = 0;
};

}  // namespace ssdlab::sim
