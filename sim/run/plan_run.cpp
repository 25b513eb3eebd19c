#include "sim/run/plan_run.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>

#include "common/error.h"
#include "common/units.h"
#include "sim/config/capacity.h"
#include "sim/config/config.h"
#include "common/log.h"
#include "sim/results/output.h"
#include "sim/state/precondition.h"
#include "sim/report/report.h"
#include "sim/run/run_session.h"
#include "sim/run/tenants.h"
#include "sim/engine/simulator.h"
#include "sim/controller/ssd.h"
#include "sim/report/uflip_report.h"
#include "workloads/generator.h"
#include "workloads/plan.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

namespace {

// The state a plan's runs start from: --precondition wins over the state the
// plan asks for (uFLIP plans: "uflip").
workloads::PreconditionSpec initial_state(const SimOptions& options, const workloads::Plan& plan) {
  if (!options.precondition.empty()) return workloads::parse_precondition(options.precondition);
  if (plan.state.empty()) return {};
  try {
    return workloads::parse_precondition(plan.state);
  } catch (const Error&) {
    throw make_error("{}: state '{}': expected seq[:N], random[:N], uflip[:N] or none", plan.source,
                     plan.state);
  }
}

void print_plan_header(std::ostream& out, bool benchmarks) {
  if (benchmarks)
    print_experiment_header(out);
  else
    print_run_header(out);
}

void print_lifetime(std::ostream& out, const LifetimeRecord& lifetime) {
  if (!lifetime.stopped) return;
  fmt::print(out, "  {}: {} after {} host pages written (experiment {}, run {})\n",
             lifetime.end_of_life ? "DEVICE END OF LIFE" : "lifetime run stopped",
             lifetime.reason.value_or(""), lifetime.host_pages_written,
             lifetime.experiment.value_or(""), lifetime.run.value_or(0));
}

// Runs every run of `spec` on the session's host loop; adds them to
// `experiment` and their device counters to `in_runs`, and returns the I/Os
// they completed. Records an early stop in `lifetime`.
std::uint64_t run_experiment(RunSession& session, const SimOptions& options,
                             std::optional<DeviceCounters>& in_runs,
                             const workloads::ExperimentSpec& spec, bool benchmarks,
                             ExperimentRecord& experiment, LifetimeRecord& lifetime,
                             std::ostream& out) {
  std::uint64_t ios = 0;
  for (std::uint32_t run = 0; run < spec.runs; ++run) {
    const RunResult result = session.simulator().run(spec, run, seed_of(spec, options.seed));
    if (in_runs)
      *in_runs += result.device;
    else
      in_runs = result.device;
    RunRecord& entry = experiment.runs.emplace_back(run_record(result));
    if (spec.io_ignore_auto) entry.startup_ios = result.startup;
    session.clear_progress();
    if (!benchmarks) print_run(out, spec.name, result);
    ios += result.stats.count;
    if (!result.stopped.empty()) {
      lifetime.stopped = true;
      lifetime.end_of_life = result.end_of_life;
      lifetime.reason = result.stopped;
      lifetime.experiment = spec.name;
      lifetime.run = run;
      lifetime.ios_completed = result.stats.count;
      break;
    }
    if (options.verify) session.ssd().ftl().check_invariants();
  }
  return ios;
}

// A plan run alone takes its submission queue (queue=N) from the config's;
// namespaces are for tenants (tenant_run.h: one experiment of one run).
void check_queue_and_namespace(const workloads::ExperimentSpec& spec, const DeviceConfig& config) {
  require_namespaces(spec.origin, spec.namespace_id, config);
  require_placement(spec.origin, spec, config);
  if (spec.namespace_id)
    throw make_error("{}: namespace {}: only a tenant runs in a namespace (a plan of one "
                     "experiment of one run, or several workloads at once); this plan runs on "
                     "the whole device",
                     spec.origin, spec.namespace_id);
  place_queue(spec.origin, spec.queue, config);
}

}  // namespace

std::string named(const std::string& option, const std::string& value) {
  return option.ends_with('=') ? option + value : option + " " + value;
}

void run_sim(const SimOptions& options, std::ostream& out) {
  auto log = logger("sim");
  RunSession session(options, out);
  Ssd& ssd = session.ssd();
  const DeviceConfig& config = session.config();
  const workloads::DeviceInfo device{
      ssd.logical_bytes(), config.sector_size,
      std::uint64_t{config.geometry.pages_per_block} * config.geometry.page_size};
  // No workload: only the preconditioning, for --save-state.
  const workloads::Plan plan = options.workload.empty()
                                   ? workloads::Plan{"none", {}, ""}
                                   : workloads::load_plan(options.workload, device);
  for (const auto& spec : plan.experiments) {
    workloads::validate_against_device(spec, ssd.logical_bytes(), config.sector_size);
    check_queue_and_namespace(spec, config);
  }
  // A loaded state replaces the first preconditioning (later state resets of
  // a uFLIP plan still happen, seeded as they would have been).
  const workloads::PreconditionSpec preconditioning = initial_state(options, plan);
  if (!session.loaded_state()) session.precondition(preconditioning, "preconditioned");

  const bool experiments_given = !plan.experiments.empty();  // else: preconditioning only
  std::uint64_t planned_ios = 0;
  for (const auto& spec : plan.experiments) planned_ios += spec.count * spec.processes * spec.runs;
  session.start(experiments_given, planned_ios);
  SummaryRecord summary;
  LifetimeRecord& lifetime = summary.lifetime.emplace();
  lifetime.until_expired = options.until_expired;
  std::uint64_t prefilled = 0, total_ios = 0;
  std::optional<DeviceCounters> in_runs;  // the counters of every run, added up
  if (experiments_given)
    fmt::print(out, "{} on {} ({} logical)\n", plan.source, config.source,
               format_size(ssd.logical_bytes()));
  const bool benchmarks = std::any_of(plan.experiments.begin(), plan.experiments.end(),
                                      [](const auto& spec) { return !spec.benchmark.empty(); });
  if (experiments_given) print_plan_header(out, benchmarks);
  for (const auto& spec : plan.experiments) {
    ExperimentRecord experiment = experiment_record(spec, ssd.logical_bytes(), options.seed);
    if (spec.reset_state_before)  // uFLIP §4.2: the sequential-write target spaces are used up
      experiment.state_reset.emplace(session.precondition(preconditioning, "state enforced again"));
    // Reading never-written data would measure nothing: fill the read target
    // first, functionally (no simulated time passes), and say so.
    if (workloads::reads(spec)) {
      const std::uint64_t pages = ssd.prefill(spec.target_offset, experiment.target_size);
      if (pages)
        log->info("{}: prefilled {} never-written logical pages of the read target", spec.name,
                  pages);
      experiment.prefilled_pages = pages;
      prefilled += pages;
    }
    total_ios += run_experiment(session, options, in_runs, spec, benchmarks, experiment, lifetime,
                                out);
    session.clear_progress();
    if (benchmarks) print_experiment(out, experiment);
    summary.experiments.push_back(std::move(experiment));
    if (lifetime.stopped) break;  // later experiments would find it worn out
  }
  summary.prefilled_pages = prefilled;
  summary.benchmarks = benchmark_tables(summary.experiments, config.ftl.logical_page_size);
  lifetime.host_pages_written = ssd.ftl().stats().host_pages_written;
  lifetime.simulated_us = session.simulator().now() / 1000.0;
  session.finish(summary, plan.source, lifetime.end_of_life);

  print_benchmark_tables(out, *summary.benchmarks);
  print_wear(out, *summary.wear);
  if (in_runs) print_controller(out, *in_runs);
  print_lifetime(out, lifetime);
  session.print_closing(summary, total_ios);
}

void run_config(const std::string& path, const std::vector<std::string>& overrides,
                std::ostream& out) {
  const DeviceConfig config = load_config(path, overrides);
  const auto ftl = ftl::make_ftl({config.geometry, config.ftl, 0});
  out << describe(config, spare_capacity(config, *ftl));
}

}  // namespace ssdlab::sim
