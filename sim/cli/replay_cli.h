// The trace options of `ssdlab sim` (CLI11), kept apart from sim_cli.cpp so
// that trace replay touches it in two lines: how to read a trace (shared with
// `ssdlab trace-info`, trace_read_cli.h) and how to replay it.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "sim/cli/trace_read_cli.h"
#include "sim/cli/validators.h"
#include "sim/run/trace_run.h"

namespace ssdlab::cli {

// Each option is the default of every trace; -w trace:FILE,key=value,...
// overrides it for one trace (keys: sim/run/trace_settings.h). The read
// options land in `read` (TraceReadFlags::apply sets them in trace.read).
inline void add_trace_options(CLI::App& sim, sim::TraceOptions& trace, TraceReadFlags& read) {
  const std::string group = "Trace replay (-w trace:FILE[,key=value...])";
  add_trace_read_options(sim, read, group);
  sim.add_option("--mode", trace.mode,
                 "open (default): submit at trace times; closed: --qd outstanding; dependent "
                 "(an ssdlab io.csv): each process as recorded, its I/Os after the completions "
                 "they waited for")
      ->group(group);
  sim.add_option("--qd", trace.queue_depth, "Closed loop: requests outstanding (default 1)")
      ->check(integer_in(1, UINT32_MAX))
      ->group(group);
  sim.add_option("--speed", trace.speed, "Open loop: time speed-up, 2 = twice as fast (default 1)")
      ->check(positive_number(sim::kMinSpeed, sim::kMaxSpeed))
      ->group(group);
  sim.add_option("--layout", trace.layout,
                 "Several -w trace:FILE: shared (default; each on the whole device) or "
                 "partitioned (trace k of N on range k of N)")
      ->group(group);
  sim.add_option("--devices", trace.devices,
                 "A trace of several devices: one (with --trace-device), side-by-side (each "
                 "device its own address range) or shared (one address space; warned)")
      ->group(group);
  sim.add_flag("--placement-oracle", trace.placement_oracle,
               "Tag each write with a placement identifier from its data's future lifetime in "
               "the trace, one class per ftl.fdp_handles (needs ftl.placement = fdp or streams; "
               "docs/fdp.md)")
      ->group(group);
}

}  // namespace ssdlab::cli
