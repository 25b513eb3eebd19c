// The parts of a run of tenants (tenant_run.h): where each tenant goes
// (queue, namespace), its I/O streams on the host loop, its figures, and
// --fairness's runs alone. Internal to sim/run.
#pragma once

#include <spdlog/logger.h>

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/controller/ssd.h"
#include "sim/engine/plan_process.h"
#include "sim/engine/replay.h"
#include "sim/results/summary.h"
#include "sim/run/plan_run.h"
#include "sim/run/trace_placement.h"
#include "workloads/plan.h"

namespace ssdlab::sim {

struct Tenant {
  std::string workload;              // as given to -w
  std::string name;                  // its io.csv experiment
  std::optional<std::size_t> trace;  // its index in Tenants::traces
  std::optional<workloads::ExperimentSpec> plan;
  std::uint32_t queue = 1;         // 1-based
  std::uint32_t namespace_id = 0;  // 1-based; 0: the whole logical space
  Partition space;                 // its namespace's bytes
  std::uint64_t prefilled = 0;     // pages its reads needed written first
};

struct Tenants {
  std::vector<Tenant> list;  // in the order given
  Traces traces;             // the traces among them, resolved
};

// The logical range of each namespace (one after the other from byte 0), or
// the whole logical space if the config has none. Throws ssdlab::Error if
// they do not fit `logical_bytes`.
std::vector<Partition> namespace_partitions(const DeviceConfig& config,
                                            std::uint64_t logical_bytes);
// `queue` (1-based; 0: not given, the first) checked against the config's;
// an error starts with `where` ("-w 'WORKLOAD'", or a plan's origin).
std::uint32_t place_queue(const std::string& where, std::uint32_t queue,
                          const DeviceConfig& config);
// Namespace `ns` (0: none asked for) on a device without namespaces: an
// error starting with `where`.
void require_namespaces(const std::string& where, std::uint32_t ns, const DeviceConfig& config);
// Refuses a plan's placement_id on a device without ftl.placement, where it
// would do nothing (issue 51, L5), and its ruh_update_every on a device
// without FDP's reclaim unit handles.
void require_placement(const std::string& where, const workloads::ExperimentSpec& spec,
                       const DeviceConfig& config);
// Namespace `ns` (1-based; 0: not given, the first) of `spaces`, checked.
// --placement-oracle's classes and page size on `config` (none without the
// option); throws ssdlab::Error where the device has no placement.
std::optional<OracleSpec> oracle_spec(const TraceSettings& settings, const DeviceConfig& config);
Partition namespace_of(const std::string& where, std::uint32_t ns,
                       const std::vector<Partition>& spaces, const DeviceConfig& config);
// Tenants with the same name get "-2", "-3", ... in the order given.
void make_tenant_names_unique(Tenants& all);

// Every tenant's read ranges written first (functionally, as a replay and a
// plan do), and the I/Os the run will issue.
struct Prefilled {
  std::uint64_t pages = 0, requests = 0;
};
Prefilled prefill_tenants(Ssd& ssd, Tenants& all, const std::shared_ptr<spdlog::logger>& log);

// The tenants' I/O sources as host streams, one group per tenant (of every
// tenant, or of tenant `only`). Stream k of a trace is as a replay makes it.
class TenantStreams {
 public:
  // `ssd`: the device they run on (a zone workload takes its zones).
  TenantStreams(const Tenants& all, const DeviceConfig& config, const Ssd& ssd,
                std::uint64_t seed, std::optional<std::size_t> only = std::nullopt);
  const std::vector<HostStream>& streams() const { return streams_; }
  const std::vector<RunGroup>& groups() const { return groups_; }
  // What trace `t` replayed (its run not filled in) and its placed reader.
  ReplayResult trace_counts(std::size_t t) const { return traces_[t]->counts(); }
  const PlacedTrace& placed(std::size_t t) const { return *placed_[t]; }
  const std::vector<std::unique_ptr<PlacedTrace>>& placed_traces() const { return placed_; }

 private:
  std::vector<std::unique_ptr<PlacedTrace>> placed_;   // by trace index
  std::vector<std::unique_ptr<TraceStreams>> traces_;  // by trace index
  std::vector<std::unique_ptr<PlanProcess>> processes_;
  std::vector<HostStream> streams_;
  std::vector<RunGroup> groups_;
};

// Gives the device each tenant's (flow's) submission queue priority class,
// under weighted arbitration (else one class for all): FLIN's stage 2.
void set_flow_priorities(Ssd& ssd, const Tenants& all, const DeviceConfig& config);

// summary.json's tenants block from the shared run.
std::vector<TenantRecord> tenant_records(const Tenants& all, const std::vector<RunResult>& runs);

// The device's state before the shared run, and its clock.
struct KeptState {
  KeptState(const Ssd& ssd, TimeNs now);
  std::string bytes;
  TimeNs now;
};
// --fairness: each tenant alone from `kept` on a fresh device; fills in each
// record's alone figures and slowdowns; returns the fairness index.
FairnessRecord run_alone(const KeptState& kept, const Tenants& all, const DeviceConfig& config,
                         const SimOptions& options, std::vector<TenantRecord>& records);

// The console table of the tenants (and their slowdowns).
void print_tenant_table(std::ostream& out, const std::vector<TenantRecord>& tenants,
                        const std::optional<FairnessRecord>& fairness);

}  // namespace ssdlab::sim
