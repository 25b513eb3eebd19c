#include <fmt/format.h>
#include <fmt/ostream.h>

#include <ostream>

#include "common/log.h"
#include "common/units.h"
#include "sim/results/report.h"
#include "sim/run/trace_placement.h"

namespace ssdlab::sim {
namespace {

nlohmann::json optional_json(bool present, nlohmann::json value) {
  return present ? std::move(value) : nlohmann::json();
}

}  // namespace

nlohmann::json trace_json(const TraceSettings& s, const PlacedTrace& placed,
                          const ReplayResult& result, const std::optional<Partition>& partition,
                          const std::vector<std::string>& warnings) {
  const auto& file = placed.file();
  const auto& read = file.counts();
  const auto& selected = placed.selection().counts();
  const bool open = s.replay.mode == ReplayMode::kOpen;
  const bool scale = s.selection.map == traces::AddressMap::kScale;
  nlohmann::json json = {
      {"file", s.shown_path},
      {"format", s.format},
      {"format_detected", s.detected},
      {"compression", file.compression()},
      {"mode", replay_mode_name(s.replay.mode)},
      {"queue_depth", optional_json(!open, s.replay.queue_depth)},
      {"speed", optional_json(open, s.replay.speed)},
      {"map", traces::address_map_name(s.selection.map)},
      {"trace_span_bytes", optional_json(scale, s.selection.trace_span)},
      {"device_filter",
       optional_json(s.selection.device.has_value(), s.selection.device.value_or(0))},
      {"start_requests", s.selection.start_requests},
      {"start_us",
       optional_json(s.selection.start_ns.has_value(), s.selection.start_ns.value_or(0) / 1000.0)},
      {"limit", s.selection.limit},
      {"lines", read.lines},
      {"records", read.records},
      {"skipped_lines", read.skipped_lines},
      {"bad_lines_skipped", read.bad_lines},
      {"zero_size_skipped", read.zero_size},
      {"other_device", selected.other_device},
      {"before_start", selected.before_start},
      {"realigned", selected.realigned},
      {"remapped", selected.remapped},
      {"out_of_order", result.out_of_order},
      {"replayed", result.requests},
      {"trace_start_us", result.trace_start_ns / 1000.0},
      {"trace_end_us", result.trace_end_ns / 1000.0},
  };
  if (partition) json["partition"] = {{"offset", partition->base}, {"bytes", partition->bytes}};
  json["devices"] = device_layout_name(s.devices);
  if (!s.selection.device_base.empty()) {
    nlohmann::json bases = nlohmann::json::object();
    for (const auto& [device, base] : s.selection.device_base) bases[std::to_string(device)] = base;
    json["device_bases"] = std::move(bases);
  }
  json["warnings"] = warnings;
  return json;
}

nlohmann::json trace_experiment(const Traces& t, std::size_t k, const PlacedTrace& placed,
                                const ReplayResult& result) {
  auto log = logger("trace");
  const auto& settings = t.all[k];
  const auto& file = placed.file();
  const auto& read = file.counts();
  if (result.requests == 0)
    throw make_error(
        "{}: no requests to replay ({} lines: {} requests, {} on other devices, {} before "
        "--start, {} skipped lines, {} bad, {} zero-size){}",
        settings.shown_path, read.lines, read.records, placed.selection().counts().other_device,
        placed.selection().counts().before_start, read.skipped_lines, read.bad_lines,
        read.zero_size,
        settings.format == "blkparse" && read.records == 0
            ? fmt::format("; the trace has no {} events (--blk-event {} replays those; try {})",
                          settings.read.parser.blkparse_action,
                          settings.read.parser.blkparse_action,
                          settings.read.parser.blkparse_action == 'Q' ? "D" : "Q")
            : "");
  for (const auto& example : file.bad_examples()) log->warn("skipped bad line: {}", example);
  if (read.bad_lines)
    log->warn("{}: {} bad lines skipped (--skip-bad)", settings.shown_path, read.bad_lines);
  return {{"name", settings.replay.experiment},
          {"pattern", "trace"},
          {"count", result.requests},
          {"trims", result.trims},
          {"queue_depth",
           optional_json(settings.replay.mode == ReplayMode::kClosed, settings.replay.queue_depth)},
          {"processes", 1},
          {"io_ignore", 0},
          {"trace", trace_json(settings, placed, result,
                               t.partitioned ? std::optional(t.partitions[k]) : std::nullopt,
                               t.warnings[k])},
          {"runs", nlohmann::json::array({run_json(result.run)})}};
}

void print_traces(std::ostream& out, const Traces& t,
                  const std::vector<std::unique_ptr<PlacedTrace>>& placed,
                  const std::vector<ReplayResult>& results, const DeviceConfig& config,
                  std::uint64_t logical_bytes) {
  const auto describe_trace = [](const TraceSettings& s, const PlacedTrace& p) {
    return fmt::format("{} ({}{}{})", s.workload, s.format, s.detected ? ", detected" : "",
                       p.file().compression() == "none" ? "" : ", " + p.file().compression());
  };
  const bool several = t.all.size() > 1;
  if (several) {
    fmt::print(out, "{} traces on {} ({} logical), {} loop, {} layout\n", t.all.size(),
               config.source, format_size(logical_bytes), replay_mode_name(t.all[0].replay.mode),
               t.partitioned ? "partitioned" : "shared");
    for (std::size_t k = 0; k < t.all.size(); ++k)
      fmt::print(out, "  {}: {}, bytes [{}, {})\n", t.all[k].replay.experiment,
                 describe_trace(t.all[k], *placed[k]), t.partitions[k].base,
                 t.partitions[k].base + t.partitions[k].bytes);
  } else {
    fmt::print(out, "{} on {} ({} logical), {} loop\n", describe_trace(t.all[0], *placed[0]),
               config.source, format_size(logical_bytes), replay_mode_name(t.all[0].replay.mode));
  }
  print_run_header(out);
  for (std::size_t k = 0; k < t.all.size(); ++k)
    print_run(out, t.all[k].replay.experiment, results[k].run);
  for (std::size_t k = 0; k < t.all.size(); ++k) {
    const auto& read = placed[k]->file().counts();
    const auto& selected = placed[k]->selection().counts();
    fmt::print(out, "  trace{}: {} lines, {} requests replayed",
               several ? " " + t.all[k].replay.experiment : "", read.lines, results[k].requests);
    if (results[k].trims) fmt::print(out, " ({} trims)", results[k].trims);
    if (read.bad_lines) fmt::print(out, ", {} bad lines skipped", read.bad_lines);
    if (read.zero_size) fmt::print(out, ", {} zero-size skipped", read.zero_size);
    if (selected.other_device) fmt::print(out, ", {} on other devices", selected.other_device);
    if (selected.before_start) fmt::print(out, ", {} skipped before --start", selected.before_start);
    if (selected.realigned) fmt::print(out, ", {} widened to whole sectors", selected.realigned);
    if (selected.remapped)
      fmt::print(out, ", {} remapped (--map {}{})", selected.remapped,
                 traces::address_map_name(t.all[k].selection.map),
                 t.all[k].selection.map == traces::AddressMap::kModulo ? ": wrapped" : "");
    if (results[k].out_of_order) fmt::print(out, ", {} out of order", results[k].out_of_order);
    fmt::print(out, "\n");
    for (const auto& warning : t.warnings[k])
      fmt::print(out, "  warning: {}{}\n", several ? t.all[k].replay.experiment + ": " : "",
                 warning);
  }
}

}  // namespace ssdlab::sim
