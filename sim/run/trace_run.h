// `ssdlab sim -w trace:FILE`: trace replay from the command line. The options
// that only traces take, and the entry point that sim_cli.cpp calls for `sim`
// (which hands plans to run_sim).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "sim/run/plan_run.h"
#include "traces/read_options.h"

namespace ssdlab::sim {

// The range of --speed: beyond it, trace times scaled to nanoseconds lose
// all meaning (1e-300 overflows the clock; 1e300 submits everything at 0).
inline constexpr double kMinSpeed = 1e-6;
inline constexpr double kMaxSpeed = 1e6;

// The options of every trace of a run (each -w trace:FILE,key=value may
// override them). How to read a trace is traces::ReadOptions, set and checked
// by name (traces/read_options.h); the replay's own options are kept as given
// (empty / zero: not given) and checked by run_workloads, so that bad values are
// input errors (exit 1) naming the option.
struct TraceOptions {
  traces::ReadOptions read;       // --format, --time-unit, --trace-device, --start, --limit, ...
  std::string mode;               // --mode: open (default), closed or dependent
  std::uint32_t queue_depth = 0;  // --qd: closed loop (default 1)
  double speed = 0;               // --speed: open loop (default 1), kMinSpeed..kMaxSpeed
  std::string layout;             // --layout: several traces share the device or partition it
  std::string devices;            // --devices: one, side-by-side or shared (several in one trace)
  std::string name;               // name= of -w trace:FILE,name=...: the io.csv experiment
  std::uint32_t queue = 0;         // queue= : its submission queue, 1-based (0: not given)
  std::uint32_t namespace_id = 0;  // namespace= : its namespace, 1-based (0: not given)
  bool placement_oracle = false;   // --placement-oracle (traces/lifetime_oracle.h)

  // The options given, e.g. "--format, --mode, --qd" ("" if none).
  std::string given() const;
};

inline bool is_trace_workload(std::string_view workload) {
  return workload.starts_with("trace:");
}

// `ssdlab sim`: runs traces, several workloads and tenants through
// run_workloads (tenant_run.h), a single plan through run_sim (trace options
// are then an error). `workloads` replace options.workload. Throws
// ssdlab::Error on bad input.
void run_sim_or_replay(SimOptions options, const std::vector<std::string>& workloads,
                       const TraceOptions& trace, std::ostream& out);

}  // namespace ssdlab::sim
