// `ssdlab sim`: a workload (plan, inline experiment or traces) against a
// device model.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/error.h"
#include "sim/cli/command.h"
#include "sim/cli/replay_cli.h"
#include "sim/cli/teaching_cli.h"
#include "sim/cli/validators.h"
#include "sim/results/output.h"
#include "sim/run/plan_run.h"
#include "sim/run/trace_run.h"
#include "sim/run/trace_settings.h"

namespace ssdlab::cli {

namespace {

// The options that shape a run rather than name its inputs: invariant checks,
// lifetime, power cuts, progress, percentiles. Returns --power-cut-at.
// io.csv and the files beside it that follow it row by row.
void add_per_io_options(CLI::App* command, sim::SimOptions& sim) {
  CLI::Option* no_io_log =
      command->add_flag("!--no-io-log", sim.io_log, "Do not write io.csv (summary.json only)");
  command
      ->add_flag("--io-detail", sim.io_detail,
                 "Also write io_detail.csv: where each I/O's response time went (host queue, "
                 "link, array, bus, behind other tenants, cleaning, folding) and the page types "
                 "it touched")
      ->excludes(no_io_log);
  command
      ->add_option("--fio-lat-log", sim.fio_lat_log,
                   "Also write io.csv as fio latency logs PREFIX-EXPERIMENT-runR_lat.P.log")
      ->excludes(no_io_log);
}

CLI::Option* add_run_options(CLI::App* command, sim::SimOptions& sim, std::string& percentiles) {
  command
      ->add_option("--check-every", sim.check_every,
                   "With --verify: check the FTL's invariants every N requests (0: only "
                   "after each run)")
      ->capture_default_str();
  command
      ->add_option("--until-expired", sim.until_expired,
                   "Lifetime run: stop once N flash blocks have worn out (reached "
                   "geometry.pe_cycles); the experiment's count is the write budget")
      ->check(any_unsigned());
  CLI::Option* power_cuts = command->add_option(
      "--power-cut-at", sim.power_cuts,
      "Cut the power and recover (repeatable): during I/O N (0-based), at a simulated time "
      "(1.5s, 250ms, 300us, 1000ns), or random:K (K random I/Os, seeded)");
  CLI::Option* fairness = command->add_flag(
      "--fairness", sim.fairness,
      "With several workloads (tenants): run each alone on the same device and state too; "
      "summary.json gets each one's slowdown and the fairness index (docs: tenants)");
  fairness->excludes(power_cuts);
  command->add_flag("-q,--quiet", sim.quiet,
                    "No progress line on the terminal (there is none when stderr is not one)");
  command->add_option("--percentiles", percentiles,
                      "Response-time percentiles of each run in summary.json (default "
                      "50,90,99,99.9,99.99; p50 and p99 always)");
  command
      ->add_option("--exact-samples", sim.exact_samples,
                   "Keep each run's response times (8 bytes per I/O) for exact percentiles up "
                   "to N I/Os; beyond, a histogram of bounded memory, percentiles within "
                   "0.2% (summary.json: percentile_method)")
      ->capture_default_str();
  return power_cuts;
}

// How a sim command line that parsed can still not make sense.
void check_usage(const std::vector<std::string>& workloads, const CLI::Option* workload,
                 const CLI::Option* save_state, const CLI::Option* load_state,
                 const CLI::Option* power_cuts) {
  // -w '' would otherwise run nothing and exit 0.
  if (workload->count() > 0 &&
      (workloads.empty() || std::any_of(workloads.begin(), workloads.end(),
                                        [](const std::string& w) { return w.empty(); })))
    throw Error("-w: empty workload (give a plan file, an inline experiment such as "
                "'RW:count=1000', or trace:FILE)");
  if (workload->count() == 0 && save_state->count() == 0)
    throw UsageError("--workload is required (or --save-state FILE alone: precondition and save)");
  if (power_cuts->count() > 0 && (save_state->count() > 0 || load_state->count() > 0))
    // A checkpoint holds no power-cut state (OOB sequence numbers, the
    // recorder's data versions), so a split run could not check its cuts.
    throw UsageError(
        "--power-cut-at cannot be combined with --save-state or --load-state: a checkpoint does "
        "not hold the power-cut state (OOB sequence numbers, data versions)");
}

// --age pe=N,retention=T (T: a number with s, h, d or y): the [errors] age
// keys, added to the --set overrides (docs/errors.md, "Aged drives").
void add_age_overrides(const std::string& text, std::vector<std::string>& out) {
  if (text.empty()) return;
  const auto bad = [&](const std::string& why) {
    return UsageError(fmt::format("--age '{}': {} (expected pe=N,retention=T with T such as 90d, "
                                  "12h, 3600s or 2y; either may be left out)",
                                  text, why));
  };
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
    at = comma + 1;
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos) throw bad(fmt::format("'{}' is not key=value", item));
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    char* end = nullptr;
    const double number = std::strtod(value.c_str(), &end);
    const std::string unit(end ? end : "");
    if (value.empty() || end == value.c_str() || !std::isfinite(number) || number < 0)
      throw bad(fmt::format("'{}' is not a number of 0 or more", value));
    if (key == "pe") {
      if (!unit.empty()) throw bad("pe takes a number of cycles, without a unit");
      out.push_back(fmt::format("errors.age_pe_cycles={}", value));
    } else if (key == "retention") {
      static const std::map<std::string, double> kDays = {
          {"s", 1.0 / 86400}, {"h", 1.0 / 24}, {"d", 1.0}, {"y", 365.0}};
      const auto unit_days = kDays.find(unit);
      if (unit_days == kDays.end()) throw bad(fmt::format("'{}' has no unit s, h, d or y", value));
      out.push_back(fmt::format("errors.age_retention_days={:.17g}", number * unit_days->second));
    } else {
      throw bad(fmt::format("unknown key '{}'", key));
    }
  }
}

constexpr const char* kSimExamples = R"(Examples:
  ssdlab sim -c configs/agrawal-baseline.toml -w 'RW:io_size=4096,count=100000' -o out/rw
  ssdlab sim -c configs/agrawal-baseline.toml -w uflip:granularity -o out/gran
  ssdlab sim -c configs/agrawal-1tib.toml --precondition random -w RW:count=1000 -o out/big
  ssdlab sim -c configs/tiny.toml -w trace:traces/examples/synthetic.csv -o out/trace
  ssdlab sim -c configs/agrawal-baseline.toml --set ftl.overprovisioning=0.28 -w RW -o out/op
  ssdlab sim -c configs/tiny.toml -w RR:name=reader -w RW:queue_depth=16,name=writer --fairness -o out/tenants
  ssdlab sim -c configs/tiny-tlc.toml --set errors.correctable_bits=120 --set errors.retries=8 --set errors.retry_error_factor=0.7 --age pe=800,retention=1y -w RR -o out/aged
  ssdlab sim ... --percentiles 50,99,99.9 --quiet)";

}  // namespace

Command make_sim_command(CLI::App& app, GlobalOptions& global) {
  struct Options {
    sim::SimOptions sim;
    std::vector<std::string> workloads;  // -w: plans and traces, together as tenants
    sim::TraceOptions trace;
    TraceReadFlags read;  // sets trace.read
    std::string percentiles;
    std::string age;  // --age, as [errors] overrides
  };
  auto o = std::make_shared<Options>();
  sim::SimOptions& sim = o->sim;
  CLI::App* command = app.add_subcommand("sim", "Run a workload against a device model");
  command
      ->add_option("-c,--config", sim.config,
                   "Device config (TOML), e.g. configs/agrawal-baseline.toml")
      ->required();
  // Required unless --save-state is given (checked after parsing).
  CLI::Option* workload = command->add_option(
      "-w,--workload", o->workloads,
      "Plan file, built-in uflip:NAME (uflip:granularity, ..., uflip:all), one inline "
      "experiment such as 'RW:io_size=4096,count=100000', or trace:FILE[,key=value...] (keys: " +
          sim::trace_key_names() +
          "; FILE '-': standard input). Repeatable: the workloads run together as tenants, each "
      "with queue=N and namespace=N (a plan: one experiment of one run)");
  command->add_option("-o,--out", sim.outdir, "Output folder for io.csv and summary.json")
      ->required();
  command->add_option("--set", sim.overrides, "Override a config key: table.key=value (repeatable)");
  command->add_option("--age", o->age,
                      "Start from an aged drive: pe=N more program/erase cycles on every block, "
                      "retention=T the data's age (90d, 12h, 2y); needs an [errors] table "
                      "(docs: errors)");
  command->add_option("--seed", sim.seed, "Seed of every random choice")
      ->check(any_unsigned())
      ->capture_default_str();
  command->add_flag("--verify", sim.verify, "Check that every read returns the latest write");
  add_per_io_options(command, sim);
  command->add_option("--log-level", global.log_level, "trace, debug, info, warn, error or off");
  CLI::Option* precondition =
      command->add_option("--precondition", sim.precondition,
                          "Bring the device to a used state first, without simulated time: "
                          "seq[:N], random[:N], uflip[:N] (N capacities written after the "
                          "sequential fill) or none (not even the state a uFLIP plan asks for)");
  command->add_flag("!--no-state-cache", sim.state_cache,
                    "Neither reuse nor save the preconditioned state in the cache folder "
                    "($XDG_CACHE_HOME/ssdlab or ~/.cache/ssdlab; 'ssdlab cache clear')");
  command
      ->add_option("--precondition-threads", sim.precondition_threads,
                   "Threads preconditioning may use (0: one per hardware thread); the state is "
                   "the same whatever the number")
      ->capture_default_str();
  CLI::Option* save_state = command->add_option(
      "--save-state", sim.save_state,
      "Save the device's complete state to FILE at the end of the run; without -w, right "
      "after --precondition (docs: checkpoints)");
  CLI::Option* load_state =
      command
          ->add_option("--load-state", sim.load_state,
                       "Start from a state saved with --save-state instead of preconditioning")
          ->excludes(precondition);
  CLI::Option* power_cuts = add_run_options(command, sim, o->percentiles);
  command->footer(kSimExamples);
  add_trace_options(*command, o->trace, o->read);
  add_teaching_options(*command, sim.teaching);

  return {command, [o, workload, save_state, load_state, power_cuts](std::ostream& out) {
            check_usage(o->workloads, workload, save_state, load_state, power_cuts);
            o->read.apply(o->trace.read);
            add_age_overrides(o->age, o->sim.overrides);
            if (!o->percentiles.empty())
              o->sim.percentiles = sim::parse_percentiles(o->percentiles);
            sim::run_sim_or_replay(o->sim, o->workloads, o->trace, out);
            return 0;
          }};
}

}  // namespace ssdlab::cli
