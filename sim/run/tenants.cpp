#include "sim/run/tenants.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "common/error.h"
#include "common/state_io.h"
#include "common/units.h"
#include "sim/config/config_host.h"
#include "sim/engine/plan_zones.h"
#include "sim/engine/simulator.h"
#include "sim/report/report.h"
#include "sim/results/contended_window.h"
#include "workloads/generator.h"

namespace ssdlab::sim {

std::vector<Partition> namespace_partitions(const DeviceConfig& config,
                                            std::uint64_t logical_bytes) {
  if (config.namespaces.empty()) return {Partition{0, logical_bytes}};
  std::vector<Partition> spaces;
  std::uint64_t base = 0;
  for (const NamespaceConfig& ns : config.namespaces) {
    spaces.push_back(Partition{base, ns.size});
    base += namespace_span(ns, config.ftl.logical_page_size);
  }
  if (base > logical_bytes)
    throw make_error(
        "{}: host.namespaces: {} namespaces take {} ({} bytes, over-provisioning shares "
        "included), more than the device's logical capacity of {} ({} bytes)",
        config.source, config.namespaces.size(), format_size(base), base,
        format_size(logical_bytes), logical_bytes);
  return spaces;
}

std::uint32_t place_queue(const std::string& where, std::uint32_t queue,
                          const DeviceConfig& config) {
  const std::size_t queues = std::max<std::size_t>(1, config.controller.host_queues.queues.size());
  if (queue > queues)
    throw make_error("{}: queue {}: the device has {} submission queue{} ({})", where, queue,
                     queues, queues == 1 ? "" : "s",
                     config.controller.host_queues.queues.empty()
                         ? "give [[host.queues]] tables for more"
                         : "[[host.queues]] in " + config.source);
  return queue ? queue : 1;
}

void require_namespaces(const std::string& where, std::uint32_t ns, const DeviceConfig& config) {
  if (ns && config.namespaces.empty())
    throw make_error(
        "{}: namespace {}: the device has no namespaces (give [[namespace]] tables in its "
        "config)",
        where, ns);
}

void require_placement(const std::string& where, const workloads::ExperimentSpec& spec,
                       const DeviceConfig& config) {
  const std::uint32_t placement_id = spec.placement_id;
  // A host log with placement heads separates them too (host.log.placement_heads).
  const bool log_heads = config.controller.host_log.on() && config.controller.host_log.placement_heads > 1;
  if (placement_id && !config.ftl.placement.on() && !log_heads)
    throw make_error(
        "{}: placement_id {}: the device has no host-guided placement, so the key would do "
        "nothing (give ftl.placement = \"fdp\" or \"streams\" in its config, or "
        "host.log.placement_heads over a zoned device, or leave the key out)",
        where, placement_id);
  if (spec.ruh_update_every && config.ftl.placement.mode != ftl::PlacementMode::kFdp)
    throw make_error(
        "{}: ruh_update_every {}: a Reclaim Unit Handle Update needs FDP's reclaim unit "
        "handles (give ftl.placement = \"fdp\" in its config, or leave the key out)",
        where, spec.ruh_update_every);
}

std::optional<OracleSpec> oracle_spec(const TraceSettings& settings, const DeviceConfig& config) {
  if (!settings.placement_oracle) return std::nullopt;
  // The classes are the device's placement handles, or the host log's heads.
  const ftl::PlacementConfig& p = config.ftl.placement;
  const HostLogConfig& log = config.controller.host_log;
  if (p.on()) return OracleSpec{p.handles, config.ftl.logical_page_size};
  if (log.on() && log.placement_heads > 1)
    return OracleSpec{log.placement_heads, config.ftl.logical_page_size};
  throw make_error(
      "--placement-oracle: {}: the device has no placement to tag writes for (give "
      "ftl.placement = \"fdp\" or \"streams\" with ftl.fdp_handles, or "
      "host.log.placement_heads over a zoned device: one class per handle or head)",
      config.source);
}

Partition namespace_of(const std::string& where, std::uint32_t ns,
                       const std::vector<Partition>& spaces, const DeviceConfig& config) {
  if (ns == 0) return spaces.front();
  require_namespaces(where, ns, config);
  if (ns > spaces.size())
    throw make_error("{}: namespace {}: the device has {} namespace{} ([[namespace]] in {})", where,
                     ns, spaces.size(), spaces.size() == 1 ? "" : "s", config.source);
  return spaces[ns - 1];
}

void make_tenant_names_unique(Tenants& all) {
  std::set<std::string> used;
  for (Tenant& tenant : all.list) {
    std::string name = tenant.name;
    for (int suffix = 2; used.count(name); ++suffix)
      name = fmt::format("{}-{}", tenant.name, suffix);
    tenant.name = name;
    used.insert(name);
    if (tenant.trace) all.traces.all[*tenant.trace].replay.experiment = name;
    if (tenant.plan) tenant.plan->name = name;
  }
}

Prefilled prefill_tenants(Ssd& ssd, Tenants& all, const std::shared_ptr<spdlog::logger>& log) {
  Prefilled total;
  for (Tenant& tenant : all.list) {
    if (tenant.trace) {
      const std::size_t t = *tenant.trace;
      const FirstPass pass = prefill_read_ranges(ssd, all.traces.all[t], all.traces.partitions[t]);
      if (pass.prefilled_pages)
        log->info("{}: prefilled {} never-written logical pages that the trace reads",
                  all.traces.all[t].shown_path, pass.prefilled_pages);
      all.traces.warnings[t] = trace_warnings(all.traces.all[t], pass);
      tenant.prefilled = pass.prefilled_pages;
      total.requests += pass.requests;
    } else {
      const workloads::ExperimentSpec& spec = *tenant.plan;
      if (workloads::reads(spec)) {
        const std::uint64_t size =
            spec.target_size ? spec.target_size : tenant.space.bytes - spec.target_offset;
        tenant.prefilled = ssd.prefill(tenant.space.base + spec.target_offset, size);
        if (tenant.prefilled)
          log->info("{}: prefilled {} never-written logical pages of the read target", spec.name,
                    tenant.prefilled);
      }
      total.requests += spec.count * spec.processes;
    }
    total.pages += tenant.prefilled;
  }
  return total;
}

TenantStreams::TenantStreams(const Tenants& all, const DeviceConfig& config, const Ssd& ssd,
                             std::uint64_t seed, std::optional<std::size_t> only) {
  const Traces& t = all.traces;
  placed_.resize(t.all.size());
  traces_.resize(t.all.size());
  // One replay mode and queue depth for every trace, as a replay has.
  const ReplaySettings replay = t.all.empty() ? ReplaySettings{} : t.all.front().replay;
  for (std::size_t k = 0; k < all.list.size(); ++k) {
    if (only && k != *only) continue;
    const Tenant& tenant = all.list[k];
    const auto group = static_cast<std::uint32_t>(groups_.size());
    const auto queue = static_cast<std::uint16_t>(tenant.queue - 1);
    const auto flow = static_cast<std::uint16_t>(k);
    if (tenant.trace) {
      const std::size_t i = *tenant.trace;
      placed_[i] =
          std::make_unique<PlacedTrace>(t.all[i], t.partitions[i].base, t.partitions[i].bytes,
                                        config.sector_size, oracle_spec(t.all[i], config));
      ReplaySettings each = replay;
      each.speed = t.all[i].replay.speed;
      // Dependent: the first think times count from the recording's start,
      // unless --start skipped its beginning.
      const traces::ReadOptions& read = t.all[i].read;
      const bool from_start = read.start_requests == 0 && !read.start_ns;
      traces_[i] = std::make_unique<TraceStreams>(
          *placed_[i], each, from_start ? std::optional<TimeNs>(0) : std::nullopt,
          HostStream{nullptr, group, 0, 0, queue, flow}, streams_);
      groups_.push_back(RunGroup{tenant.name, 0, 0, 0, false});
      continue;
    }
    // A zone workload gets the device's zones, as a single run's does (issue
    // 51, M2: a tenant lost them).
    const workloads::ExperimentSpec spec = with_device_zones(*tenant.plan, ssd);
    HostStream place;
    place.group = group;
    place.queue = queue;
    place.flow = flow;
    add_plan_streams(spec, 0, seed_of(spec, seed), tenant.space.base, tenant.space.bytes, place,
                     processes_, streams_);
    groups_.push_back(
        RunGroup{tenant.name, 0, spec.count * spec.processes, spec.io_ignore, spec.io_ignore_auto});
  }
}

void set_flow_priorities(Ssd& ssd, const Tenants& all, const DeviceConfig& config) {
  const HostQueuesConfig& host = config.controller.host_queues;
  std::vector<std::uint8_t> flow_class(all.list.size(),
                                       static_cast<std::uint8_t>(QueuePriority::kMedium));
  if (host.arbitration == Arbitration::kWeighted)
    for (std::size_t k = 0; k < all.list.size(); ++k)
      if (const std::size_t q = all.list[k].queue - 1; q < host.queues.size())
        flow_class[k] = static_cast<std::uint8_t>(host.queues[q].priority);
  ssd.core().set_flow_priorities(std::move(flow_class),
                                 {host.weight_high, host.weight_medium, host.weight_low});
}

std::vector<TenantRecord> tenant_records(const Tenants& all, const std::vector<RunResult>& runs) {
  std::vector<TenantRecord> records;
  for (std::size_t k = 0; k < all.list.size(); ++k) {
    const Tenant& tenant = all.list[k];
    const RunRecord run = run_record(runs[k]);
    TenantRecord& r = records.emplace_back();
    r.name = tenant.name;
    r.queue = tenant.queue;
    r.namespace_id = tenant.namespace_id;
    r.namespace_base = tenant.space.base;
    r.namespace_bytes = tenant.space.bytes;
    r.ios = run.measured();
    r.iops = run.iops;
    r.mean_us = run.mean_us;
    r.p99_us = run.p99_us;
    r.max_us = run.max_us;
    r.trims = run.trims;
    r.refused = run.refused;
    r.zone_management = run.zone_management;
    r.pages_moved_by_writes = runs[k].pages_moved_by_writes;
  }
  if (const auto window = contended_window(runs))
    for (std::size_t k = 0; k < records.size(); ++k) {
      const RunRecord in = RunRecord::of(0, window_stats(runs[k].io_spans, *window));
      ContendedRecord& c = records[k].contended.emplace();
      c.from_us = static_cast<double>(window->from) / 1000;
      c.to_us = static_cast<double>(window->to) / 1000;
      c.ios = in.count;
      c.iops = in.iops;
      c.mean_us = in.mean_us;
      c.p99_us = in.p99_us;
    }
  return records;
}

KeptState::KeptState(const Ssd& ssd, TimeNs at) : now(at) {
  std::ostringstream out;
  StateWriter writer(&out);
  ssd.save_state(writer);
  bytes = std::move(out).str();
}

namespace {

// A slowdown: shared over alone (1 if either is 0: nothing to compare).
double slowdown(double shared, double alone) {
  return shared > 0 && alone > 0 ? shared / alone : 1.0;
}

// FLIN's fairness index of one slowdown of every tenant: the smallest over
// the largest.
double fairness_index(const std::vector<double>& slowdowns) {
  const auto [low, high] = std::minmax_element(slowdowns.begin(), slowdowns.end());
  return *high > 0 ? *low / *high : 1.0;
}

}  // namespace

FairnessRecord run_alone(const KeptState& kept, const Tenants& all, const DeviceConfig& config,
                         const SimOptions& options, std::vector<TenantRecord>& records) {
  for (std::size_t k = 0; k < all.list.size(); ++k) {
    Ssd alone(config, {.verify = options.verify});
    std::istringstream in(kept.bytes);
    StateReader reader(in);
    alone.load_state(reader);
    Simulator simulator(alone, nullptr);
    simulator.resume_at(kept.now);
    simulator.set_exact_samples(options.exact_samples);
    if (!options.percentiles.empty()) simulator.set_percentiles(options.percentiles);
    const TenantStreams streams(all, config, alone, options.seed, k);
    const RunRecord run = run_record(simulator.run(streams.streams(), streams.groups()).front());
    TenantRecord& r = records[k];
    r.alone_mean_us = run.mean_us;
    r.alone_p99_us = run.p99_us;
    r.slowdown_mean = slowdown(r.mean_us, run.mean_us);
    r.slowdown_p99 = slowdown(r.p99_us, run.p99_us);
    if (r.contended) {
      r.contended->slowdown_mean = slowdown(r.contended->mean_us, run.mean_us);
      r.contended->slowdown_p99 = slowdown(r.contended->p99_us, run.p99_us);
    }
  }
  // Each index over the tenants' slowdowns of one kind (`of` the record).
  auto index = [&records](auto of) {
    std::vector<double> slowdowns;
    for (const TenantRecord& r : records) slowdowns.push_back(of(r));
    return fairness_index(slowdowns);
  };
  FairnessRecord fairness;
  fairness.index_mean = index([](const TenantRecord& r) { return *r.slowdown_mean; });
  fairness.index_p99 = index([](const TenantRecord& r) { return *r.slowdown_p99; });
  // (The window is every tenant's or none's: tenant_records().)
  if (!records.empty() && records.front().contended) {
    fairness.contended_index_mean =
        index([](const TenantRecord& r) { return r.contended->slowdown_mean.value_or(1.0); });
    fairness.contended_index_p99 =
        index([](const TenantRecord& r) { return r.contended->slowdown_p99.value_or(1.0); });
  }
  fairness.dispatch_order = flash::dispatch_order_name(config.controller.dispatch_order);
  fairness.arbitration = arbitration_name(config.controller.host_queues.arbitration);
  return fairness;
}

namespace {

// The tenants' figures while all of them ran (TenantRecord::contended).
void print_contended_table(std::ostream& out, const std::vector<TenantRecord>& tenants) {
  if (tenants.empty() || !tenants.front().contended) return;
  const ContendedRecord& window = *tenants.front().contended;
  fmt::print(out, "  while every tenant ran ({:.1f} to {:.1f} ms of the run):\n",
             window.from_us / 1000, window.to_us / 1000);
  const bool slowdowns = window.slowdown_mean.has_value();
  fmt::print(out, "  {:<28} {:>9} {:>10} {:>10} {:>10}{}\n", "tenant", "I/Os", "IOPS", "mean us",
             "p99 us", slowdowns ? "  slowdown mean    p99" : "");
  for (const TenantRecord& t : tenants) {
    const ContendedRecord& c = *t.contended;
    fmt::print(out, "  {:<28} {:>9} {:>10.0f} {:>10.1f} {:>10.1f}", t.name, c.ios, c.iops,
               c.mean_us, c.p99_us);
    if (c.slowdown_mean) fmt::print(out, "  {:>13.2f} {:>6.2f}", *c.slowdown_mean, *c.slowdown_p99);
    fmt::print(out, "\n");
  }
}

}  // namespace

void print_tenant_table(std::ostream& out, const std::vector<TenantRecord>& tenants,
                        const std::optional<FairnessRecord>& fairness) {
  fmt::print(out, "  {:<28} {:>5} {:>9} {:>10} {:>10} {:>10} {:>12}{}\n", "tenant", "queue",
             "namespace", "IOPS", "mean us", "p99 us", "moved pages",
             fairness ? "  slowdown mean    p99" : "");
  for (const TenantRecord& t : tenants) {
    fmt::print(out, "  {:<28} {:>5} {:>9} {:>10.0f} {:>10.1f} {:>10.1f} {:>12}", t.name, t.queue,
               t.namespace_id ? std::to_string(t.namespace_id) : std::string("-"), t.iops,
               t.mean_us, t.p99_us, t.pages_moved_by_writes);
    if (t.slowdown_mean) fmt::print(out, "  {:>13.2f} {:>6.2f}", *t.slowdown_mean, *t.slowdown_p99);
    // Not in its figures (RunRecord): said beside them.
    if (t.trims) fmt::print(out, "  ({} trims apart)", t.trims);
    if (t.refused) fmt::print(out, "  ({} refused apart)", t.refused);
    if (t.zone_management) fmt::print(out, "  ({} zone management apart)", t.zone_management);
    fmt::print(out, "\n");
  }
  print_contended_table(out, tenants);
  if (!fairness) return;
  fmt::print(out, "  fairness index (min/max slowdown; dispatch {}, arbitration {}):\n",
             fairness->dispatch_order, fairness->arbitration);
  if (fairness->contended_index_mean)
    fmt::print(out, "    while every tenant ran (FLIN's): mean {:.3f}, p99 {:.3f}\n",
               *fairness->contended_index_mean, *fairness->contended_index_p99);
  else
    fmt::print(out, "    while every tenant ran (FLIN's): none, the tenants never all ran at once\n");
  fmt::print(out, "    over each tenant's whole run:    mean {:.3f}, p99 {:.3f}\n",
             fairness->index_mean, fairness->index_p99);
}

}  // namespace ssdlab::sim
