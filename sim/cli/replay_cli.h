// The trace options of `ssdlab sim` (CLI11), kept apart from sim_cli.cpp so
// that trace replay touches it in two lines. Included by sim_cli.cpp only.
#pragma once

#include <CLI/CLI.hpp>

#include "sim/cli/validators.h"
#include "sim/run/trace_run.h"

namespace ssdlab::cli {

// Each option is the default of every trace; -w trace:FILE,key=value,...
// overrides it for one trace (keys: sim/run/trace_settings.h).
inline void add_trace_options(CLI::App& sim, sim::TraceOptions& trace) {
  const std::string group = "Trace replay (-w trace:FILE[,key=value...])";
  sim.add_option("--format", trace.format,
                 "Trace format: auto (default: from the first lines), msr, disksim, mqsim, spc, "
                 "blkparse, fio")
      ->group(group);
  sim.add_option("--mode", trace.mode,
                 "open (default): submit at trace times; closed: --qd outstanding")
      ->group(group);
  sim.add_option("--qd", trace.queue_depth, "Closed loop: requests outstanding (default 1)")
      ->check(integer_in(1, UINT32_MAX))
      ->group(group);
  sim.add_option("--speed", trace.speed, "Open loop: time speed-up, 2 = twice as fast (default 1)")
      ->check(positive_number(sim::kMinSpeed, sim::kMaxSpeed))
      ->group(group);
  sim.add_option("--limit", trace.limit, "Replay at most N requests")
      ->check(positive_integer())
      ->group(group);
  sim.add_option("--start", trace.start,
                 "Skip the first N requests, or those before a trace time such as 10s, 500ms")
      ->group(group);
  sim.add_flag("--skip-bad", trace.skip_bad, "Count and skip bad lines instead of stopping")
      ->group(group);
  sim.add_option("--trace-device", trace.device,
                 "Replay only this disk number, ASU, fio file index or blkparse MAJ,MIN")
      ->group(group);
  sim.add_option("--map", trace.map,
                 "Addresses beyond the device: modulo (default) or scale (by the trace's span)")
      ->group(group);
  sim.add_option("--blk-event", trace.blk_event, "blkparse: replay D (issue, default) or Q events")
      ->group(group);
  sim.add_option("--time-unit", trace.time_unit, "MQSim: time unit, ns (default), us, ms or s")
      ->group(group);
  sim.add_option("--layout", trace.layout,
                 "Several -w trace:FILE: shared (default; each on the whole device) or "
                 "partitioned (trace k of N on range k of N)")
      ->group(group);
  sim.add_option("--devices", trace.devices,
                 "A trace of several devices: one (with --trace-device), side-by-side (each "
                 "device its own address range) or shared (one address space; warned)")
      ->group(group);
  sim.add_option("--zero-size", trace.zero_size,
                 "Zero-size requests: skip (default, counted) or error (a bad line)")
      ->group(group);
}

}  // namespace ssdlab::cli
