// The trace options of `ssdlab sim`, resolved and checked for one
// trace:FILE workload: format (detected if auto), read and selection options,
// replay mode. Internal to sim/ (replay_command.cpp, trace_info_command.cpp).
#pragma once

#include <spdlog/logger.h>

#include <memory>
#include <string>

#include "sim/engine/replay.h"
#include "sim/run/trace_run.h"
#include "traces/selection.h"
#include "traces/trace_file.h"

namespace ssdlab::sim {

// Everything the trace options say, checked.
struct TraceSettings {
  std::string workload;  // "trace:PATH"
  std::string path;
  std::string format;  // resolved: never "auto"
  bool detected = false;
  traces::ReadOptions read;
  traces::SelectionOptions selection;
  ReplaySettings replay;
};

// Checks `trace` for `workload` ("trace:PATH"); throws ssdlab::Error naming
// the option. Logs the detected format at info level.
TraceSettings resolve(const std::string& workload, const TraceOptions& trace,
                      std::shared_ptr<spdlog::logger> log);

}  // namespace ssdlab::sim
