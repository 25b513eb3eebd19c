// Runs experiments against one SSD: the discrete-event loop of host I/Os.
//
// Each uFLIP process keeps `queue_depth` I/Os outstanding (closed loop): at the
// start of a run every process submits that many, and each completion submits
// the process's next I/O at the completion time, or after the pause its time
// function asks for. Experiments and runs follow one another on the same
// device, whose state carries over as on real hardware; the device idles for
// `run_pause_ns` before each run. A Simulator is a plain value: two can run
// in one process.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "sim/event_queue.h"
#include "sim/host_queue.h"
#include "sim/output.h"
#include "sim/ssd.h"
#include "workloads/generator.h"
#include "workloads/plan.h"

namespace ssdlab::sim {

// When to cut the power (power_cut.h), sorted: at simulated times (from the
// start of the first run), and during given I/Os (0-based index over every
// I/O the workload issues, all experiments and runs, in submission order; the
// cut falls at `fraction` of that I/O's service time).
struct PowerCutPlan {
  std::vector<TimeNs> times;
  struct During {
    std::uint64_t io;
    double fraction;
  };
  std::vector<During> ios;
  bool empty() const { return times.empty() && ios.empty(); }
};

struct RunResult {
  std::uint32_t run = 0;
  std::uint64_t startup = 0;  // I/Os the start-up detection cut (io_ignore = "auto")
  RunStats stats;
  TimeNs start_ns = 0, end_ns = 0;  // simulated time of the run
  nlohmann::json device;            // device counters during the run
  // Why the run stopped before its count: the device's end of life
  // (ftl::EndOfLife), or the lifetime limit of stop_when_expired(); empty if
  // it ran to the end.
  std::string stopped;
  bool end_of_life = false;
};

class Simulator {
 public:
  // `log` may be null: no per-I/O output.
  Simulator(Ssd& ssd, IoLog* log)
      : ssd_(ssd),
        log_(log),
        host_queue_(ssd.config().controller.queue_depth, ssd.config().controller.scheduling) {}

  RunResult run(const workloads::ExperimentSpec& spec, std::uint32_t run, std::uint64_t seed);
  TimeNs now() const { return now_; }
  // Continues from simulated time `now` (a loaded checkpoint's clock: the
  // flash timelines hold absolute times). Only before the first run.
  void resume_at(TimeNs now) { now_ = now; }
  // Lifetime runs: once `blocks` flash blocks are retired (worn out), no
  // process submits another I/O; those outstanding complete. 0: no limit.
  void stop_when_expired(std::uint64_t blocks) { expired_limit_ = blocks; }
  // Power cuts (the Ssd must have them enabled). At a cut, I/Os in flight
  // are not acknowledged: the host resubmits each once the device has
  // mounted (same io number; its response time counts from the resubmission).
  // A cut that finds an acknowledged write lost throws ftl::VerificationError.
  void plan_power_cuts(PowerCutPlan plan);
  const std::vector<PowerCutReport>& power_cuts() const { return cuts_; }
  // Cuts of the plan the workload never reached (past its end).
  std::uint64_t power_cuts_not_reached() const;

 private:
  static constexpr std::uint64_t kFresh = ~std::uint64_t{0};
  struct Arrival {  // a process submits an I/O: its next one, or `io` after a pause
    std::uint32_t process;
    bool paused = false;
    workloads::IoRequest io{};
    std::uint64_t retry = kFresh;  // io number of an I/O a power cut interrupted
  };
  struct Completion {  // an I/O completes
    std::uint32_t process;
    std::uint32_t size;
    std::uint64_t io;
    std::uint64_t offset;
    TimeNs submitted;
    bool write;
  };
  using Event = std::variant<Arrival, Completion>;

  struct Process {
    workloads::IoGenerator generator;
    std::uint64_t issued = 0;
  };

  void submit_next(std::uint32_t process);
  void submit(std::uint32_t process, const workloads::IoRequest& io, std::uint64_t retry = kFresh);
  // Sends `request` to the device now; it completes at the time the Ssd says.
  void dispatch(const QueuedRequest& request);
  // Dispatches waiting requests while the device has room (host.queue_depth).
  void dispatch_waiting();
  // A fresh I/O was dispatched now and completes at `done`: plans the cut
  // the plan puts during it, if any (counted in dispatch order).
  void plan_cut_during(TimeNs done);
  // The next planned cut, if any (no earlier than the last mount's end).
  std::optional<TimeNs> next_cut() const;
  void cut_power(TimeNs at);

  Ssd& ssd_;
  IoLog* log_;
  HostQueue host_queue_;
  EventQueue<Event> queue_;
  TimeNs now_ = 0;
  std::vector<Process> processes_;
  std::vector<std::uint64_t> next_io_;  // io number of each process's next submission
  std::uint64_t count_ = 0;
  std::uint32_t queue_depth_ = 1;
  std::uint64_t expired_limit_ = 0;
  bool expired_ = false;  // the limit was reached
  PowerCutPlan cut_plan_;
  std::size_t next_time_cut_ = 0, next_io_cut_ = 0;
  std::vector<TimeNs> io_cuts_at_;  // cuts during I/Os already submitted
  std::uint64_t submitted_ = 0;     // fresh I/Os submitted, all runs
  TimeNs mounted_at_ = 0;
  std::vector<PowerCutReport> cuts_;
};

// Device counters (FTL and flash) as JSON, and the difference of two such
// snapshots for one run.
nlohmann::json device_counters(const Ssd& ssd);
// Adds write_amplification and cleaning_efficiency, derived from the counts.
void add_ratios(nlohmann::json& counters, std::uint32_t pages_per_block);
nlohmann::json counters_delta(const nlohmann::json& before, const nlohmann::json& after,
                              std::uint32_t pages_per_block);
// Wear of every block (Agrawal et al. §5, Tables 7 and 8): remaining life
// mean/stddev/min, blocks expired, remaining life relative to the mean in
// Table 8's bins, and the wear-leveling counters.
nlohmann::json wear_report(const Ssd& ssd);

}  // namespace ssdlab::sim
