// `ssdlab sim -w trace:FILE`: trace replay from the command line. The options
// that only traces take, and the entry point that main.cpp calls for `sim`
// (which hands plans to run_sim).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "sim/run/plan_run.h"

namespace ssdlab::sim {

// The range of --speed: beyond it, trace times scaled to nanoseconds lose
// all meaning (1e-300 overflows the clock; 1e300 submits everything at 0).
inline constexpr double kMinSpeed = 1e-6;
inline constexpr double kMaxSpeed = 1e6;

// As given on the command line; empty / zero means "not given". Checked by
// run_replay, so that bad values are input errors (exit 1) naming the option.
struct TraceOptions {
  std::string format;             // --format: auto (default) or a format name
  std::string mode;               // --mode: open (default) or closed
  std::uint32_t queue_depth = 0;  // --qd: closed loop (default 1)
  double speed = 0;               // --speed: open loop (default 1), kMinSpeed..kMaxSpeed
  std::uint64_t limit = 0;        // --limit: requests (default all)
  std::string start;              // --start: N requests, or a trace time such as 10s, 500ms
  bool skip_bad = false;          // --skip-bad
  std::string device;             // --trace-device: N, or MAJ,MIN for blkparse
  std::string map;                // --map: modulo (default) or scale
  std::string blk_event;          // --blk-event: D (default) or Q
  std::string time_unit;          // --time-unit: MQSim time unit, ns (default), us, ms, s
  std::string zero_size;          // --zero-size: skip (default) or error
  std::string layout;             // --layout: several traces share the device or partition it
  std::string devices;            // --devices: one, side-by-side or shared (several in one trace)
  std::string name;               // name= of -w trace:FILE,name=...: the io.csv experiment

  // The options given, e.g. "--mode, --qd" ("" if none).
  std::string given() const;
};

// --trace-device: "N", or "MAJ,MIN" for blkparse. Throws ssdlab::Error.
std::uint32_t parse_trace_device(const std::string& text);
// --time-unit: ns, us, ms or s, as nanoseconds. Throws ssdlab::Error.
std::int64_t parse_time_unit(const std::string& text);

inline bool is_trace_workload(std::string_view workload) {
  return workload.starts_with("trace:");
}

// `ssdlab sim`: replays trace:FILE workloads (-w may be repeated for traces
// only), runs a single plan through run_sim (trace options are then an
// error). `workloads` replace options.workload. Throws ssdlab::Error on bad
// input.
void run_sim_or_replay(SimOptions options, const std::vector<std::string>& workloads,
                       const TraceOptions& trace, std::ostream& out);

// Replays `workloads` ("trace:FILE" each) together, writing OUTDIR/io.csv and
// OUTDIR/summary.json as run_sim does for plans: one experiment per trace.
void run_replay(const SimOptions& options, const std::vector<std::string>& workloads,
                const TraceOptions& trace, std::ostream& out);

}  // namespace ssdlab::sim
