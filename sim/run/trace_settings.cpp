#include "sim/run/trace_settings.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <vector>

#include "common/error.h"
#include "common/file_kind.h"
#include "common/units.h"
#include "sim/controller/config.h"
#include "common/log.h"
#include "sim/results/output.h"
#include "sim/state/precondition.h"
#include "sim/engine/replay.h"
#include "sim/results/report.h"
#include "sim/controller/ssd.h"
#include "traces/fields.h"
#include "traces/formats.h"
#include "traces/parsers.h"
#include "traces/selection.h"
#include "traces/trace_file.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

namespace {

// "10s", "1.5s", "500ms", "20us", "100ns": a trace time in ns; nullopt for a
// plain request count.
std::optional<std::int64_t> parse_start_time(std::string_view text) {
  struct Unit {
    std::string_view suffix;
    int digits;  // the unit is 10^digits ns
  };
  static constexpr Unit kUnits[] = {{"ms", 6}, {"us", 3}, {"ns", 0}, {"s", 9}};
  for (const auto& unit : kUnits) {
    if (!text.ends_with(unit.suffix)) continue;
    std::int64_t value = 0;
    const std::string_view number = text.substr(0, text.size() - unit.suffix.size());
    if (!traces::parse_fixed(number, unit.digits, value))
      throw make_error("--start '{}': expected a request count or a time such as 10s, 500ms", text);
    return value;
  }
  return std::nullopt;
}

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

}  // namespace

std::uint32_t parse_trace_device(const std::string& text) {
  const std::size_t comma = text.find(',');
  std::uint32_t number = 0, minor = 0;
  const bool ok = comma == std::string::npos
                      ? traces::parse_uint(text, number)
                      : traces::parse_uint(std::string_view(text).substr(0, comma), number) &&
                            traces::parse_uint(std::string_view(text).substr(comma + 1), minor);
  if (!ok) throw make_error("--trace-device '{}': expected a number or MAJ,MIN", text);
  return comma == std::string::npos ? number : traces::blkparse_device(number, minor);
}

std::int64_t parse_time_unit(const std::string& text) {
  static constexpr std::pair<std::string_view, std::int64_t> kUnits[] = {
      {"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}};
  const auto* unit = std::find_if(std::begin(kUnits), std::end(kUnits),
                                  [&](const auto& u) { return u.first == text; });
  if (unit == std::end(kUnits))
    throw make_error("--time-unit '{}': expected ns, us, ms or s", text);
  return unit->second;
}

TraceSettings resolve(const std::string& workload, const TraceOptions& trace,
                      std::shared_ptr<spdlog::logger> log) {
  TraceSettings s;
  s.workload = workload;
  s.path = workload.substr(std::string_view("trace:").size());
  if (s.path.empty()) throw make_error("-w 'trace:': no trace file after 'trace:'");
  if (const std::string problem = not_a_regular_file(s.path); !problem.empty())
    throw make_error("-w '{}': {}", workload,
                     problem == "no such file" ? "no such trace file" : problem);

  auto& parser = s.read.parser;
  if (!trace.blk_event.empty()) {
    if (trace.blk_event != "D" && trace.blk_event != "Q")
      throw make_error("--blk-event '{}': expected D (issue) or Q (queue)", trace.blk_event);
    parser.blkparse_action = trace.blk_event[0];
  }
  if (!trace.time_unit.empty()) parser.mqsim_time_unit_ns = parse_time_unit(trace.time_unit);
  s.read.skip_bad = trace.skip_bad;
  if (!trace.zero_size.empty() && trace.zero_size != "skip" && trace.zero_size != "error")
    throw make_error("--zero-size '{}': expected skip or error", trace.zero_size);
  s.read.zero_size_is_bad = trace.zero_size == "error";

  s.format = trace.format.empty() ? "auto" : trace.format;
  if (s.format == "auto") {
    s.format = traces::detect_format(s.path, parser);
    s.detected = true;
    log->info("{}: detected trace format {}", s.path, s.format);
  } else {
    traces::make_parser(s.format, parser);  // throws naming the known formats
  }
  s.read.format = s.format;

  auto& selection = s.selection;
  if (!trace.device.empty()) selection.device = parse_trace_device(trace.device);
  if (!trace.start.empty()) {
    selection.start_ns = parse_start_time(trace.start);
    if (!selection.start_ns && !traces::parse_uint(trace.start, selection.start_requests))
      throw make_error("--start '{}': expected a request count or a time such as 10s, 500ms",
                       trace.start);
  }
  selection.limit = trace.limit;
  if (!trace.map.empty()) {
    const auto map = traces::parse_address_map(trace.map);
    if (!map) throw make_error("--map '{}': expected modulo or scale", trace.map);
    selection.map = *map;
  }

  auto& replay = s.replay;
  if (!trace.mode.empty() && trace.mode != "open" && trace.mode != "closed")
    throw make_error("--mode '{}': expected open or closed", trace.mode);
  replay.mode = trace.mode == "closed" ? ReplayMode::kClosed : ReplayMode::kOpen;
  if (replay.mode == ReplayMode::kOpen && trace.queue_depth)
    throw make_error("--qd applies to --mode closed (open-loop replay follows the trace times)");
  if (replay.mode == ReplayMode::kClosed && trace.speed > 0)
    throw make_error("--speed applies to --mode open (closed-loop replay ignores trace times)");
  replay.queue_depth = trace.queue_depth ? trace.queue_depth : 1;
  if (trace.speed != 0 &&
      (!std::isfinite(trace.speed) || trace.speed < kMinSpeed || trace.speed > kMaxSpeed))
    throw make_error("--speed {}: expected a number from {:g} to {:g}", trace.speed, kMinSpeed,
                     kMaxSpeed);
  replay.speed = trace.speed > 0 ? trace.speed : 1.0;
  replay.experiment = experiment_name(s.path);
  return s;
}

}  // namespace ssdlab::sim
