#include "sim/results/report.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cmath>
#include <ostream>

#include "common/error.h"
#include "common/units.h"
#include "sim/controller/capacity.h"
#include "sim/controller/config.h"
#include "sim/results/device_counters.h"
#include "sim/controller/ssd.h"
#include "sim/results/wear_buckets.h"
#include "workloads/generator.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

OutputLock prepare_outdir(const fs::path& dir) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error || !fs::is_directory(dir))
    throw make_error("{}: cannot create the output folder: {}", dir.string(),
                     error ? error.message() : "not a directory");
  OutputLock lock(dir);
  for (const char* name : {"io.csv", "summary.json"}) check_output_path(dir / name, name);
  // Outputs of an earlier run must not pass for this run's.
  for (const char* name : {"io.csv", "summary.json"}) fs::remove(dir / name, error);
  return lock;
}

std::uint64_t seed_of(const workloads::ExperimentSpec& spec, std::uint64_t seed) {
  return spec.seed.value_or(workloads::experiment_seed(seed, spec.name));
}


void print_experiment_header(std::ostream& out) {
  fmt::print(out, "  {:<40} {:>3} {:>9} {:>10} {:>10} {:>10}\n", "experiment", "runs", "I/Os",
             "mean_us", "", "max p99_us");
}

// Runs of a micro-benchmark experiment, summarised on one line.
void print_experiment(std::ostream& out, const nlohmann::json& experiment) {
  double p99 = 0;
  std::uint64_t count = 0;
  for (const auto& run : experiment["runs"]) {
    p99 = std::max(p99, run["p99_us"].get<double>());
    count += run["count"].get<std::uint64_t>();
  }
  const auto runs = experiment["runs"].size();
  fmt::print(out, "  {:<40} {:>3} {:>9} {:>10.3f} {:>10} {:>10.3f}\n",
             experiment["name"].get<std::string>(), runs, count,
             mean_over_runs(experiment, "mean_us"), "", p99);
}

nlohmann::json experiment_json(const workloads::ExperimentSpec& spec, std::uint64_t logical_bytes,
                               std::uint64_t seed) {
  nlohmann::json experiment = {
      {"name", spec.name},
      {"pattern", workloads::pattern_name(spec.pattern)},
      {"io_size", spec.io_size},
      {"count", spec.count},
      {"target_offset", spec.target_offset},
      {"target_size", spec.target_size ? spec.target_size : logical_bytes - spec.target_offset},
      {"queue_depth", spec.queue_depth},
      {"processes", spec.processes},
      {"io_ignore", spec.io_ignore_auto ? nlohmann::json("auto") : nlohmann::json(spec.io_ignore)},
      {"seed", seed_of(spec, seed)},
      {"io_shift", spec.io_shift},
      {"increment", spec.increment},
      {"partitions", spec.partitions},
      {"pause_us", spec.pause_ns / 1000.0},
      {"burst", spec.burst},
      {"run_pause_us", spec.run_pause_ns / 1000.0}};
  if (spec.mix_pattern)
    experiment["mix"] = {{"pattern", workloads::pattern_name(*spec.mix_pattern)},
                         {"ratio", spec.mix_ratio}};
  // Skewed random addresses (workloads/skew.h).
  if (spec.hot_fraction > 0)
    experiment["hot_cold"] = {{"hot_fraction", spec.hot_fraction}, {"hot_access", spec.hot_access}};
  if (spec.zipf > 0) experiment["zipf"] = spec.zipf;
  if (!spec.benchmark.empty()) {
    experiment["benchmark"] = spec.benchmark;
    experiment["column"] = spec.column;
    experiment["parameter"] = spec.parameter;
    experiment["value"] = spec.value;
  }
  return experiment;
}

void print_run_header(std::ostream& out) {
  // WA: page-based write amplification (flash pages over host-touched pages);
  // WA_bytes: byte-based (flash bytes over host bytes). DeviceCounters.
  fmt::print(out, "  {:<28} {:>3} {:>9} {:>10} {:>10} {:>10} {:>10} {:>9} {:>6} {:>8}\n",
             "experiment", "run", "count", "mean_us", "p50_us", "p99_us", "IOPS", "MB/s", "WA",
             "WA_bytes");
}

void print_run(std::ostream& out, const std::string& name, const RunResult& r) {
  const RunStats& s = r.stats;
  fmt::print(out, "  {:<28} {:>3} {:>9} {:>10} {:>10} {:>10} {:>10} {:>9} {:>6.2f} {:>8.2f}\n",
             name, r.run, s.count, format_us(std::llround(s.mean_ns)), format_us(s.p50_ns),
             format_us(s.p99_ns), fmt::format("{:.0f}", s.iops), fmt::format("{:.2f}", s.mb_per_s),
             r.device.write_amplification(), r.device.write_amplification_bytes());
}

void print_wear(std::ostream& out, const nlohmann::json& wear) {
  const auto& h = wear["remaining_life_histogram"];
  fmt::print(
      out,
      "  wear ({}, {} P/E rated): remaining life mean {:.2f} stddev {:.2f} min {}; "
      "expired {}\n"
      "    vs mean (Table 8): <40% {}  <80% {}  <100% {}  >=100% {}\n"
      "    rate-limit deferrals {}; migrations {} ({} pages, {:.0f} us of flash time)\n",
      wear["wear_leveling"].get<std::string>(), wear["rated_cycles"].get<std::uint32_t>(),
      wear["remaining_life_mean"].get<double>(), wear["remaining_life_stddev"].get<double>(),
      wear["remaining_life_min"].get<std::uint64_t>(), wear["blocks_expired"].get<std::uint64_t>(),
      h["below_40pct_of_mean"].get<std::uint64_t>(), h["below_80pct_of_mean"].get<std::uint64_t>(),
      h["below_100pct_of_mean"].get<std::uint64_t>(), h["at_or_above_mean"].get<std::uint64_t>(),
      wear["rate_limit_deferrals"].get<std::uint64_t>(), wear["migrations"].get<std::uint64_t>(),
      wear["migrated_pages"].get<std::uint64_t>(), wear["migration_flash_us"].get<double>());
}

void print_controller(std::ostream& out, const DeviceCounters& device) {
  const ftl::FtlStats& f = device.ftl;
  if (f.blocks_cleaned > 0)
    fmt::print(out,
               "  cleaning in the runs: foreground {} blocks, {:.0f} us; background {} blocks, "
               "{:.0f} us; per cleaned block {:.1f} us of wall time, {:.1f} us of serial flash "
               "time (Table 5)\n",
               f.blocks_cleaned - f.background_blocks_cleaned,
               static_cast<double>(device.cleaning_ns - device.background_cleaning_ns) / 1000.0,
               f.background_blocks_cleaned,
               static_cast<double>(device.background_cleaning_ns) / 1000.0,
               device.cleaning_time_per_block_us(), device.cleaning_flash_time_per_block_us());
  // DFTL (ftl/dftl.cpp).
  const std::uint64_t lookups = f.map_cache_hits + f.map_cache_misses;
  if (lookups > 0)
    fmt::print(out,
               "  map cache in the runs: hit ratio {:.1f}% ({} hits, {} misses); translation pages "
               "read {}, written {}; translation blocks cleaned {}\n",
               100.0 * static_cast<double>(f.map_cache_hits) / static_cast<double>(lookups),
               f.map_cache_hits, f.map_cache_misses, f.translation_pages_read,
               f.translation_pages_written, f.translation_blocks_cleaned);
  if (!device.buffer) return;
  const WriteBufferStats& b = *device.buffer;
  const double reads = static_cast<double>(b.read_hit_pages + b.read_miss_pages);
  fmt::print(
      out,
      "  write buffer in the runs: {} pages written ({} coalesced), {} flushed in {} flushes; "
      "read hits {:.1f}%; {} writes waited for space ({:.0f} us)\n",
      b.write_pages, b.coalesced_pages, b.flushed_pages, b.flushes,
      reads > 0 ? 100.0 * static_cast<double>(b.read_hit_pages) / reads : 0.0, b.full_waits,
      static_cast<double>(b.full_wait_ns) / 1000.0);
}

nlohmann::json run_json(const RunResult& result) {
  nlohmann::json entry = to_json(result.stats);
  entry["run"] = result.run;
  entry["start_us"] = result.start_ns / 1000.0;
  entry["end_us"] = result.end_ns / 1000.0;
  entry["device"] = result.device;  // sim/results/device_counters.h
  if (!result.stopped.empty()) entry["stopped"] = result.stopped;
  return entry;
}

void add_device_summary(nlohmann::json& summary, const Ssd& ssd, bool verify) {
  summary["device"] = DeviceCounters::of(ssd);
  summary["wear"] = wear_report(ssd);
  summary["wear"]["remaining_life_buckets"] = remaining_life_buckets(ssd.ftl().nand());
  summary["verification"] = {{"enabled", verify}, {"pages_checked", ssd.verified_pages()}};
  summary["config"] = to_json(ssd.config());
  // Derived, not a key: the spare the exported capacity leaves in fact.
  summary["config"]["capacity"] = spare_capacity(ssd.config(), ssd.ftl());
}

}  // namespace ssdlab::sim
