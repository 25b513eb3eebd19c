// The trace options of `ssdlab sim`, resolved and checked for one
// trace:FILE workload: format (detected if auto), read and selection options,
// replay mode. Internal to sim/run/ (trace_run.cpp, trace_info.cpp).
#pragma once

#include <spdlog/logger.h>

#include <memory>
#include <string>

#include "sim/engine/replay.h"
#include "sim/run/trace_run.h"
#include "traces/selection.h"
#include "traces/trace_file.h"

namespace ssdlab::sim {

// What to do with the devices of one trace (disk numbers, ASUs, ...): their
// addresses are separate address spaces.
enum class DeviceLayout {
  kAuto,        // not chosen: one device if selected; several are shared, with a warning
  kOne,         // one device only (selected, or the trace's only one)
  kSideBySide,  // each device its own range of the logical space, in device order
  kShared,      // one address space for all (block B of every device on the same page)
};
const char* device_layout_name(DeviceLayout layout);

// Everything the trace options say, checked.
struct TraceSettings {
  std::string workload;  // "trace:PATH[,key=value...]"
  std::string path;      // a copy of standard input for "trace:-"
  std::string shown_path;  // as given ("-" for standard input)
  traces::ReadOptions read;  // its format resolved: never "auto"
  bool detected = false;     // the format was detected
  traces::Placement placement;
  DeviceLayout devices = DeviceLayout::kAuto;
  ReplaySettings replay;
  std::uint32_t queue = 0, namespace_id = 0;  // queue= and namespace= (1-based; 0: not given)
  bool placement_oracle = false;              // --placement-oracle: writes tagged by their lifetime
  std::shared_ptr<const void> stdin_copy;  // removes the copy of standard input
};

// Copies standard input to a temporary file, whose name goes to `path`;
// the file is removed with the last copy of the result. Throws ssdlab::Error.
std::shared_ptr<const void> copy_standard_input(std::string& path);

// The keys of -w trace:FILE,key=value,...: each overrides the option of the
// same meaning for this trace only ("format, time_unit, ...").
std::string trace_key_names();

// Splits "trace:FILE,key=value,..." and applies its keys over `defaults`
// (the command-line options); `path` gets FILE. A FILE that exists whole,
// commas included, takes no keys. The keys of traces::ReadOptions are
// checked here; throws ssdlab::Error "-w 'WORKLOAD': ..." on an unknown key
// or a bad value.
TraceOptions trace_options_of(const std::string& workload, const TraceOptions& defaults,
                              std::string& path);

// Checks `trace` for `workload` ("trace:PATH[,key=value...]", keys over
// `trace`); throws ssdlab::Error naming the option. Logs the detected format
// at info level. "trace:-" reads standard input once, into a temporary file
// that the result owns (replay reads a trace up to three times: the
// side-by-side and scale scans, the prefill pass, the replay).
TraceSettings resolve(const std::string& workload, const TraceOptions& trace,
                      std::shared_ptr<spdlog::logger> log);

}  // namespace ssdlab::sim
