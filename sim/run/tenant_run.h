// Several workloads at once on one device: tenants. Each -w workload (a
// trace, or a plan of one experiment of one run) is a tenant: one io.csv
// experiment, bound to an NVMe submission queue (queue=N, 1-based; default
// 1) and to a namespace (namespace=N, 1-based; the device's [[namespace]]
// tables; default 1 if there are any, else the whole logical space). Its
// addresses are offsets inside its namespace. The tenants run together on
// the one host loop (sim/engine/simulator.h): their streams share the host
// queues, the controller and the flash.
//
// A run is a run of tenants, with summary.json's `tenants` block (each
// tenant's figures and the pages cleaning moved while its writes were
// started), when the device has submission queues or namespaces, a workload
// names its queue or namespace, a plan runs beside other workloads, or
// --fairness asks for each tenant alone too (sim_or_replay sends a single
// plan here only if it is one experiment of one run). Other runs of several
// traces write what they wrote before.
//
// --fairness (Tavakkol et al., FLIN, ISCA 2018, §3): before the shared run,
// the device's state is kept; each tenant then runs alone from it (a fresh
// device, the same state, its own workload only, nothing logged); each
// tenant's slowdown is its shared response time over its alone one (mean
// and 99th percentile), and the fairness index is the smallest slowdown
// over the largest.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "sim/config/config.h"
#include "sim/run/plan_run.h"
#include "sim/run/trace_run.h"

namespace ssdlab::sim {

// Whether `workloads` on `config` make a run of tenants (see above).
bool is_tenant_run(const SimOptions& options, const std::vector<std::string>& workloads,
                   const TraceOptions& trace, const DeviceConfig& config);

// Runs `workloads` (traces and plans) together, writing OUTDIR/io.csv and
// OUTDIR/summary.json: one experiment per workload, in the order given.
// Throws ssdlab::Error on bad input.
void run_workloads(const SimOptions& options, const std::vector<std::string>& workloads,
                   const TraceOptions& trace, std::ostream& out);

}  // namespace ssdlab::sim
