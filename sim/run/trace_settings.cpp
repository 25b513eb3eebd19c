#include "sim/run/trace_settings.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <vector>

#include "common/error.h"
#include "common/file_kind.h"
#include "common/temp_folder.h"
#include "common/units.h"
#include "sim/config/config.h"
#include "traces/fields.h"
#include "traces/formats.h"
#include "traces/selection.h"
#include "traces/ssdlab_csv.h"
#include "traces/trace_file.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

namespace {

// The io.csv experiment: the trace file's name without its compression and
// format extensions ("hm_0.csv.gz" -> "hm_0"), in the characters plan names use.
std::string experiment_name(const std::string& path) {
  std::string name = fs::path(path).filename().string();
  for (std::string_view compressed : {".gz", ".bz2", ".xz", ".zst"})
    if (name.ends_with(compressed)) {
      name.resize(name.size() - compressed.size());
      break;
    }
  const std::size_t dot = name.rfind('.');
  if (dot != std::string::npos && dot > 0) name.resize(dot);
  for (char& c : name)
    if (!workloads::is_name_char(c)) c = '_';
  return name.empty() ? "trace" : name;
}

// The -w trace: keys besides those of traces::ReadOptions.
constexpr std::string_view kReplayKeys[] = {"devices", "speed", "name", "queue", "namespace"};

}  // namespace

std::shared_ptr<const void> copy_standard_input(std::string& path) {
  std::string name =
      (temporary_folder("trace:-: a copy of standard input") / "ssdlab-stdin-XXXXXX").string();
  const int fd = mkstemp(name.data());
  if (fd < 0)
    throw make_error("trace:-: cannot create a temporary file {}: {}", name, std::strerror(errno));
  std::FILE* out = fdopen(fd, "wb");
  std::vector<char> buffer(1 << 20);
  bool ok = out != nullptr;
  while (ok) {
    const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), stdin);
    if (n == 0) break;
    ok = std::fwrite(buffer.data(), 1, n, out) == n;
  }
  ok = ok && !std::ferror(stdin);
  if (out) ok = std::fclose(out) == 0 && ok;
  auto remove = [](const std::string* file) {
    std::error_code ignored;
    fs::remove(*file, ignored);
    delete file;
  };
  std::shared_ptr<const std::string> owner(new std::string(name), remove);
  if (!ok) throw make_error("trace:-: cannot copy standard input to {}", name);
  path = name;
  return owner;
}

const char* device_layout_name(DeviceLayout layout) {
  switch (layout) {
    case DeviceLayout::kOne:
      return "one";
    case DeviceLayout::kSideBySide:
      return "side-by-side";
    case DeviceLayout::kShared:
      return "shared";
    case DeviceLayout::kAuto:
      break;
  }
  return "auto";
}

std::string trace_key_names() {
  std::vector<std::string_view> names;
  for (const auto& option : traces::read_option_keys())
    if (!option.key.empty()) names.push_back(option.key);
  for (const auto name : kReplayKeys) names.push_back(name);
  return fmt::format("{}", fmt::join(names, ", "));
}

TraceOptions trace_options_of(const std::string& workload, const TraceOptions& defaults,
                              std::string& path) {
  TraceOptions options = defaults;
  const std::string rest = workload.substr(std::string_view("trace:").size());
  std::error_code error;
  const std::size_t comma = rest.find(',');
  if (comma == std::string::npos || fs::exists(rest, error)) {
    path = rest;
    return options;
  }
  path = rest.substr(0, comma);
  std::string_view keys = std::string_view(rest).substr(comma + 1);
  std::set<std::string_view, std::less<>> given;
  while (!keys.empty()) {
    const std::size_t end = std::min(keys.find(','), keys.size());
    const std::string_view item = keys.substr(0, end);
    keys.remove_prefix(std::min(end + 1, keys.size()));
    const std::size_t equals = item.find('=');
    if (equals == std::string_view::npos || equals == 0)
      throw make_error("-w '{}': '{}': expected key=value (keys: {})", workload, item,
                       trace_key_names());
    const std::string_view key = item.substr(0, equals);
    const std::string value(item.substr(equals + 1));
    if (value.empty()) throw make_error("-w '{}': {}: no value", workload, key);
    if (!given.insert(key).second) throw make_error("-w '{}': {}: given twice", workload, key);
    if (const auto* option = traces::find_read_option(key)) {
      try {
        traces::set_read_option(options.read, *option, value);
      } catch (const Error& error) {
        throw make_error("-w '{}': {}", workload, error.what());
      }
    } else if (key == "devices") {
      options.devices = value;
    } else if (key == "speed") {
      char* end_of_number = nullptr;
      options.speed = std::strtod(value.c_str(), &end_of_number);
      if (*end_of_number != '\0' || !(options.speed > 0) || !std::isfinite(options.speed))
        throw make_error("-w '{}': speed '{}': expected a positive number", workload, value);
    } else if (key == "name") {
      if (!std::all_of(value.begin(), value.end(), workloads::is_name_char))
        throw make_error("-w '{}': name '{}': use letters, digits, '-', '_', '.', '/', '='",
                         workload, value);
      options.name = value;
    } else if (key == "queue" || key == "namespace") {
      // 1-based, as NVMe numbers queues and namespaces (tenant_run.h).
      char* end_of_number = nullptr;
      const unsigned long long n = std::strtoull(value.c_str(), &end_of_number, 10);
      const unsigned long long most = key == "queue" ? 65535 : 1024;
      if (*end_of_number != '\0' || value[0] == '-' || n < 1 || n > most)
        throw make_error("-w '{}': {} '{}': expected a number from 1 to {}", workload, key, value,
                         most);
      (key == "queue" ? options.queue : options.namespace_id) = static_cast<std::uint32_t>(n);
    } else {
      throw make_error("-w '{}': unknown key '{}' (keys: {})", workload, key, trace_key_names());
    }
  }
  return options;
}

namespace {

// What the devices of the trace become (--devices), given --trace-device.
void resolve_devices(const TraceOptions& trace, TraceSettings& s) {
  const bool one_device = s.read.device.has_value();
  if (trace.devices.empty()) {
    s.devices = one_device ? DeviceLayout::kOne : DeviceLayout::kAuto;
  } else if (trace.devices == "one") {
    s.devices = DeviceLayout::kOne;
  } else if (trace.devices == "side-by-side") {
    s.devices = DeviceLayout::kSideBySide;
  } else if (trace.devices == "shared") {
    s.devices = DeviceLayout::kShared;
  } else {
    throw make_error("--devices '{}': expected one, side-by-side or shared", trace.devices);
  }
  if (one_device && s.devices != DeviceLayout::kOne)
    throw make_error("--devices {}: a trace with --trace-device (device=) replays one device",
                     trace.devices);
}

// Open or closed loop, queue depth, speed and the io.csv name.
void resolve_replay(const TraceOptions& trace, TraceSettings& s) {
  auto& replay = s.replay;
  if (!trace.mode.empty() && trace.mode != "open" && trace.mode != "closed" &&
      trace.mode != "dependent")
    throw make_error("--mode '{}': expected open, closed or dependent", trace.mode);
  replay.mode = trace.mode == "closed"      ? ReplayMode::kClosed
                : trace.mode == "dependent" ? ReplayMode::kDependent
                                            : ReplayMode::kOpen;
  if (replay.mode != ReplayMode::kClosed && trace.queue_depth)
    throw make_error("--qd applies to --mode closed ({} replay {})",
                     replay.mode == ReplayMode::kOpen ? "open-loop" : "dependent",
                     replay.mode == ReplayMode::kOpen ? "follows the trace times"
                                                      : "keeps each process's recorded depth");
  if (replay.mode != ReplayMode::kOpen && trace.speed > 0)
    throw make_error("--speed applies to --mode open ({} replay ignores trace times)",
                     replay.mode == ReplayMode::kClosed ? "closed-loop" : "dependent");
  if (replay.mode == ReplayMode::kDependent && s.read.format != "ssdlab")
    throw make_error(
        "--mode dependent: needs each request's recorded completion, which only ssdlab's own "
        "io.csv has (format ssdlab); {} records none",
        s.read.format);
  replay.queue_depth = trace.queue_depth ? trace.queue_depth : 1;
  if (trace.speed != 0 &&
      (!std::isfinite(trace.speed) || trace.speed < kMinSpeed || trace.speed > kMaxSpeed))
    throw make_error("--speed {}: expected a number from {:g} to {:g}", trace.speed, kMinSpeed,
                     kMaxSpeed);
  replay.speed = trace.speed > 0 ? trace.speed : 1.0;
  // An io.csv replayed keeps its experiment's name.
  const std::string recorded = s.read.experiment ? *s.read.experiment
                               : s.read.format == "ssdlab"
                                   ? traces::first_io_csv_experiment(s.path, s.read)
                                   : std::string();
  replay.experiment = !trace.name.empty()   ? trace.name
                      : !recorded.empty()   ? recorded
                      : s.shown_path == "-" ? std::string("stdin")
                                            : experiment_name(s.path);
}

}  // namespace

TraceSettings resolve(const std::string& workload, const TraceOptions& options,
                      std::shared_ptr<spdlog::logger> log) {
  TraceSettings s;
  s.workload = workload;
  const TraceOptions trace = trace_options_of(workload, options, s.path);
  s.read = trace.read;
  s.shown_path = s.path;
  if (s.path.empty()) throw make_error("-w '{}': no trace file after 'trace:'", workload);
  if (s.path == "-") {
    s.stdin_copy = copy_standard_input(s.path);
    s.read.name = "stdin";  // not the copy's temporary name
  } else if (const std::string problem = not_a_regular_file(s.path); !problem.empty()) {
    throw make_error("-w '{}': {}", workload,
                     problem == "no such file" ? "no such trace file" : problem);
  }

  if (s.read.format == "auto") {
    try {
      s.read.format = traces::detect_format(s.path, s.read);
    } catch (const traces::FormatNotDetected& error) {  // "give --format": format= does too
      throw make_error("{} (or format=NAME in -w trace:FILE,format=NAME)", error.what());
    }
    s.detected = true;
    log->info("{}: detected trace format {}", s.shown_path, s.read.format);
  }
  if (s.read.format != "ssdlab")
    for (const char* flag : {"--trace-experiment", "--trace-run", "--trace-process"})
      if (std::find(s.read.given.begin(), s.read.given.end(), flag) != s.read.given.end())
        throw make_error("-w '{}': {} is for ssdlab's io.csv (format ssdlab), not {}", workload,
                         flag, s.read.format);
  resolve_devices(trace, s);
  resolve_replay(trace, s);
  s.queue = trace.queue;
  s.namespace_id = trace.namespace_id;
  s.placement_oracle = trace.placement_oracle;
  return s;
}

}  // namespace ssdlab::sim
