#include "sim/run/tenant_run.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <memory>
#include <ostream>
#include <set>

#include "common/error.h"
#include "common/log.h"
#include "common/units.h"
#include "sim/config/config_host.h"
#include "sim/report/report.h"
#include "sim/run/run_session.h"
#include "sim/run/tenants.h"
#include "sim/run/trace_placement.h"
#include "workloads/plan.h"

namespace ssdlab::sim {

bool is_tenant_run(const SimOptions& options, const std::vector<std::string>& workloads,
                   const TraceOptions& trace, const DeviceConfig& config) {
  if (options.fairness || !config.controller.host_queues.queues.empty() ||
      !config.namespaces.empty())
    return true;
  const auto plan = [](const std::string& w) { return !is_trace_workload(w); };
  if (workloads.size() > 1 && std::any_of(workloads.begin(), workloads.end(), plan)) return true;
  for (const std::string& workload : workloads) {
    if (!is_trace_workload(workload)) continue;
    std::string path;
    const TraceOptions keys = trace_options_of(workload, trace, path);
    if (keys.queue || keys.namespace_id) return true;
  }
  return false;
}

namespace {

// The tenants of `workloads`: traces resolved (as a replay resolves them),
// plans loaded within their namespace; queues and namespaces checked.
Tenants resolve_tenants(const std::vector<std::string>& workloads, const TraceOptions& trace,
                        const DeviceConfig& config, std::uint64_t logical_bytes, std::uint32_t page,
                        bool tenant_run) {
  Tenants all;
  std::vector<std::string> traces;
  for (const std::string& workload : workloads)
    if (is_trace_workload(workload)) traces.push_back(workload);
  if (!traces.empty()) all.traces = resolve_traces(traces, trace, logical_bytes, page);
  const std::vector<Partition> spaces = namespace_partitions(config, logical_bytes);
  std::size_t next_trace = 0;
  for (const std::string& workload : workloads) {
    Tenant& tenant = all.list.emplace_back();
    tenant.workload = workload;
    std::uint32_t queue = 0, ns = 0;
    if (is_trace_workload(workload)) {
      tenant.trace = next_trace++;
      const TraceSettings& s = all.traces.all[*tenant.trace];
      queue = s.queue;
      ns = s.namespace_id;
      tenant.name = s.replay.experiment;
    } else {
      // A plan's size defaults (target_size) are its namespace's: load it
      // once to read its keys, again within its namespace.
      const workloads::DeviceInfo device{
          logical_bytes, config.sector_size,
          std::uint64_t{config.geometry.pages_per_block} * config.geometry.page_size};
      const workloads::Plan first = workloads::load_plan(workload, device);
      if (first.experiments.size() != 1 || first.experiments[0].runs != 1)
        throw make_error(
            "-w '{}': a plan run beside other workloads (a tenant) is one experiment of one run "
            "(it has {} experiment{}{})",
            workload, first.experiments.size(), first.experiments.size() == 1 ? "" : "s",
            first.experiments.size() == 1 ? fmt::format(" of {} runs", first.experiments[0].runs)
                                          : "");
      queue = first.experiments[0].queue;
      ns = first.experiments[0].namespace_id;
    }
    const std::string where = fmt::format("-w '{}'", workload);
    tenant.queue = place_queue(where, queue, config);
    tenant.namespace_id = ns ? ns : (config.namespaces.empty() ? 0 : 1);
    tenant.space = namespace_of(where, ns, spaces, config);
    if (tenant.trace) oracle_spec(all.traces.all[*tenant.trace], config);  // (checked now)
    if (!tenant.trace) {
      const workloads::DeviceInfo device{
          tenant.space.bytes, config.sector_size,
          std::uint64_t{config.geometry.pages_per_block} * config.geometry.page_size};
      tenant.plan = workloads::load_plan(workload, device).experiments.front();
      workloads::validate_against_device(*tenant.plan, tenant.space.bytes, config.sector_size);
      require_placement(where, *tenant.plan, config);
      tenant.name = tenant.plan->name;
    } else if (tenant_run && (ns || !config.namespaces.empty())) {
      if (all.traces.partitioned)
        throw make_error(
            "--layout partitioned: the device has namespaces ([[namespace]]); "
            "give each trace its namespace= instead");
      all.traces.partitions[*tenant.trace] = tenant.space;
    }
  }
  make_tenant_names_unique(all);
  return all;
}

// The experiment of tenant `k` in summary.json.
ExperimentRecord tenant_experiment(const Tenants& all, std::size_t k, const TenantStreams& streams,
                                   const RunResult& run, std::uint64_t seed) {
  const Tenant& tenant = all.list[k];
  if (tenant.trace) {
    ReplayResult result = streams.trace_counts(*tenant.trace);
    result.run = run;
    return trace_experiment(all.traces, *tenant.trace, streams.placed(*tenant.trace), result);
  }
  ExperimentRecord experiment = experiment_record(*tenant.plan, tenant.space.bytes, seed);
  RunRecord& entry = experiment.runs.emplace_back(run_record(run));
  if (tenant.plan->io_ignore_auto) entry.startup_ios = run.startup;
  if (tenant.prefilled) experiment.prefilled_pages = tenant.prefilled;
  return experiment;
}

void print_tenants(std::ostream& out, const Tenants& all, const SummaryRecord& summary,
                   const TenantStreams& streams, const std::vector<RunResult>& runs,
                   const DeviceConfig& config, std::uint64_t logical_bytes) {
  std::vector<ReplayResult> trace_results;
  std::vector<std::unique_ptr<PlacedTrace>> none;
  if (!all.traces.all.empty()) {
    for (std::size_t k = 0; k < all.list.size(); ++k)
      if (all.list[k].trace) {
        trace_results.push_back(streams.trace_counts(*all.list[k].trace));
        trace_results.back().run = runs[k];
      }
    print_traces(out, all.traces, streams.placed_traces(), trace_results, config, logical_bytes);
  }
  bool header = all.traces.all.empty();
  for (std::size_t k = 0; k < all.list.size(); ++k) {
    if (!all.list[k].plan) continue;
    if (header) {
      fmt::print(out, "{} workloads on {} ({} logical)\n", all.list.size(), config.source,
                 format_size(logical_bytes));
      print_run_header(out);
      header = false;
    }
    print_run(out, all.list[k].name, runs[k]);
  }
  if (summary.tenants) print_tenant_table(out, *summary.tenants, summary.fairness);
}

}  // namespace

void run_workloads(const SimOptions& options, const std::vector<std::string>& workloads,
                   const TraceOptions& trace, std::ostream& out) {
  auto log = logger("trace");
  SimOptions with_traces = options;
  for (const auto& workload : workloads)
    if (is_trace_workload(workload)) with_traces.trace_files.push_back(trace_file(workload));
  RunSession session(with_traces, out);
  Ssd& ssd = session.ssd();
  const DeviceConfig& config = session.config();
  const bool tenant_run = is_tenant_run(options, workloads, trace, config);
  Tenants all = resolve_tenants(workloads, trace, config, ssd.logical_bytes(),
                                ssd.ftl().logical_page_size(), tenant_run);
  if (!session.loaded_state())
    session.precondition(options.precondition.empty()
                             ? workloads::PreconditionSpec{}
                             : workloads::parse_precondition(options.precondition),
                         "preconditioned");
  const Prefilled prefilled = prefill_tenants(ssd, all, log);

  TenantStreams streams(all, session.config(), ssd, options.seed);
  set_flow_priorities(ssd, all, session.config());
  Simulator& simulator = session.start(true, prefilled.requests);
  std::optional<KeptState> kept;  // before the shared run: each tenant alone starts here
  if (options.fairness) kept.emplace(ssd, simulator.now());
  simulator.attribute_cleaning(tenant_run);
  simulator.keep_io_spans(tenant_run && all.list.size() > 1);  // the contended window
  const std::vector<RunResult> runs = simulator.run(streams.streams(), streams.groups());
  if (options.verify) ssd.ftl().check_invariants();

  SummaryRecord summary;
  std::uint64_t ios = 0;
  for (std::size_t k = 0; k < all.list.size(); ++k) {
    summary.experiments.push_back(tenant_experiment(all, k, streams, runs[k], options.seed));
    ios += runs[k].stats.count;
  }
  summary.prefilled_pages = prefilled.pages;
  if (all.traces.all.size() > 1 && all.list.size() == all.traces.all.size())
    summary.layout = all.traces.partitioned ? "partitioned" : "shared";
  if (tenant_run) summary.tenants = tenant_records(all, runs);
  if (kept) summary.fairness = run_alone(*kept, all, config, options, *summary.tenants);
  const bool end_of_life = !runs.empty() && runs.front().end_of_life;
  session.finish(summary, fmt::format("{}", fmt::join(workloads, " ")), end_of_life);
  print_tenants(out, all, summary, streams, runs, session.config(), ssd.logical_bytes());
  if (!runs.empty()) print_controller(out, runs.front().device);  // the tenants share the device
  session.print_closing(summary, ios);
}

}  // namespace ssdlab::sim
