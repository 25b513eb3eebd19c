#include "sim/run/trace_run.h"

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
#include <set>
#include <vector>

#include "common/error.h"
#include "common/units.h"
#include "sim/state/checkpoint.h"
#include "sim/controller/config.h"
#include "common/log.h"
#include "sim/results/output.h"
#include "sim/state/precondition.h"
#include "sim/engine/replay.h"
#include "sim/results/report.h"
#include "sim/run/run_session.h"
#include "sim/controller/ssd.h"
#include "sim/run/trace_settings.h"
#include "traces/fields.h"
#include "traces/formats.h"
#include "traces/parsers.h"
#include "traces/profile.h"
#include "traces/selection.h"
#include "traces/trace_file.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

namespace {

nlohmann::json optional_json(bool present, nlohmann::json value) {
  return present ? std::move(value) : nlohmann::json();
}

// A trace's records selected and placed on the device, or on its partition of
// it (`bytes` from `base`); a request that cannot be placed is an error naming
// the trace's file and line.
class PlacedTrace final : public traces::TraceReader {
 public:
  PlacedTrace(const TraceSettings& settings, std::uint64_t base, std::uint64_t bytes,
              std::uint32_t sector)
      : file_(settings.path, settings.read),
        selection_(file_, settings.selection, bytes, sector),
        base_(base) {}

  std::optional<traces::TraceRecord> next() override {
    try {
      auto record = selection_.next();
      if (record) record->offset += base_;
      return record;
    } catch (const traces::RequestError& error) {
      throw make_error("{}: {}", file_.where(), error.what());
    }
  }
  const traces::TraceFile& file() const { return file_; }
  const traces::Selection& selection() const { return selection_; }

 private:
  traces::TraceFile file_;
  traces::Selection selection_;
  std::uint64_t base_;
};

// Where each trace goes: the whole device (shared), or range k of N equal
// ranges, whole logical pages each (partitioned).
struct Partition {
  std::uint64_t base = 0, bytes = 0;
};

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

// Reading never-written data would measure nothing (as for plans): before the
// replay, a streamed pass writes every never-written page that the trace reads,
// functionally (no simulated time; not in the run's counters). It counts the
// requests too (--power-cut-at random:K draws among them).
// The same pass gathers what the warnings need: the devices seen and the
// time span of the requests replayed.
struct FirstPass {
  std::uint64_t prefilled_pages = 0, requests = 0;
  std::set<std::uint32_t> devices;  // the first few
  traces::TraceProfile times;       // requests, times and bytes only
};
FirstPass prefill_read_ranges(Ssd& ssd, const TraceSettings& settings,
                              const Partition& partition) {
  PlacedTrace placed(settings, partition.base, partition.bytes, ssd.config().sector_size);
  FirstPass pass;
  auto& times = pass.times;
  while (auto record = placed.next()) {
    if (pass.devices.size() < 64) pass.devices.insert(record->device);
    if (pass.requests++ == 0) times.min_time_ns = times.max_time_ns = record->time_ns;
    times.not_whole_ms += record->time_ns % 1000000 != 0;
    times.min_time_ns = std::min(times.min_time_ns, record->time_ns);
    times.max_time_ns = std::max(times.max_time_ns, record->time_ns);
    if (record->mode == IoMode::kRead) {
      times.read_bytes += record->size;
      pass.prefilled_pages += ssd.prefill(record->offset, record->size);
    } else if (record->mode == IoMode::kWrite) {
      times.write_bytes += record->size;
    }
  }
  times.requests = pass.requests;
  return pass;
}

// The devices as the format names them (blkparse: MAJ,MIN).
std::string device_list(const std::set<std::uint32_t>& devices, const std::string& format) {
  std::vector<std::string> names;
  for (const std::uint32_t device : devices)
    names.push_back(format == "blkparse" ? fmt::format("{},{}", device >> 20, device & 0xfffff)
                                         : std::to_string(device));
  return fmt::format("{}{}", fmt::join(names, ", "), devices.size() >= 64 ? ", ..." : "");
}

// The warnings of one trace after the first pass (console and summary.json);
// throws where the trace's devices contradict --devices one.
std::vector<std::string> trace_warnings(const TraceSettings& s, const FirstPass& pass) {
  std::vector<std::string> warnings;
  const bool several = pass.devices.size() > 1;
  if (several && s.devices == DeviceLayout::kOne)
    throw make_error(
        "{}: --devices one: the trace has several devices ({}); choose one with --trace-device N "
        "(or device=N in -w trace:FILE,device=N)",
        s.shown_path, device_list(pass.devices, s.format));
  if (several && s.devices == DeviceLayout::kAuto)
    warnings.push_back(fmt::format(
        "{} devices ({}) share one address space: block B of each lands on the same page; "
        "choose --devices side-by-side (each device its own range), --trace-device N (one "
        "device) or --devices shared (this, without the warning)",
        pass.devices.size(), device_list(pass.devices, s.format)));
  for (auto& warning : traces::time_warnings(pass.times, s.format))
    warnings.push_back(std::move(warning) +
                       (s.format == "mqsim" || s.format == "disksim"
                            ? " (per trace: -w trace:FILE,format=...,time_unit=...)"
                            : ""));
  return warnings;
}

// Traces with the same io.csv name get "-2", "-3", ... in the order given.
void make_names_unique(std::vector<TraceSettings>& traces) {
  std::set<std::string> used;
  for (auto& trace : traces) {
    std::string name = trace.replay.experiment;
    for (int suffix = 2; used.count(name); ++suffix)
      name = fmt::format("{}-{}", trace.replay.experiment, suffix);
    trace.replay.experiment = name;
    used.insert(name);
  }
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
  add(!layout.empty(), "--layout");
  add(!devices.empty(), "--devices");
  return fmt::format("{}", fmt::join(names, ", "));
}

void run_sim_or_replay(SimOptions options, const std::vector<std::string>& workloads,
                       const TraceOptions& trace, std::ostream& out) {
  if (workloads.empty()) {
    // Only the preconditioning, to save it.
    if (options.save_state.empty()) throw make_error("-w: no workload");
    const std::string given = trace.given();
    if (!given.empty()) throw make_error("{}: only for trace workloads (-w trace:FILE)", given);
    options.workload.clear();
    return run_sim(options, out);
  }
  const bool traces = std::any_of(workloads.begin(), workloads.end(), is_trace_workload);
  if (workloads.size() > 1)
    for (const auto& workload : workloads)
      if (!is_trace_workload(workload))
        throw make_error(
            "-w '{}': only traces (-w trace:FILE) can be given more than once; a plan cannot be "
            "mixed with traces",
            workload);
  options.workload = workloads.front();
  if (traces) return run_replay(options, workloads, trace, out);
  const std::string given = trace.given();
  if (!given.empty())
    throw make_error("{}: only for trace workloads (-w trace:FILE), not -w '{}'", given,
                     options.workload);
  run_sim(options, out);
}

namespace {

// The traces of a replay, resolved, with their place on the device.
struct Traces {
  std::vector<TraceSettings> all;
  std::vector<Partition> partitions;
  bool partitioned = false;
  std::vector<std::vector<std::string>> warnings;  // per trace, from the first pass
};

Traces resolve_traces(const std::vector<std::string>& workloads, const TraceOptions& trace,
                      std::uint64_t logical_bytes, std::uint64_t page) {
  auto log = logger("trace");
  Traces t;
  for (const auto& workload : workloads) {
    try {
      t.all.push_back(resolve(workload, trace, log));
    } catch (const Error& error) {
      // A bad value of a key (map=fold) is reported as its option (--map):
      // say which -w it came from.
      const std::string_view message = error.what();
      if (workload.find(',') == std::string::npos || message.starts_with("-w ")) throw;
      throw make_error("-w '{}': {}", workload, message);
    }
  }
  make_names_unique(t.all);
  if (!trace.layout.empty() && trace.layout != "shared" && trace.layout != "partitioned")
    throw make_error("--layout '{}': expected shared or partitioned", trace.layout);
  t.partitioned = trace.layout == "partitioned";
  for (auto& settings : t.all) {
    std::uint64_t side_by_side_span = 0;
    if (settings.devices == DeviceLayout::kSideBySide) {
      traces::TraceFile pass(settings.path, settings.read);  // a first, streamed pass
      settings.selection.device_base =
          traces::side_by_side_bases(traces::device_spans(pass), page, side_by_side_span);
    }
    if (settings.selection.map != traces::AddressMap::kScale) continue;
    if (settings.devices == DeviceLayout::kSideBySide) {
      settings.selection.trace_span = side_by_side_span;
    } else {
      traces::TraceFile pass(settings.path, settings.read);  // a first, streamed pass
      settings.selection.trace_span = traces::address_span(pass, settings.selection.device);
    }
  }
  t.partitions.assign(t.all.size(), Partition{0, logical_bytes});
  if (t.partitioned) {
    const std::uint64_t bytes = logical_bytes / t.all.size() / page * page;
    if (bytes == 0)
      throw make_error("--layout partitioned: {} traces on too small a device", t.all.size());
    for (std::size_t k = 0; k < t.all.size(); ++k) t.partitions[k] = Partition{k * bytes, bytes};
  }
  if (std::count_if(t.all.begin(), t.all.end(),
                    [](const TraceSettings& s) { return s.shown_path == "-"; }) > 1)
    throw make_error("-w trace:-: standard input can be read by one trace only");
  t.warnings.resize(t.all.size());
  return t;
}

// summary.json's experiment for trace `k`; throws if it replayed nothing.
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

}  // namespace

void run_replay(const SimOptions& options, const std::vector<std::string>& workloads,
                const TraceOptions& trace, std::ostream& out) {
  auto log = logger("trace");
  RunSession session(options, out);
  Ssd& ssd = session.ssd();
  Traces t =
      resolve_traces(workloads, trace, ssd.logical_bytes(), ssd.ftl().logical_page_size());
  if (!session.loaded_state())
    session.precondition(options.precondition.empty() ? PreconditionSpec{}
                                                      : parse_precondition(options.precondition),
                         "preconditioned");
  std::uint64_t prefilled = 0, requests = 0;
  for (std::size_t k = 0; k < t.all.size(); ++k) {
    const FirstPass pass = prefill_read_ranges(ssd, t.all[k], t.partitions[k]);
    if (pass.prefilled_pages)
      log->info("{}: prefilled {} never-written logical pages that the trace reads",
                t.all[k].shown_path, pass.prefilled_pages);
    prefilled += pass.prefilled_pages;
    requests += pass.requests;
    t.warnings[k] = trace_warnings(t.all[k], pass);
  }

  std::vector<std::unique_ptr<PlacedTrace>> placed;
  std::vector<ReplaySource> sources;
  for (std::size_t k = 0; k < t.all.size(); ++k) {
    placed.push_back(std::make_unique<PlacedTrace>(t.all[k], t.partitions[k].base,
                                                   t.partitions[k].bytes, session.config().sector_size));
    sources.push_back(
        ReplaySource{placed.back().get(), t.all[k].replay.experiment, t.all[k].replay.speed});
  }
  Simulator& simulator = session.start(true, requests);
  const std::vector<ReplayResult> results = replay(simulator, sources, t.all.front().replay);
  if (options.verify) ssd.ftl().check_invariants();
  nlohmann::json experiments = nlohmann::json::array();
  std::uint64_t replayed = 0;
  for (std::size_t k = 0; k < t.all.size(); ++k) {
    experiments.push_back(trace_experiment(t, k, *placed[k], results[k]));
    replayed += results[k].requests;
  }
  nlohmann::json summary = {{"prefilled_pages", prefilled}, {"experiments", std::move(experiments)}};
  if (t.all.size() > 1) summary["layout"] = t.partitioned ? "partitioned" : "shared";
  session.finish(summary, fmt::format("{}", fmt::join(workloads, " ")),
                 results.front().run.end_of_life);
  print_traces(out, t, placed, results, session.config(), ssd.logical_bytes());
  print_controller(out, sum_run_counters(summary["experiments"]));
  session.print_closing(summary, replayed);
}

}  // namespace ssdlab::sim
