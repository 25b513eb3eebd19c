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

 private:
  struct Arrival {  // a process submits an I/O: its next one, or `io` after a pause
    std::uint32_t process;
    bool paused = false;
    workloads::IoRequest io{};
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
  void submit(std::uint32_t process, const workloads::IoRequest& io);
  // Sends `request` to the device now; it completes at the time the Ssd says.
  void dispatch(const QueuedRequest& request);
  // Dispatches waiting requests while the device has room (host.queue_depth).
  void dispatch_waiting();

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
