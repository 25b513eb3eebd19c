#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <ostream>

#include "common/log.h"
#include "common/units.h"
#include "sim/report/report.h"
#include "sim/run/trace_placement.h"

namespace ssdlab::sim {
TraceRecord trace_record(const TraceSettings& s, const PlacedTrace& placed,
                         const ReplayResult& result, const std::optional<Partition>& partition,
                         const std::vector<std::string>& warnings) {
  const auto& read = placed.file().counts();
  const auto& selected = placed.selection().counts();
  const bool open = s.replay.mode == ReplayMode::kOpen;
  TraceRecord t;
  t.file = s.shown_path;
  t.format = s.read.format;
  t.format_detected = s.detected;
  t.compression = placed.file().compression();
  t.mode = replay_mode_name(s.replay.mode);
  if (!open) t.queue_depth = s.replay.queue_depth;
  if (open) t.speed = s.replay.speed;
  t.map = traces::address_map_name(s.read.map);
  if (s.read.map == traces::AddressMap::kScale) t.trace_span_bytes = s.placement.trace_span;
  t.device_filter = s.read.device;
  t.start_requests = s.read.start_requests;
  if (s.read.start_ns) t.start_us = *s.read.start_ns / 1000.0;
  t.limit = s.read.limit;
  t.lines = read.lines;
  t.records = read.records;
  t.skipped_lines = read.skipped_lines;
  t.bad_lines_skipped = read.bad_lines;
  t.zero_size_skipped = read.zero_size;
  t.other_device = selected.other_device;
  t.before_start = selected.before_start;
  t.realigned = selected.realigned;
  t.remapped = selected.remapped;
  t.out_of_order = result.out_of_order;
  t.replayed = result.requests;
  t.trace_start_us = result.trace_start_ns / 1000.0;
  t.trace_end_us = result.trace_end_ns / 1000.0;
  if (partition) t.partition = TraceRecord::Partition{partition->base, partition->bytes};
  t.devices = device_layout_name(s.devices);
  if (!s.placement.device_base.empty()) {
    auto& bases = t.device_bases.emplace();
    for (const auto& [device, base] : s.placement.device_base) bases[std::to_string(device)] = base;
  }
  if (!result.process_depths.empty()) {
    auto& depths = t.queue_depth_by_process.emplace();
    for (const auto& [process, depth] : result.process_depths)
      depths[std::to_string(process)] = depth;
  }
  t.warnings = warnings;
  if (const traces::LifetimeOracle* oracle = placed.oracle()) {
    t.oracle_class_writes = oracle->counts().class_writes;
    t.oracle_class_max_lifetime_pages = oracle->counts().class_max_lifetime;
  }
  return t;
}

ExperimentRecord trace_experiment(const Traces& t, std::size_t k, const PlacedTrace& placed,
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
        settings.read.format == "blkparse" && read.records == 0
            ? fmt::format("; the trace has no {} events (--blk-event {} replays those; try {})",
                          settings.read.blk_event, settings.read.blk_event,
                          settings.read.blk_event == 'Q' ? "D" : "Q")
        : file.seen().empty() ? std::string()
                              : "; " + file.seen());
  for (const auto& example : file.bad_examples()) log->warn("skipped bad line: {}", example);
  if (read.bad_lines)
    log->warn("{}: {} bad lines skipped (--skip-bad)", settings.shown_path, read.bad_lines);
  ExperimentRecord e;
  e.name = settings.replay.experiment;
  e.pattern = "trace";
  e.count = result.requests;
  e.trims = result.trims;
  if (settings.replay.mode == ReplayMode::kClosed) e.trace_queue_depth = settings.replay.queue_depth;
  e.queue_depth = e.trace_queue_depth.value_or(1);  // as summary_from_json reads it back
  if (!result.process_depths.empty())
    e.processes = static_cast<std::uint32_t>(result.process_depths.size());
  e.trace = trace_record(settings, placed, result,
                         t.partitioned ? std::optional(t.partitions[k]) : std::nullopt,
                         t.warnings[k]);
  e.runs.push_back(run_record(result.run));
  return e;
}

void print_traces(std::ostream& out, const Traces& t,
                  const std::vector<std::unique_ptr<PlacedTrace>>& placed,
                  const std::vector<ReplayResult>& results, const DeviceConfig& config,
                  std::uint64_t logical_bytes) {
  const auto describe_trace = [](const TraceSettings& s, const PlacedTrace& p) {
    return fmt::format("{} ({}{}{})", s.workload, s.read.format, s.detected ? ", detected" : "",
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
                 traces::address_map_name(t.all[k].read.map),
                 t.all[k].read.map == traces::AddressMap::kModulo ? ": wrapped" : "");
    if (results[k].out_of_order) fmt::print(out, ", {} out of order", results[k].out_of_order);
    fmt::print(out, "\n");
    if (const traces::LifetimeOracle* oracle = placed[k]->oracle()) {
      const traces::OracleCounts& c = oracle->counts();
      fmt::print(out,
                 "  placement oracle: {} writes in {} classes by lifetime: [{}] writes, the "
                 "longest lifetime of each [{}] host pages; {} never superseded (sorted last)\n",
                 c.writes, c.class_writes.size(), fmt::join(c.class_writes, ", "),
                 fmt::join(c.class_max_lifetime, ", "), c.never_superseded);
    }
    for (const auto& warning : t.warnings[k])
      fmt::print(out, "  warning: {}{}\n", several ? t.all[k].replay.experiment + ": " : "",
                 warning);
  }
}

}  // namespace ssdlab::sim
