#include "sim/replay_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <vector>

#include "common/error.h"
#include "common/units.h"
#include "sim/config.h"
#include "sim/log.h"
#include "sim/output.h"
#include "sim/precondition.h"
#include "sim/replay.h"
#include "sim/report.h"
#include "sim/ssd.h"
#include "traces/fields.h"
#include "traces/formats.h"
#include "traces/parsers.h"
#include "traces/selection.h"
#include "traces/trace_file.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

namespace {

// Everything the trace options say, checked.
struct TraceSettings {
  std::string path;
  std::string format;  // resolved: never "auto"
  bool detected = false;
  traces::ReadOptions read;
  traces::SelectionOptions selection;
  ReplaySettings replay;
};

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
    if (!std::isalnum(static_cast<unsigned char>(c)) &&
        std::string_view("_-./=:+@").find(c) == std::string_view::npos)
      c = '_';
  return name.empty() ? "trace" : name;
}

TraceSettings resolve(const SimOptions& options, const TraceOptions& trace,
                      std::shared_ptr<spdlog::logger> log) {
  TraceSettings s;
  s.path = options.workload.substr(std::string_view("trace:").size());
  if (s.path.empty()) throw make_error("-w 'trace:': no trace file after 'trace:'");
  std::error_code error;
  if (!fs::is_regular_file(s.path, error))
    throw make_error("-w '{}': no such trace file", options.workload);

  auto& parser = s.read.parser;
  if (!trace.blk_event.empty()) {
    if (trace.blk_event != "D" && trace.blk_event != "Q")
      throw make_error("--blk-event '{}': expected D (issue) or Q (queue)", trace.blk_event);
    parser.blkparse_action = trace.blk_event[0];
  }
  if (!trace.time_unit.empty()) {
    static constexpr std::pair<std::string_view, std::int64_t> kUnits[] = {
        {"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}};
    const auto* unit = std::find_if(std::begin(kUnits), std::end(kUnits),
                                    [&](const auto& u) { return u.first == trace.time_unit; });
    if (unit == std::end(kUnits))
      throw make_error("--time-unit '{}': expected ns, us, ms or s", trace.time_unit);
    parser.mqsim_time_unit_ns = unit->second;
  }
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
  if (!trace.device.empty()) {
    const std::size_t comma = trace.device.find(',');
    std::uint32_t number = 0, minor = 0;
    const bool ok =
        comma == std::string::npos
            ? traces::parse_uint(trace.device, number)
            : traces::parse_uint(std::string_view(trace.device).substr(0, comma), number) &&
                  traces::parse_uint(std::string_view(trace.device).substr(comma + 1), minor);
    if (!ok) throw make_error("--trace-device '{}': expected a number or MAJ,MIN", trace.device);
    selection.device = comma == std::string::npos ? number : traces::blkparse_device(number, minor);
  }
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
  replay.speed = trace.speed > 0 ? trace.speed : 1.0;
  replay.experiment = experiment_name(s.path);
  return s;
}

}  // namespace
}  // namespace ssdlab::sim

namespace ssdlab::sim {
namespace {

nlohmann::json optional_json(bool present, nlohmann::json value) {
  return present ? std::move(value) : nlohmann::json();
}

nlohmann::json trace_json(const TraceSettings& s, const traces::TraceFile& file,
                          const traces::Selection& selection, const ReplayResult& result) {
  const auto& read = file.counts();
  const auto& selected = selection.counts();
  const bool open = s.replay.mode == ReplayMode::kOpen;
  const bool scale = s.selection.map == traces::AddressMap::kScale;
  return {
      {"file", s.path},
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
}

// Reading never-written data would measure nothing (as for plans): before the
// replay, a streamed pass writes every never-written page that the trace reads,
// functionally (no simulated time; not in the run's counters). Returns the
// number of logical pages written.
std::uint64_t prefill_read_ranges(Ssd& ssd, const TraceSettings& settings) {
  traces::TraceFile file(settings.path, settings.read);
  traces::Selection selection(file, settings.selection, ssd.logical_bytes(),
                              ssd.config().sector_size);
  std::uint64_t pages = 0;
  try {
    while (auto record = selection.next())
      if (!record->write) pages += ssd.prefill(record->offset, record->size);
  } catch (const traces::RequestError& error) {
    throw make_error("{}: {}", file.where(), error.what());
  }
  return pages;
}

}  // namespace

std::string TraceOptions::given() const {
  std::vector<std::string_view> names;
  auto add = [&names](bool given, std::string_view name) {
    if (given) names.push_back(name);
  };
  add(!format.empty(), "--format");
  add(!mode.empty(), "--mode");
  add(queue_depth != 0, "--qd");
  add(speed != 0, "--speed");
  add(limit != 0, "--limit");
  add(!start.empty(), "--start");
  add(skip_bad, "--skip-bad");
  add(!device.empty(), "--trace-device");
  add(!map.empty(), "--map");
  add(!blk_event.empty(), "--blk-event");
  add(!time_unit.empty(), "--time-unit");
  add(!zero_size.empty(), "--zero-size");
  return fmt::format("{}", fmt::join(names, ", "));
}

void run_sim_or_replay(const SimOptions& options, const TraceOptions& trace, std::ostream& out) {
  if (is_trace_workload(options.workload)) return run_replay(options, trace, out);
  const std::string given = trace.given();
  if (!given.empty())
    throw make_error("{}: only for trace workloads (-w trace:FILE), not -w '{}'", given,
                     options.workload);
  run_sim(options, out);
}

void run_replay(const SimOptions& options, const TraceOptions& trace, std::ostream& out) {
  auto log = logger("trace");
  const fs::path outdir(options.outdir);
  prepare_outdir(outdir);  // first: an earlier run's outputs must not survive a failure
  const DeviceConfig config = load_config(options.config, options.overrides);
  TraceSettings settings = resolve(options, trace, log);
  const PreconditionSpec preconditioning =
      options.precondition.empty() ? PreconditionSpec{} : parse_precondition(options.precondition);
  if (settings.selection.map == traces::AddressMap::kScale) {
    traces::TraceFile pass(settings.path, settings.read);  // a first, streamed pass
    settings.selection.trace_span = traces::address_span(pass, settings.selection.device);
  }
  Ssd ssd(config, options.verify, options.check_every);
  TeachingViews views(ssd, options.teaching);
  const nlohmann::json preconditioned = precondition(ssd, preconditioning, options.seed);
  if (!preconditioned.is_null())
    fmt::print(
        out,
        "preconditioned ({}): {} flash pages written in {:.2f} s, write amplification {:.3f}\n",
        preconditioning.text, preconditioned["flash_pages_written"].get<std::uint64_t>(),
        preconditioned["wall_seconds"].get<double>(),
        preconditioned["write_amplification"].get<double>());

  const std::uint64_t prefilled = prefill_read_ranges(ssd, settings);
  if (prefilled)
    log->info("{}: prefilled {} never-written logical pages that the trace reads", settings.path,
              prefilled);

  std::unique_ptr<IoLog> io_log;
  if (options.io_log) io_log = std::make_unique<IoLog>(outdir / "io.csv");
  traces::TraceFile file(settings.path, settings.read);
  traces::Selection selection(file, settings.selection, ssd.logical_bytes(), config.sector_size);
  Replayer replayer(ssd, io_log.get());

  const auto wall_start = std::chrono::steady_clock::now();
  ReplayResult result;
  try {
    result = replayer.replay(selection, settings.replay);
  } catch (const traces::RequestError& error) {
    throw make_error("{}: {}", file.where(), error.what());
  }
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  if (options.verify) ssd.ftl().check_invariants();
  const auto& read = file.counts();
  if (result.requests == 0)
    throw make_error(
        "{}: no requests to replay ({} lines: {} requests, {} on other devices, {} before "
        "--start, {} skipped lines, {} bad, {} zero-size)",
        settings.path, read.lines, read.records, selection.counts().other_device,
        selection.counts().before_start, read.skipped_lines, read.bad_lines, read.zero_size);
  for (const auto& example : file.bad_examples()) log->warn("skipped bad line: {}", example);
  if (read.bad_lines)
    log->warn("{}: {} bad lines skipped (--skip-bad)", settings.path, read.bad_lines);

  nlohmann::json run = run_json(result.run);
  nlohmann::json experiment = {
      {"name", settings.replay.experiment},
      {"pattern", "trace"},
      {"count", result.requests},
      {"queue_depth",
       optional_json(settings.replay.mode == ReplayMode::kClosed, settings.replay.queue_depth)},
      {"processes", 1},
      {"io_ignore", 0},
      {"trace", trace_json(settings, file, selection, result)},
      {"runs", nlohmann::json::array({std::move(run)})}};
  nlohmann::json summary = {
      {"ssdlab", {{"version", SSDLAB_VERSION}}},
      {"workload", options.workload},
      {"seed", options.seed},
      {"logical_bytes", ssd.logical_bytes()},
      {"prefilled_pages", prefilled},
      {"precondition", preconditioned},
      {"simulated_us", replayer.now() / 1000.0},
      {"experiments", nlohmann::json::array({std::move(experiment)})},
  };
  add_device_summary(summary, ssd, options.verify);
  if (io_log) io_log->commit();
  write_file_atomically(outdir / "summary.json", summary.dump(2) + "\n");
  views.commit(out);

  fmt::print(out, "{} ({}{}{}) on {} ({} logical), {} loop\n", options.workload, settings.format,
             settings.detected ? ", detected" : "",
             file.compression() == "none" ? "" : ", " + file.compression(), config.source,
             format_size(ssd.logical_bytes()), replay_mode_name(settings.replay.mode));
  print_run_header(out);
  print_run(out, settings.replay.experiment, result.run);
  fmt::print(out, "  trace: {} lines, {} requests replayed", read.lines, result.requests);
  if (read.bad_lines) fmt::print(out, ", {} bad lines skipped", read.bad_lines);
  if (read.zero_size) fmt::print(out, ", {} zero-size skipped", read.zero_size);
  if (selection.counts().other_device)
    fmt::print(out, ", {} on other devices", selection.counts().other_device);
  if (result.out_of_order) fmt::print(out, ", {} out of order", result.out_of_order);
  fmt::print(out, "\n  {} I/Os simulated in {:.2f} s of wall time ({:.0f} I/Os per second)\n",
             result.requests, wall, wall > 0 ? static_cast<double>(result.requests) / wall : 0.0);
  if (io_log) fmt::print(out, "  io.csv:       {}\n", (outdir / "io.csv").string());
  fmt::print(out, "  summary.json: {}\n", (outdir / "summary.json").string());
}

}  // namespace ssdlab::sim
