// When the host loop cuts the power (Simulator::plan_power_cuts): a stage of
// the loop beside the host link and the controller's limits, holding the
// plan, the cuts it has placed during I/Os, and what each cut found.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "common/units.h"
#include "sim/controller/power_cut.h"

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

class PowerCutSchedule {
 public:
  void plan(PowerCutPlan plan);
  // A fresh I/O was dispatched at `now` and completes at `done`: places the
  // cut the plan puts during it, if any (I/Os counted in dispatch order).
  void dispatched(TimeNs now, TimeNs done);
  // The next cut, if any: no earlier than the last mount's end.
  std::optional<TimeNs> next() const;
  // The cut next() gave falls at `at`: it leaves the plan.
  void take(TimeNs at);
  // What the cut found; the device is up again at its mount_done.
  void record(const PowerCutReport& report) {
    reports_.push_back(report);
    mounted_at_ = report.mount_done;
  }
  const std::vector<PowerCutReport>& reports() const { return reports_; }
  // Cuts the workload never reached (past its end).
  std::uint64_t not_reached() const;

 private:
  PowerCutPlan plan_;
  std::size_t next_time_ = 0, next_io_ = 0;  // the plan's first cuts not yet placed
  std::vector<TimeNs> during_;               // cuts during I/Os already dispatched
  std::uint64_t dispatched_ = 0;             // fresh I/Os dispatched, all runs
  TimeNs mounted_at_ = 0;
  std::vector<PowerCutReport> reports_;
};

}  // namespace ssdlab::sim
