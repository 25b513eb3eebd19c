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
#include "common/log.h"
#include "common/units.h"
#include "sim/config/config.h"
#include "sim/controller/ssd.h"
#include "sim/report/report.h"
#include "sim/run/run_session.h"
#include "sim/run/trace_placement.h"
#include "sim/run/tenant_run.h"
#include "sim/run/trace_settings.h"
#include "traces/fields.h"
#include "traces/formats.h"
#include "traces/profile.h"
#include "traces/selection.h"
#include "traces/trace_file.h"
#include "workloads/plan.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

FirstPass prefill_read_ranges(Ssd& ssd, const TraceSettings& settings, const Partition& partition) {
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

// The devices as the format names them (traces::device_name).
static std::string device_list(const std::set<std::uint32_t>& devices, const std::string& format) {
  std::vector<std::string> names;
  for (const std::uint32_t device : devices)
    names.push_back(traces::device_name(format, device));
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
        s.shown_path, device_list(pass.devices, s.read.format));
  if (several && s.devices == DeviceLayout::kAuto)
    warnings.push_back(fmt::format(
        "{} devices ({}) share one address space: block B of each lands on the same page; "
        "choose --devices side-by-side (each device its own range), --trace-device N (one "
        "device) or --devices shared (this, without the warning)",
        pass.devices.size(), device_list(pass.devices, s.read.format)));
  for (auto& warning : traces::time_warnings(pass.times, s.read.format))
    warnings.push_back(std::move(warning) +
                       (s.read.format == "mqsim" || s.read.format == "disksim"
                            ? " (per trace: -w trace:FILE,format=...,time_unit=...)"
                            : ""));
  return warnings;
}

// The file of -w trace:FILE[,key=value...], as the trace's settings read it.
std::string trace_file(const std::string& workload) {
  std::string path;
  trace_options_of(workload, TraceOptions{}, path);
  return path;
}

// Traces with the same io.csv name get "-2", "-3", ... in the order given.
static void make_names_unique(std::vector<TraceSettings>& traces) {
  std::set<std::string> used;
  for (auto& trace : traces) {
    std::string name = trace.replay.experiment;
    for (int suffix = 2; used.count(name); ++suffix)
      name = fmt::format("{}-{}", trace.replay.experiment, suffix);
    trace.replay.experiment = name;
    used.insert(name);
  }
}

static bool one_experiment_of_one_run(const std::string& workload, const DeviceConfig& config) {
  // Only counted here: the plan is loaded again, and checked, where it runs.
  const flash::Geometry& g = config.geometry;
  const workloads::Plan plan = workloads::load_plan(
      workload, workloads::DeviceInfo{g.capacity_bytes(), config.sector_size,
                                      std::uint64_t{g.pages_per_block} * g.page_size});
  return plan.experiments.size() == 1 && plan.experiments.front().runs == 1;
}

std::string TraceOptions::given() const {
  std::vector<std::string> names = read.given;
  auto add = [&names](bool given, std::string_view name) {
    if (given) names.emplace_back(name);
  };
  add(!mode.empty(), "--mode");
  add(queue_depth != 0, "--qd");
  add(speed != 0, "--speed");
  add(!layout.empty(), "--layout");
  add(!devices.empty(), "--devices");
  add(placement_oracle, "--placement-oracle");
  return fmt::format("{}", fmt::join(names, ", "));
}

void run_sim_or_replay(SimOptions options, const std::vector<std::string>& workloads,
                       const TraceOptions& trace, std::ostream& out) {
  if (workloads.empty()) {
    // Only the preconditioning, to save it.
    if (options.save_state.empty()) throw make_error("-w: no workload");
    const std::string given = trace.given();
    if (!given.empty()) throw make_error("{}: only for trace workloads (-w trace:FILE)", given);
    if (options.fairness) throw make_error("--fairness: no workload (it compares tenants: -w A -w B)");
    options.workload.clear();
    return run_sim(options, out);
  }
  const bool traces = std::any_of(workloads.begin(), workloads.end(), is_trace_workload);
  options.workload = workloads.front();
  // Runs of several workloads or of tenants go through run_workloads; a
  // config that cannot be read is left to its error there.
  bool tenants = workloads.size() > 1 || options.fairness;
  if (!tenants && !traces) {
    // One plan on a device with queues or namespaces is a tenant if it is one
    // experiment of one run; a plan of several (uFLIP's) runs as before.
    try {
      const DeviceConfig config = load_config(options.config, options.overrides);
      tenants = is_tenant_run(options, workloads, trace, config) &&
                one_experiment_of_one_run(options.workload, config);
    } catch (const Error&) {
    }
  }
  const std::string given = trace.given();
  if (!traces && !given.empty())
    throw make_error("{}: only for trace workloads (-w trace:FILE), not -w '{}'", given,
                     options.workload);
  if (traces || tenants) return run_workloads(options, workloads, trace, out);
  run_sim(options, out);
}

Traces resolve_traces(const std::vector<std::string>& workloads, const TraceOptions& trace,
                      std::uint64_t logical_bytes, std::uint64_t page) {
  auto log = logger("trace");
  Traces t;
  // Standard input is read once: checked before it is.
  const auto reads_stdin = [&](const std::string& workload) {
    std::string path;
    (void)trace_options_of(workload, trace, path);
    return path == "-";
  };
  if (std::count_if(workloads.begin(), workloads.end(), reads_stdin) > 1)
    throw make_error("-w trace:-: only one trace may be '-' (standard input is read once)");
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
      const auto spans = traces::device_spans(pass);
      try {
        settings.placement.device_base = traces::side_by_side_bases(spans, page, side_by_side_span);
      } catch (const Error& error) {
        throw make_error("{}: {}", settings.shown_path, error.what());
      }
    }
    if (settings.read.map != traces::AddressMap::kScale) continue;
    if (settings.devices == DeviceLayout::kSideBySide) {
      settings.placement.trace_span = side_by_side_span;
    } else {
      traces::TraceFile pass(settings.path, settings.read);  // a first, streamed pass
      settings.placement.trace_span = traces::address_span(pass, settings.read.device);
    }
  }
  t.partitions.assign(t.all.size(), Partition{0, logical_bytes});
  if (t.partitioned) {
    const std::uint64_t bytes = logical_bytes / t.all.size() / page * page;
    if (bytes == 0)
      throw make_error("--layout partitioned: {} traces on too small a device", t.all.size());
    for (std::size_t k = 0; k < t.all.size(); ++k) t.partitions[k] = Partition{k * bytes, bytes};
  }
  t.warnings.resize(t.all.size());
  return t;
}

}  // namespace ssdlab::sim
