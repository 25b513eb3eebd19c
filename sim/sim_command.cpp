#include "sim/sim_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <ostream>

#include "common/error.h"
#include "common/units.h"
#include "sim/config.h"
#include "sim/log.h"
#include "sim/output.h"
#include "sim/precondition.h"
#include "sim/simulator.h"
#include "sim/ssd.h"
#include "workloads/plan.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

namespace {

void prepare_outdir(const fs::path& dir) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error || !fs::is_directory(dir))
    throw make_error("{}: cannot create the output folder: {}", dir.string(),
                     error ? error.message() : "not a directory");
  // Outputs of an earlier run must not pass for this run's.
  for (const char* name : {"io.csv", "summary.json"}) fs::remove(dir / name, error);
}

void print_run(std::ostream& out, const std::string& name, const RunResult& r) {
  const RunStats& s = r.stats;
  fmt::print(out, "  {:<28} {:>3} {:>9} {:>10} {:>10} {:>10} {:>10} {:>9} {:>6.2f}\n", name, r.run,
             s.count, format_us(std::llround(s.mean_ns)), format_us(s.p50_ns), format_us(s.p99_ns),
             fmt::format("{:.0f}", s.iops), fmt::format("{:.2f}", s.mb_per_s),
             r.device["write_amplification"].get<double>());
}

}  // namespace

void run_sim(const SimOptions& options, std::ostream& out) {
  auto log = logger("sim");
  // First, so that outputs of an earlier run cannot pass for this one's even
  // if the input turns out to be bad.
  const fs::path outdir(options.outdir);
  prepare_outdir(outdir);
  const DeviceConfig config = load_config(options.config, options.overrides);
  const workloads::Plan plan = workloads::load_plan(options.workload);
  const PreconditionSpec preconditioning =
      options.precondition.empty() ? PreconditionSpec{} : parse_precondition(options.precondition);
  Ssd ssd(config, options.verify, options.check_every);
  for (const auto& spec : plan.experiments)
    workloads::validate_against_device(spec, ssd.logical_bytes(), config.sector_size);
  const nlohmann::json preconditioned = precondition(ssd, preconditioning, options.seed);
  if (!preconditioned.is_null())
    fmt::print(
        out,
        "preconditioned ({}): {} flash pages written in {:.2f} s, write amplification {:.3f}\n",
        preconditioning.text, preconditioned["flash_pages_written"].get<std::uint64_t>(),
        preconditioned["wall_seconds"].get<double>(),
        preconditioned["write_amplification"].get<double>());

  std::unique_ptr<IoLog> io_log;
  if (options.io_log) io_log = std::make_unique<IoLog>(outdir / "io.csv");
  Simulator simulator(ssd, io_log.get());

  const auto wall_start = std::chrono::steady_clock::now();
  nlohmann::json experiments = nlohmann::json::array();
  std::uint64_t prefilled = 0, total_ios = 0;
  fmt::print(out, "{} on {} ({} logical)\n", plan.source, config.source,
             format_size(ssd.logical_bytes()));
  fmt::print(out, "  {:<28} {:>3} {:>9} {:>10} {:>10} {:>10} {:>10} {:>9} {:>6}\n", "experiment",
             "run", "count", "mean_us", "p50_us", "p99_us", "IOPS", "MB/s", "WA");
  for (const auto& spec : plan.experiments) {
    nlohmann::json experiment = {
        {"name", spec.name},
        {"pattern", workloads::pattern_name(spec.pattern)},
        {"io_size", spec.io_size},
        {"count", spec.count},
        {"target_offset", spec.target_offset},
        {"target_size",
         spec.target_size ? spec.target_size : ssd.logical_bytes() - spec.target_offset},
        {"queue_depth", spec.queue_depth},
        {"processes", spec.processes},
        {"io_ignore", spec.io_ignore},
        {"seed", spec.seed.value_or(options.seed)}};
    // Reading never-written data would measure nothing: fill the read target
    // first, functionally (no simulated time passes), and say so.
    if (!workloads::is_write(spec.pattern)) {
      const std::uint64_t size = experiment["target_size"].get<std::uint64_t>();
      const std::uint64_t pages = ssd.prefill(spec.target_offset, size);
      if (pages)
        log->info("{}: prefilled {} never-written logical pages of the read target", spec.name,
                  pages);
      experiment["prefilled_pages"] = pages;
      prefilled += pages;
    }
    nlohmann::json runs = nlohmann::json::array();
    for (std::uint32_t run = 0; run < spec.runs; ++run) {
      const RunResult result = simulator.run(spec, run, spec.seed.value_or(options.seed));
      nlohmann::json entry = to_json(result.stats);
      entry["run"] = run;
      entry["start_us"] = result.start_ns / 1000.0;
      entry["end_us"] = result.end_ns / 1000.0;
      entry["device"] = result.device;
      runs.push_back(std::move(entry));
      print_run(out, spec.name, result);
      total_ios += result.stats.count;
      if (options.verify) ssd.ftl().check_invariants();
    }
    experiment["runs"] = std::move(runs);
    experiments.push_back(std::move(experiment));
  }
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();

  nlohmann::json totals = device_counters(ssd);
  add_ratios(totals, config.geometry.pages_per_block);
  nlohmann::json summary = {
      {"ssdlab", {{"version", SSDLAB_VERSION}}},
      {"workload", plan.source},
      {"seed", options.seed},
      {"logical_bytes", ssd.logical_bytes()},
      {"prefilled_pages", prefilled},
      {"precondition", preconditioned},
      {"simulated_us", simulator.now() / 1000.0},
      {"experiments", std::move(experiments)},
      {"device", std::move(totals)},
      {"wear", wear_report(ssd)},
      {"verification", {{"enabled", options.verify}, {"pages_checked", ssd.verified_pages()}}},
      {"config", to_json(config)},
  };
  if (io_log) io_log->commit();
  write_file_atomically(outdir / "summary.json", summary.dump(2) + "\n");

  fmt::print(out,
             "  device write amplification (all writes, preconditioning included) {:.3f}\n  {} "
             "I/Os simulated in {:.2f} s of wall time ({:.0f} I/Os per second)\n",
             summary["device"]["write_amplification"].get<double>(), total_ios, wall,
             wall > 0 ? static_cast<double>(total_ios) / wall : 0.0);
  if (options.verify)
    fmt::print(out, "  verification: {} page reads checked against the latest write, all correct\n",
               ssd.verified_pages());
  if (io_log) fmt::print(out, "  io.csv:       {}\n", (outdir / "io.csv").string());
  fmt::print(out, "  summary.json: {}\n", (outdir / "summary.json").string());
}

void run_config(const std::string& path, const std::vector<std::string>& overrides,
                std::ostream& out) {
  const DeviceConfig config = load_config(path, overrides);
  const auto ftl = ftl::make_ftl({config.geometry, config.ftl, 0});
  out << describe(config, ftl->logical_pages());
}

}  // namespace ssdlab::sim
