// The teaching options of `ssdlab sim` (CLI11), kept apart from sim_cli.cpp
// so that they touch it in two lines. Included by sim_cli.cpp only.
#pragma once

#include <CLI/CLI.hpp>

#include "sim/views/teaching.h"

namespace ssdlab::cli {

inline void add_teaching_options(CLI::App& sim, sim::TeachingOptions& teaching) {
  const std::string group = "Teaching views";
  sim.add_option("--timeline", teaching.timeline,
                 "Write every flash operation as Chrome/Perfetto trace JSON to this file "
                 "(default bound: the first 1000 host I/Os)")
      ->group(group);
  sim.add_option("--timeline-window", teaching.timeline_window,
                 "Record only operations overlapping START:END (simulated us)")
      ->group(group);
  sim.add_option("--timeline-ios", teaching.timeline_ios,
                 "Record only the first N host I/Os (with --timeline-window: both apply)")
      ->check(CLI::PositiveNumber)
      ->group(group);
  sim.add_option("--trace-ftl", teaching.trace_ftl,
                 "Log each FTL decision (allocate, invalidate, pick victim, move, erase) for the "
                 "first N host I/Os, to stderr")
      ->check(CLI::PositiveNumber)
      ->group(group);
  sim.add_option("--trace-ftl-file", teaching.trace_ftl_file,
                 "With --trace-ftl: write the log to this file instead of stderr")
      ->group(group);
}

}  // namespace ssdlab::cli
