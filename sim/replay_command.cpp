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
#include <set>
#include <vector>

#include "common/error.h"
#include "common/units.h"
#include "sim/checkpoint.h"
#include "sim/config.h"
#include "sim/log.h"
#include "sim/output.h"
#include "sim/precondition.h"
#include "sim/replay.h"
#include "sim/report.h"
#include "sim/ssd.h"
#include "sim/trace_settings.h"
#include "traces/fields.h"
#include "traces/formats.h"
#include "traces/parsers.h"
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
                          const ReplayResult& result, const std::optional<Partition>& partition) {
  const auto& file = placed.file();
  const auto& read = file.counts();
  const auto& selected = placed.selection().counts();
  const bool open = s.replay.mode == ReplayMode::kOpen;
  const bool scale = s.selection.map == traces::AddressMap::kScale;
  nlohmann::json json = {
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
  if (partition) json["partition"] = {{"offset", partition->base}, {"bytes", partition->bytes}};
  return json;
}

// Reading never-written data would measure nothing (as for plans): before the
// replay, a streamed pass writes every never-written page that the trace reads,
// functionally (no simulated time; not in the run's counters). Returns the
// number of logical pages written.
std::uint64_t prefill_read_ranges(Ssd& ssd, const TraceSettings& settings,
                                  const Partition& partition) {
  PlacedTrace placed(settings, partition.base, partition.bytes, ssd.config().sector_size);
  std::uint64_t pages = 0;
  while (auto record = placed.next())
    if (record->mode == IoMode::kRead) pages += ssd.prefill(record->offset, record->size);
  return pages;
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
  if (traces && !options.power_cuts.empty())
    throw make_error("--power-cut-at: only for plan workloads, not traces (-w trace:FILE)");
  if (traces) return run_replay(options, workloads, trace, out);
  const std::string given = trace.given();
  if (!given.empty())
    throw make_error("{}: only for trace workloads (-w trace:FILE), not -w '{}'", given,
                     options.workload);
  run_sim(options, out);
}

void run_replay(const SimOptions& options, const std::vector<std::string>& workloads,
                const TraceOptions& trace, std::ostream& out) {
  auto log = logger("trace");
  const fs::path outdir(options.outdir);
  prepare_outdir(outdir);  // first: an earlier run's outputs must not survive a failure
  const DeviceConfig config = load_config(options.config, options.overrides);
  // The host queue lives in the uFLIP simulator's event loop (sim/simulator.h);
  // trace replay dispatches every request on arrival (its --qd bounds them).
  if (config.controller.queue_depth != 0)
    throw make_error(
        "host.queue_depth = {} ({} or --set): trace replay does not model the host queue yet; "
        "use --qd for closed-loop replay, or host.queue_depth = 0",
        config.controller.queue_depth, config.source);
  std::vector<TraceSettings> all;
  for (const auto& workload : workloads) all.push_back(resolve(workload, trace, log));
  make_names_unique(all);
  if (!trace.layout.empty() && trace.layout != "shared" && trace.layout != "partitioned")
    throw make_error("--layout '{}': expected shared or partitioned", trace.layout);
  const bool partitioned = trace.layout == "partitioned";
  const bool several = all.size() > 1;
  const PreconditionSpec preconditioning =
      options.precondition.empty() ? PreconditionSpec{} : parse_precondition(options.precondition);
  for (auto& settings : all)
    if (settings.selection.map == traces::AddressMap::kScale) {
      traces::TraceFile pass(settings.path, settings.read);  // a first, streamed pass
      settings.selection.trace_span = traces::address_span(pass, settings.selection.device);
    }
  Ssd ssd(config, options.verify, options.check_every);
  TeachingViews views(ssd, options.teaching);
  RunPosition position;
  nlohmann::json checkpoint = nlohmann::json::object();
  if (!options.load_state.empty()) {
    checkpoint["loaded"] = load_checkpoint(options.load_state, ssd, position);
    print_loaded(out, checkpoint["loaded"]);
  }
  const nlohmann::json preconditioned = precondition(ssd, preconditioning, options.seed);
  if (!preconditioned.is_null())
    fmt::print(
        out,
        "preconditioned ({}): {} flash pages written in {:.2f} s, write amplification {:.3f}\n",
        preconditioning.text, preconditioned["flash_pages_written"].get<std::uint64_t>(),
        preconditioned["wall_seconds"].get<double>(),
        preconditioned["write_amplification"].get<double>());

  std::vector<Partition> partitions(all.size(), Partition{0, ssd.logical_bytes()});
  if (partitioned) {
    const std::uint64_t page = ssd.ftl().logical_page_size();
    const std::uint64_t bytes = ssd.logical_bytes() / all.size() / page * page;
    if (bytes == 0)
      throw make_error("--layout partitioned: {} traces on too small a device", all.size());
    for (std::size_t k = 0; k < all.size(); ++k) partitions[k] = Partition{k * bytes, bytes};
  }
  std::uint64_t prefilled = 0;
  for (std::size_t k = 0; k < all.size(); ++k) {
    const std::uint64_t pages = prefill_read_ranges(ssd, all[k], partitions[k]);
    if (pages)
      log->info("{}: prefilled {} never-written logical pages that the trace reads", all[k].path,
                pages);
    prefilled += pages;
  }

  std::unique_ptr<IoLog> io_log;
  if (options.io_log) io_log = std::make_unique<IoLog>(outdir / "io.csv");
  std::vector<std::unique_ptr<PlacedTrace>> placed;
  std::vector<ReplaySource> sources;
  for (std::size_t k = 0; k < all.size(); ++k) {
    placed.push_back(std::make_unique<PlacedTrace>(all[k], partitions[k].base, partitions[k].bytes,
                                                   config.sector_size));
    sources.push_back(ReplaySource{placed.back().get(), all[k].replay.experiment});
  }
  Simulator simulator(ssd, io_log.get());
  simulator.resume_at(position.now);

  const auto wall_start = std::chrono::steady_clock::now();
  const std::vector<ReplayResult> results = replay(simulator, sources, all.front().replay);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  if (options.verify) ssd.ftl().check_invariants();
  std::uint64_t requests = 0;
  nlohmann::json experiments = nlohmann::json::array();
  for (std::size_t k = 0; k < all.size(); ++k) {
    const auto& settings = all[k];
    const auto& file = placed[k]->file();
    const auto& selection = placed[k]->selection();
    const auto& result = results[k];
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
    requests += result.requests;
    experiments.push_back(
        {{"name", settings.replay.experiment},
         {"pattern", "trace"},
         {"count", result.requests},
         {"queue_depth",
          optional_json(settings.replay.mode == ReplayMode::kClosed, settings.replay.queue_depth)},
         {"processes", 1},
         {"io_ignore", 0},
         {"trace", trace_json(settings, *placed[k], result,
                              partitioned ? std::optional(partitions[k]) : std::nullopt)},
         {"runs", nlohmann::json::array({run_json(result.run)})}});
  }

  nlohmann::json summary = {
      {"ssdlab", {{"version", SSDLAB_VERSION}}},
      {"workload", fmt::format("{}", fmt::join(workloads, " "))},
      {"seed", options.seed},
      {"logical_bytes", ssd.logical_bytes()},
      {"prefilled_pages", prefilled},
      {"precondition", preconditioned},
      {"simulated_us", simulator.now() / 1000.0},
      {"experiments", std::move(experiments)},
  };
  if (several) summary["layout"] = partitioned ? "partitioned" : "shared";
  add_device_summary(summary, ssd, options.verify);
  if (!options.save_state.empty()) {
    position.now = simulator.now();
    checkpoint["saved"] = save_run_state(
        options, ssd, position, summary["workload"].get<std::string>(), preconditioned, false);
  }
  if (!checkpoint.empty()) summary["checkpoint"] = checkpoint;
  if (io_log) io_log->commit();
  write_file_atomically(outdir / "summary.json", summary.dump(2) + "\n");
  views.commit(out);

  const auto describe_trace = [](const TraceSettings& s, const PlacedTrace& p) {
    return fmt::format("{} ({}{}{})", s.workload, s.format, s.detected ? ", detected" : "",
                       p.file().compression() == "none" ? "" : ", " + p.file().compression());
  };
  if (several) {
    fmt::print(out, "{} traces on {} ({} logical), {} loop, {} layout\n", all.size(), config.source,
               format_size(ssd.logical_bytes()), replay_mode_name(all.front().replay.mode),
               partitioned ? "partitioned" : "shared");
    for (std::size_t k = 0; k < all.size(); ++k)
      fmt::print(out, "  {}: {}, bytes [{}, {})\n", all[k].replay.experiment,
                 describe_trace(all[k], *placed[k]), partitions[k].base,
                 partitions[k].base + partitions[k].bytes);
  } else {
    fmt::print(out, "{} on {} ({} logical), {} loop\n", describe_trace(all[0], *placed[0]),
               config.source, format_size(ssd.logical_bytes()),
               replay_mode_name(all[0].replay.mode));
  }
  print_run_header(out);
  for (std::size_t k = 0; k < all.size(); ++k)
    print_run(out, all[k].replay.experiment, results[k].run);
  for (std::size_t k = 0; k < all.size(); ++k) {
    const auto& read = placed[k]->file().counts();
    const auto& selected = placed[k]->selection().counts();
    fmt::print(out, "  trace{}: {} lines, {} requests replayed",
               several ? " " + all[k].replay.experiment : "", read.lines, results[k].requests);
    if (read.bad_lines) fmt::print(out, ", {} bad lines skipped", read.bad_lines);
    if (read.zero_size) fmt::print(out, ", {} zero-size skipped", read.zero_size);
    if (selected.other_device) fmt::print(out, ", {} on other devices", selected.other_device);
    if (results[k].out_of_order) fmt::print(out, ", {} out of order", results[k].out_of_order);
    fmt::print(out, "\n");
  }
  fmt::print(out, "  {} I/Os simulated in {:.2f} s of wall time ({:.0f} I/Os per second)\n",
             requests, wall, wall > 0 ? static_cast<double>(requests) / wall : 0.0);
  print_saved(out, checkpoint);
  if (io_log) fmt::print(out, "  io.csv:       {}\n", (outdir / "io.csv").string());
  fmt::print(out, "  summary.json: {}\n", (outdir / "summary.json").string());
}

}  // namespace ssdlab::sim
