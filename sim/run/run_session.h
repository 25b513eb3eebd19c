// The run driver every `ssdlab sim` run goes through, plans and traces
// alike: the output folder, the device config, the Ssd and its teaching
// views, a loaded checkpoint, preconditioning, the io.csv log, the one host
// loop with its power cuts and lifetime stop, and at the end the device's
// part of summary.json, a saved checkpoint, the outputs committed together
// and the closing lines. What differs between plans and traces (how the
// experiments run, what summary.json says of each) is the caller's.
//
//   RunSession session(options, out);      // folder, config, Ssd, checkpoint
//   session.precondition(spec, "preconditioned");
//   Simulator& host = session.start(io_log, total_ios);
//   ... runs on host ...
//   session.finish(summary, workload, end_of_life);  // a SummaryRecord: outputs
#pragma once

#include <chrono>
#include <cstdint>
#include <ctime>
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/progress.h"
#include "sim/config/config.h"
#include "sim/controller/ssd.h"
#include "sim/engine/simulator.h"
#include "sim/results/output.h"
#include "sim/results/row_log.h"
#include "sim/results/summary.h"
#include "sim/run/plan_run.h"
#include "sim/state/checkpoint.h"
#include "sim/state/precondition.h"
#include "sim/views/io_detail.h"
#include "sim/views/teaching.h"

namespace ssdlab::sim {

class RunSession {
 public:
  // Prepares the output folder (first: an earlier run's outputs must not
  // survive a failure), loads the config, builds the Ssd (with power cuts if
  // asked for) and the teaching views, and loads options.load_state. Throws
  // ssdlab::Error on bad input.
  RunSession(const SimOptions& options, std::ostream& out);
  ~RunSession();

  Ssd& ssd() { return *ssd_; }
  const DeviceConfig& config() const { return config_; }
  const std::filesystem::path& outdir() const { return outdir_; }
  bool loaded_state() const { return !options_.load_state.empty(); }
  std::uint64_t seed() const { return options_.seed; }

  // Brings the device to `spec`'s state (seeded by the run's seed and the
  // number of state enforcements so far); prints a line starting with
  // `what`. Returns what it did (nothing for none). The first one loads the
  // state from the state cache, or saves it there (sim/state/state_cache.h),
  // where the run allows.
  std::optional<StateRecord> precondition(const workloads::PreconditionSpec& spec,
                                          const char* what);

  // Starts the measured part: the io.csv log (if `io_log` and not
  // --no-io-log), the host loop at the loaded clock, the lifetime limit and
  // the power cuts over `total_ios` I/Os (random:K draws among them). The
  // wall and CPU clocks of the closing line start here.
  Simulator& start(bool io_log, std::uint64_t total_ios);
  Simulator& simulator() { return *simulator_; }
  // Erases the progress line before printing to the terminal; it comes back
  // at its next update.
  void clear_progress() { progress_.clear(); }

  // Completes `summary` with what every run reports (simulated time, device
  // totals, wear, verification, config, power cuts, checkpoints), saves the
  // state if asked (not after the device's end of life), writes io.csv and
  // summary.json, and the teaching views.
  void finish(SummaryRecord& summary, const std::string& workload, bool end_of_life);
  // The closing lines: write amplification, speed (wall and CPU), the
  // verification, power cuts, checkpoint and output files.
  void print_closing(const SummaryRecord& summary, std::uint64_t ios) const;

 private:
  bool may_use_state_cache() const;

  const SimOptions& options_;
  std::ostream& out_;
  std::filesystem::path outdir_;
  OutputLock lock_;  // the output folder is this run's
  DeviceConfig config_;
  std::unique_ptr<Ssd> ssd_;
  std::unique_ptr<TeachingViews> views_;
  RunPosition position_;
  CheckpointRecord checkpoint_;
  std::optional<std::uint64_t> state_cache_limit_;  // the most the state cache keeps
  std::optional<StateRecord> preconditioned_;  // the initial preconditioning's figures
  // Erased blocks beyond those cleaning keeps, after the initial
  // preconditioning: what the runs may write before cleaning starts.
  std::optional<std::uint64_t> headroom_blocks_;
  void print_no_cleaning_note(const SummaryRecord& summary) const;
  bool enforced_ = false;          // a state was enforced
  std::unique_ptr<IoLog> io_log_;
  std::unique_ptr<RowLog> refusal_log_;  // refused.csv, with io_log_
  std::unique_ptr<RowLog> error_log_;    // errors.csv, with io_log_
  std::unique_ptr<RowLog> detail_log_;   // io_detail.csv, --io-detail
  std::unique_ptr<IoDetail> detail_;     // declared after the log it writes
  Progress progress_;  // of the measured part; declared before the simulator it observes
  std::unique_ptr<Simulator> simulator_;
  std::chrono::steady_clock::time_point wall_start_;
  std::clock_t cpu_start_ = 0;
  double wall_ = 0, cpu_ = 0;  // of the measured part, once finished
  std::optional<std::vector<std::filesystem::path>> fio_lat_logs_;  // --fio-lat-log's, written
};

}  // namespace ssdlab::sim
