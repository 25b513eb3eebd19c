// The one host loop: the discrete-event loop of host I/Os against one SSD,
// whatever drives it (sim/engine/io_source.h): a plan's uFLIP processes, a trace,
// several traces at once.
//
// A stream is driven closed loop (`slots` I/Os outstanding; each completion
// submits the stream's next I/O at the completion time, or after the pause it
// asks for) or open loop (each I/O arrives at its own time, whatever is
// outstanding). Arrivals go through the host queue (host.queue_depth,
// sim/controller/host_queue.h) to the Ssd. Whenever nothing is outstanding and the next
// arrival lies ahead, the device is idle until then (Ssd::idle: write-buffer
// flushes and background cleaning). Runs follow one another on the same
// device, whose state carries over as on real hardware. Nothing is global:
// two Simulators can run in one process.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/progress.h"
#include "sim/controller/host_queue.h"
#include "sim/controller/ssd.h"
#include "sim/engine/host_events.h"
#include "sim/engine/host_path.h"
#include "sim/engine/host_streams.h"
#include "sim/engine/io_source.h"
#include "sim/engine/power_cut_schedule.h"
#include "sim/engine/run_recorder.h"
#include "sim/results/device_counters.h"
#include "sim/results/io_stages.h"
#include "sim/results/output.h"
#include "sim/results/row_log.h"
#include "sim/results/run_result.h"
#include "sim/results/run_samples.h"
#include "workloads/plan.h"

namespace ssdlab::sim {

class Simulator {
 public:
  // `log` may be null: no per-I/O output.
  Simulator(Ssd& ssd, IoLog* log);
  Simulator(const Simulator&) = delete;  // its streams hold its event queue
  Simulator& operator=(const Simulator&) = delete;

  // Runs `streams` together from now() until every one has ended and every
  // I/O has completed; one result per group of `groups`, in order. Errors of
  // a source propagate (ssdlab::Error).
  std::vector<RunResult> run(std::span<const HostStream> streams, std::span<const RunGroup> groups);
  // One run of a plan's experiment: its processes as closed-loop streams,
  // after the idle time `run_pause_ns` asks for.
  RunResult run(const workloads::ExperimentSpec& spec, std::uint32_t run, std::uint64_t seed);

  // The same run driven from outside, step by step (a live device,
  // sim/live/): open() starts it on `streams` (open-loop streams whose
  // sources may have nothing yet), arrive() hands it each I/O at its time,
  // advance_to() processes the events in between, and close() completes every
  // I/O and returns the results as run() does.
  void open(std::span<const HostStream> streams, std::span<const RunGroup> groups);
  // Processes every event due no later than `until` (nothing of the
  // caller's comes before it); with nothing outstanding, the device idles
  // up to `until` (Ssd::idle) and now() becomes `until`.
  void advance_to(TimeNs until);
  // I/O `io` of stream `stream` arrives at `at` (advance_to(at) first;
  // an `at` before now() arrives now());
  // returns its io number (the io.csv `io` column of its stream).
  std::uint64_t arrive(std::uint32_t stream, const SourceIo& io, TimeNs at);
  // The time of the next event, the flash scheduler's included (flash::kNever: none).
  TimeNs next_event() const;
  // The device reached its end of life during the run in progress
  // (ftl::EndOfLife, in arrive() or advance_to()'s idling too): the run stopped,
  // every I/O outstanding then was dropped (none completes, none is told to
  // the listener) and arrive() submits nothing more.
  bool end_of_life() const { return recorder_.end_of_life(); }
  // Why the run in progress stopped early ("" if it has not).
  const std::string& stopped() const { return recorder_.stopped(); }
  // A live device whose model failed (an exception out of arrive() or
  // advance_to() other than the end of life): stops the run for `why` as the
  // end of life does, without it, so that close() returns what completed.
  void abandon(const std::string& why) { stop_run(why, false); }
  std::vector<RunResult> close();
  // Told of every completion as it is handled (stream, io number, time,
  // and whether it is a read that ends with a media error: a page no ECC
  // step corrected, [errors]); null: nobody.
  class CompletionListener {
   public:
    virtual ~CompletionListener() = default;
    virtual void completed(std::uint32_t stream, std::uint64_t io, TimeNs at,
                           bool media_error) = 0;
  };
  void listen(CompletionListener* listener) { listener_ = listener; }

  TimeNs now() const { return now_; }
  // Counts every completion, all runs, into `progress` (null: none).
  void show_progress(Progress* progress) { progress_ = progress; }
  // The percentiles of each run's statistics (empty: kDefaultPercentiles).
  void set_percentiles(std::vector<double> percents) {
    recorder_.set_percentiles(std::move(percents));
  }
  // Response times kept per run for exact percentiles (RunSamples).
  void set_exact_samples(std::uint64_t limit) { recorder_.set_exact_samples(limit); }
  // Continues from simulated time `now` (a loaded checkpoint's clock: the
  // flash timelines hold absolute times). Only before the first run.
  void resume_at(TimeNs now) { now_ = now; }
  // Lifetime runs: once `blocks` flash blocks are retired (worn out), no
  // stream submits another I/O; those outstanding complete. 0: no limit.
  void stop_when_expired(std::uint64_t blocks) { expired_limit_ = blocks; }
  // Counts, per group, the pages cleaning moves while the group's writes are
  // started (RunResult::pages_moved_by_writes): the cleaning each tenant's
  // writes cause. Off by default (a read of the FTL's counters per write).
  void attribute_cleaning(bool on) { recorder_.attribute_cleaning(on); }
  // Keeps, per group, when each served read and write (past io_ignore) was
  // submitted and completed (RunResult::io_spans: 16 bytes an I/O), so
  // that a run of tenants can cut the window in which all of them ran
  // (sim/results/contended_window.h). Off by default.
  void keep_io_spans(bool on) { recorder_.keep_io_spans(on); }
  // Power cuts (the Ssd must have them enabled). At a cut, I/Os in flight
  // are not acknowledged: the host resubmits each once the device has
  // mounted (same io number; its response time counts from the resubmission).
  // Arrivals due during the mount wait for its end. A cut that finds an
  // acknowledged write lost throws ftl::VerificationError.
  void plan_power_cuts(PowerCutPlan plan);
  const std::vector<PowerCutReport>& power_cuts() const { return cuts_.reports(); }
  // Cuts of the plan the workload never reached (past its end).
  std::uint64_t power_cuts_not_reached() const { return cuts_.not_reached(); }
  // The commands a zoned device refused (sim/controller/zone_front.h) go
  // to `log` as they are started (refused.csv, docs/zns.md); null: counted
  // only (RunStats::refused, summary.json's zones block).
  void log_refusals(RowLog* log) { recorder_.log_refusals(log); }
  // The host reads no ECC step corrected ([errors]; SsdCore::media_errors) go
  // to `log` (errors.csv, docs/errors.md); null: counted only.
  void log_media_errors(RowLog* log) { recorder_.log_media_errors(log); }
  // --io-detail: each I/O's stages go to `listener` (null: none).
  void track_stages(IoStageListener* listener) { stages_ = listener; }

 private:
  using Stage = HostPath::Stage;
  using Event = HostEvent;  // an arrival, or an I/O the device holds (host_events.h)

  // Stops the run early for `why`: every event and outstanding I/O dropped.
  void stop_run(const std::string& why, bool end_of_life);
  // The loop: every event due no later than `until`.
  void step(TimeNs until);
  void handle(const Event& event);
  void arrive(const Arrival& arrival);
  // Closed loop: the stream's next I/O, now or after its pause; false if
  // the stream has none (ended, or the lifetime limit reached).
  bool submit_next(std::uint32_t stream);
  void submit(std::uint32_t stream, const SourceIo& io, std::uint64_t retry = kFresh);
  // Sends `request` to the device now: it reaches the flash at once, or
  // at the end of its way there (HostPath::send()).
  void dispatch(const QueuedRequest& request);
  // Starts `request` on the device now; it completes at the time the Ssd
  // says (at once, or later from the flash scheduler: advance_flash()).
  void start(const QueuedRequest& request);
  // A Completion event on its way (HostPath::after(); kToFlash: started
  // now); false for one that completes for the host now.
  bool on_the_way(const Completion& event);
  // Processes the flash scheduler's events due no later than the next host
  // event and `until`; each completion it reports becomes a Completion event.
  void advance_flash(TimeNs until);
  void drop_flash();
  std::uint64_t pages_moved() const;  // by cleaning, so far (attribute_cleaning())
  // Dispatches waiting requests while the device has room (host.queue_depth).
  void dispatch_waiting();
  // Nothing outstanding and the next arrival ahead: the device idles.
  void idle_until_next_arrival();
  // Ssd::idle, a failure inside the FTL named (ftl_failure.h).
  void idle(TimeNs from, TimeNs until);
  bool expired();
  // The power cut at `at` (cuts_.next()): the device mounts again, and the
  // I/Os in flight are resubmitted once it has.
  void cut_power(TimeNs at);

  Ssd& ssd_;
  HostQueue host_queue_;
  HostPath path_;  // the link, firmware time and controller limits
  HostEventQueue queue_;
  TimeNs now_ = 0;
  HostStreams streams_{queue_};
  std::uint64_t outstanding_ = 0;  // dispatched to the device, not complete
  CompletionListener* listener_ = nullptr;
  std::uint64_t expired_limit_ = 0;
  bool expired_ = false;  // the limit was reached
  PowerCutSchedule cuts_;
  Progress* progress_ = nullptr;
  std::uint64_t completed_ = 0;  // completions, all runs (for progress_)
  InFlight in_flight_;           // requests queued in the flash scheduler, by tag
  IoStageListener* stages_ = nullptr;
  // io.csv and the figures of the run in progress. (Last: it holds the
  // device's counters at the run's start, over a kilobyte; ahead of the
  // loop's own members, 2 M random writes on agrawal-baseline took 1.03x
  // the CPU time of before, 1.01x with it here: farm-bench, n 21.)
  RunRecorder recorder_;
};

}  // namespace ssdlab::sim
