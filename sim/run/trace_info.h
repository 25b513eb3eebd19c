// `ssdlab trace-info FILE`: a dry run over a trace that says what it holds
// (format, counts, mix, sizes, addresses, footprint, time span and rate) and
// warns where a unit looks wrong, before anyone replays it.
#pragma once

#include <iosfwd>
#include <string>

#include "traces/read_options.h"

namespace ssdlab::sim {

struct TraceInfoOptions {
  std::string path;
  // How to read it: format (auto by default), --trace-device, the format's
  // options, --zero-size. Bad lines are always counted (skip_bad); the
  // replay's start, limit and address map do not apply.
  traces::ReadOptions read;
  std::string config;  // -c: warn about addresses beyond this device
  std::string json;    // --json: write the report here too
};

// Reads the whole trace (streamed; bad lines are counted, not fatal) and
// prints the report to `out`. Throws ssdlab::Error if the file cannot be read
// or its format cannot be told; warnings do not make it fail.
void run_trace_info(const TraceInfoOptions& options, std::ostream& out);

}  // namespace ssdlab::sim
