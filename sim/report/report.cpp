#include "sim/report/report.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <regex>

#include "common/error.h"
#include "common/units.h"
#include "sim/config/capacity.h"
#include "sim/config/config.h"
#include "sim/controller/ssd.h"
#include "sim/report/device_snapshot.h"
#include "sim/report/wear_buckets.h"
#include "sim/results/device_counters.h"
#include "workloads/generator.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

OutputLock prepare_outdir(const fs::path& dir, std::string_view option) {
  std::error_code error;
  fs::create_directories(dir, error);
  if (error || !fs::is_directory(dir))
    throw make_error("{}: cannot create the output folder: {}", dir.string(),
                     error ? error.message() : "not a directory");
  OutputLock lock(dir, OutputLock::Mode::kExclusive, option);
  for (const char* name : kRunOutputNames) check_output_path(dir / name, name);
  return lock;
}

namespace {

// The names ssdlab writes into an output folder besides io.csv and
// summary.json: their temporaries and fio latency logs
// (PREFIX-EXPERIMENT-runR_lat.P.log, sim/results/fio_export.h).
bool is_stale_output_name(const std::string& name) {
  static const std::regex kLatLog(R"(.+-run[0-9]+_lat\.[0-9]+\.log(\.[A-Za-z0-9]+\.partial)?)");
  return is_output_temporary(name) || std::regex_match(name, kLatLog);
}

}  // namespace

void clear_stale_outputs(const fs::path& dir) {
  std::error_code error;
  for (const char* name : kRunOutputNames) fs::remove(dir / name, error);
  for (const auto& entry : fs::directory_iterator(dir, error))
    if (!entry.is_directory() && is_stale_output_name(entry.path().filename().string()))
      fs::remove(entry.path(), error);
  const fs::path plots = dir / "plots";
  if (fs::is_directory(fs::symlink_status(plots, error))) {
    for (const auto& entry : fs::directory_iterator(plots, error))
      if (entry.is_regular_file() &&
          (entry.path().extension() == ".png" || entry.path().extension() == ".svg"))
        fs::remove(entry.path(), error);
    fs::remove(plots, error);  // only if nothing else is left in it
  }
}

std::uint64_t seed_of(const workloads::ExperimentSpec& spec, std::uint64_t seed) {
  return spec.seed.value_or(workloads::experiment_seed(seed, spec.name));
}

void print_experiment_header(std::ostream& out) {
  fmt::print(out, "  {:<40} {:>3} {:>9} {:>10} {:>10} {:>10}\n", "experiment", "runs", "I/Os",
             "mean_us", "", "max p99_us");
}

// Runs of a micro-benchmark experiment, summarised on one line.
void print_experiment(std::ostream& out, const ExperimentRecord& experiment) {
  double p99 = 0;
  std::uint64_t count = 0;
  for (const RunRecord& run : experiment.runs) {
    p99 = std::max(p99, run.p99_us);
    count += run.count;
  }
  fmt::print(out, "  {:<40} {:>3} {:>9} {:>10.3f} {:>10} {:>10.3f}\n", experiment.name,
             experiment.runs.size(), count, experiment.mean_over_runs(&RunRecord::mean_us), "",
             p99);
}

ExperimentRecord experiment_record(const workloads::ExperimentSpec& spec,
                                   std::uint64_t logical_bytes, std::uint64_t seed) {
  ExperimentRecord e;
  e.name = spec.name;
  e.pattern = workloads::pattern_name(spec.pattern);
  e.io_size = spec.io_size;
  e.count = spec.count;
  e.target_offset = spec.target_offset;
  e.target_size = spec.target_size ? spec.target_size : logical_bytes - spec.target_offset;
  e.queue_depth = spec.queue_depth;
  e.processes = spec.processes;
  e.io_ignore = {spec.io_ignore_auto, spec.io_ignore_auto ? 0 : spec.io_ignore};
  e.seed = seed_of(spec, seed);
  e.io_shift = spec.io_shift;
  e.increment = spec.increment;
  e.partitions = spec.partitions;
  e.pause_us = spec.pause_ns / 1000.0;
  e.burst = spec.burst;
  e.run_pause_us = spec.run_pause_ns / 1000.0;
  if (spec.mix_pattern)
    e.mix = MixRecord{workloads::pattern_name(*spec.mix_pattern), spec.mix_ratio};
  // Skewed random addresses (workloads/skew.h).
  if (spec.hot_fraction > 0) e.hot_cold = HotColdRecord{spec.hot_fraction, spec.hot_access};
  if (spec.zipf > 0) e.zipf = spec.zipf;
  if (!spec.benchmark.empty()) {
    e.benchmark = spec.benchmark;
    e.column = spec.column;
    e.parameter = spec.parameter;
    e.value = spec.value;
  }
  return e;
}

void print_run_header(std::ostream& out) {
  // WA: page-based write amplification (flash pages over host-touched pages);
  // WA_bytes: byte-based (flash bytes over host bytes). DeviceCounters.
  fmt::print(out, "  {:<28} {:>3} {:>9} {:>10} {:>10} {:>10} {:>10} {:>9} {:>6} {:>8}\n",
             "experiment", "run", "count", "mean_us", "p50_us", "p99_us", "IOPS", "MB/s", "WA",
             "WA_bytes");
}

static std::string format_ratio(std::optional<double> ratio) {
  return ratio ? fmt::format("{:.2f}", *ratio) : std::string("-");
}

void print_run(std::ostream& out, const std::string& name, const RunResult& r) {
  const RunStats& s = r.stats;
  // Response times of served reads and writes only: none, `-`, if none was
  // measured (a run of trims, or of refusals).
  const bool served = s.count > s.ignored + s.trims + s.refused + s.zone_management;
  const auto us = [served](TimeNs ns) { return served ? format_us(ns) : std::string("-"); };
  fmt::print(out, "  {:<28} {:>3} {:>9} {:>10} {:>10} {:>10} {:>10} {:>9} {:>6} {:>8}\n", name,
             r.run, s.count, us(std::llround(s.mean_ns)), us(s.p50_ns), us(s.p99_ns),
             fmt::format("{:.0f}", s.iops), fmt::format("{:.2f}", s.mb_per_s),
             format_ratio(r.device.write_amplification_if_written()),
             format_ratio(r.device.write_amplification_bytes_if_written()));
  // A host log over a zoned device: WA above is the device's (1.00: it never
  // cleans); the log's own and the end-to-end one are said here.
  if (const auto end_to_end = r.device.end_to_end_write_amplification())
    fmt::print(out,
               "  {:<28}     host log: write amplification {:.2f} (its cleaning) x device {} = "
               "{:.2f} end to end\n",
               "", *r.device.host_log_write_amplification(),
               format_ratio(r.device.write_amplification_if_written()), *end_to_end);
  if (s.trims + s.refused + s.zone_management == 0) return;
  // What the figures above leave out (issue 51: each figure counts only what
  // it names).
  std::string apart;
  if (s.trims) apart += fmt::format(", {} trims ({:.0f} per s)", s.trims, s.trim_iops);
  if (s.refused) apart += fmt::format(", {} refused", s.refused);
  if (s.zone_management) apart += fmt::format(", {} zone management commands", s.zone_management);
  fmt::print(out, "  {:<28}     not in the figures: {}\n", "", apart.substr(2));
}

void print_wear(std::ostream& out, const WearRecord& wear) {
  const LifeHistogram& h = wear.remaining_life_histogram;
  fmt::print(out,
             "  wear ({}, {} P/E rated): remaining life mean {:.2f} stddev {:.2f} min {}; "
             "expired {}\n"
             "    vs mean (Table 8): <40% {}  <80% {}  <100% {}  >=100% {}\n"
             "    rate-limit deferrals {}; migrations {} ({} pages, {:.0f} us of flash time)\n",
             wear.wear_leveling, wear.rated_cycles, wear.remaining_life_mean,
             wear.remaining_life_stddev, wear.remaining_life_min, wear.blocks_expired,
             h.below_40pct_of_mean, h.below_80pct_of_mean, h.below_100pct_of_mean,
             h.at_or_above_mean, wear.rate_limit_deferrals, wear.migrations, wear.migrated_pages,
             wear.migration_flash_us);
}

namespace {

// The flash's energy ([power]) and the thermal throttle ([controller.thermal]).
void print_energy(std::ostream& out, const DeviceCounters& device) {
  if (const auto& e = device.energy; e && e->total_nj() > 0) {
    const auto joules = [](std::int64_t nj) { return static_cast<double>(nj) / 1e9; };
    std::string per_byte;
    if (device.host_bytes_written > 0)
      per_byte = fmt::format(
          "; {:.3f} nJ per host byte written",
          static_cast<double>(e->total_nj()) / static_cast<double>(device.host_bytes_written));
    fmt::print(out,
               "  flash energy in the runs: {:.3f} J (program {:.3f}, read {:.3f}, erase {:.3f}, "
               "transfers {:.3f}){}\n",
               joules(e->total_nj()), joules(e->program_nj), joules(e->read_nj),
               joules(e->erase_nj), joules(e->transfer_nj), per_byte);
  }
  if (const auto& t = device.thermal)
    fmt::print(
        out, "  thermal throttle in the runs: {} episode{}, {:.1f} s throttled of {:.1f} s\n",
        t->throttles, t->throttles == 1 ? "" : "s", static_cast<double>(t->throttled_ns) / 1e9,
        static_cast<double>(t->available_ns) / 1e9);
}

}  // namespace

void print_controller(std::ostream& out, const DeviceCounters& device) {
  const records::FtlCounters& f = device.ftl;
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
  print_energy(out, device);
  for (const auto& [name, record] : device.parts) {  // registered parts' (device_parts.h)
    std::string counts;
    for (const auto& [key, count] : record)
      counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", key, count);
    fmt::print(out, "  {} in the runs: {}\n", name, counts.empty() ? "no counters" : counts);
  }
  if (!device.buffer) return;
  const records::WriteBufferCounters& b = *device.buffer;
  const double reads = static_cast<double>(b.read_hit_pages + b.read_miss_pages);
  fmt::print(
      out,
      "  write buffer in the runs: {} pages written ({} coalesced), {} flushed in {} flushes; "
      "read hits {:.1f}%; {} writes waited for space ({:.0f} us)\n",
      b.write_pages, b.coalesced_pages, b.flushed_pages, b.flushes,
      reads > 0 ? 100.0 * static_cast<double>(b.read_hit_pages) / reads : 0.0, b.full_waits,
      static_cast<double>(b.full_wait_ns) / 1000.0);
}

RunRecord run_record(const RunResult& result) {
  RunRecord run = RunRecord::of(result.run, result.stats);
  run.start_us = result.start_ns / 1000.0;
  run.end_us = result.end_ns / 1000.0;
  run.device = result.device;  // sim/results/device_counters.h
  if (!result.stopped.empty()) run.stopped = result.stopped;
  if (!result.reads_by_page_type.empty()) run.read_latency_by_page_type = result.reads_by_page_type;
  return run;
}

void add_device_summary(SummaryRecord& summary, const Ssd& ssd, bool verify) {
  summary.device = device_counters_of(ssd);
  summary.wear = wear_report(ssd);
  // The FTL's parts' records (records/), as they filled them.
  ftl::Ftl::PartRecords parts = ssd.ftl().part_records();
  summary.slc_cache = std::move(parts.slc_cache);
  summary.fdp = std::move(parts.fdp);
  add_zones_summary(summary, ssd);
  summary.verification = VerificationRecord{verify, ssd.core().observers().verified_pages()};
  // The config that ran: with the FTL's own keys as it resolved them when it
  // was built (dftl's map cache, left to its default in the config), so that
  // it reads back.
  DeviceConfig ran = ssd.config();
  ran.ftl.keys = ssd.ftl().config().keys;
  summary.config = to_json(ran);
  // Derived, not a key: the spare the exported capacity leaves in fact.
  (*summary.config)["capacity"] = spare_capacity(ssd.config(), ssd.ftl());
}

}  // namespace ssdlab::sim
