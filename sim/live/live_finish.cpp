// LiveDevice::finish (live_device.h): the end of a live device's run, its
// io.csv and summary.json with the live block (how it was served, what
// failed). Apart from live_device.cpp, which serves.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "sim/live/live_device.h"
#include "sim/report/report.h"
#include "sim/run/run_session.h"

namespace ssdlab::sim {

void LiveDevice::finish() {
  if (finished_) return;
  finished_ = true;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  model_cv_.notify_one();
  model_.join();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start_).count();
  std::vector<RunResult> runs;
  try {
    runs = simulator_->close();
  } catch (const std::exception& error) {
    // The model failed while completing the run: what completed is kept.
    const std::string why = fmt::format("the model failed at shutdown: {}", error.what());
    warn_("ssdlab: " + why);
    if (!failure_) failure_why_ = why;
    simulator_->abandon(why);
    runs = simulator_->close();
  }
  SummaryRecord summary;
  summary.prefilled_pages = prefilled_;
  ExperimentRecord& experiment = summary.experiments.emplace_back();
  experiment.name = "live";
  experiment.pattern = "live";
  experiment.count = runs.front().stats.count;
  experiment.processes = std::min(connections_.load(), kStreams);
  experiment.runs.push_back(run_record(runs.front()));
  const LagCounters lag = this->lag();
  LiveRecord& live = summary.live.emplace();
  live.server = "nbdkit";
  live.data = data_->describe();
  live.wall_seconds = std::round(wall * 1000) / 1000;
  live.connections = connections_;
  live.requests = requests_;
  live.flushes = flushes_;
  live.late_replies = lag.late;
  live.late_threshold_us = options_.late_us;
  live.mean_lag_us = lag.replies ? static_cast<double>(lag.total_ns) / lag.replies / 1000 : 0;
  live.max_lag_us = static_cast<double>(lag.max_ns) / 1000;
  live.failed_requests = failed_;
  live.reads_after_end_of_life = reads_after_end_;
  live.failure = failure_why_;
  const RunResult& run = runs.front();
  if (!run.stopped.empty()) {
    // Stopped early (the end of life, or the model's failure): summary.json's
    // lifetime block, as `ssdlab sim` writes it (plan_run.cpp).
    LifetimeRecord& lifetime = summary.lifetime.emplace();
    lifetime.stopped = true;
    lifetime.end_of_life = run.end_of_life;
    lifetime.reason = run.stopped;
    lifetime.experiment = "live";
    lifetime.run = 0;
    lifetime.ios_completed = run.stats.count;
    lifetime.host_pages_written = session_->ssd().ftl().stats().host_pages_written;
    lifetime.simulated_us = simulator_->now() / 1000.0;
  }
  session_->finish(summary, "live", run.end_of_life);
}

}  // namespace ssdlab::sim
