// summary.json as one typed model (DESIGN.md, STYLE.md "one model per
// concept"): the run code (plans, traces, probe) fills in a SummaryRecord,
// and summary_json.cpp writes it (to_json) and reads it back
// (summary_from_json) through one list of fields per record, so that every
// key of the file is declared once, in a struct, and named in one place.
// compare, calibrate and sweep's collect read the same records.
//
// Schema versions: 1, the files before the field existed (read the same);
// 2, adds schema_version and the per-experiment "trims" of traces.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "records/fdp_counters.h"
#include "records/slc_cache_counters.h"
#include "sim/results/checkpoint_record.h"
#include "sim/results/device_counters.h"
#include "sim/results/output.h"
#include "sim/results/page_type_reads.h"
#include "sim/results/summary_blocks.h"

namespace ssdlab::sim {

inline constexpr int kSummarySchemaVersion = 2;

// The latency histogram of a run, in microseconds (from LatencyHistogram).
struct HistogramRecord {
  std::vector<double> from_us, to_us;
  std::vector<std::uint64_t> counts;
  bool operator==(const HistogramRecord&) const = default;
};

// One run of an experiment: its response-time figures as summary.json holds
// them (microseconds rounded to the nanosecond) and, for simulated runs, its
// simulated span and device counters.
struct RunRecord {
  std::uint32_t run = 0;
  std::uint64_t count = 0, ignored = 0;
  double min_us = 0, max_us = 0, mean_us = 0, stddev_us = 0, p50_us = 0, p99_us = 0;
  double iops = 0, mb_per_s = 0;
  // Counted apart from the figures above (RunStats): trims and their rate,
  // commands a zoned device refused, zone management commands served.
  // Written only when not 0 (read as 0 when missing).
  std::uint64_t trims = 0, refused = 0, zone_management = 0;
  double trim_iops = 0;
  // Every percentile asked for (percent, us), in the order asked; each is
  // also written as its own key (p99_9_us). Read back in increasing percent.
  std::vector<std::pair<double, double>> percentiles;
  HistogramRecord histogram;
  // "exact", or "histogram, relative error <= 0.195%" for a run past the
  // limit of exact samples (sim/results/run_samples.h). Missing when read:
  // exact (files from before it).
  std::string percentile_method = "exact";
  std::optional<std::uint64_t> startup_ios;  // io_ignore = "auto": I/Os the detection cut
  std::optional<double> start_us, end_us;     // runs of ssdlab sim
  std::optional<DeviceCounters> device;       // runs of ssdlab sim
  std::optional<std::string> stopped;         // why it stopped early, if it did
  // Cells of several bits: the run's reads by the page type they waited for
  // (sim/results/page_type_reads.h); none without reads of flash pages.
  std::optional<std::vector<PageTypeReadRecord>> read_latency_by_page_type;

  // The figures of `stats` as summary.json rounds them.
  static RunRecord of(std::uint32_t run, const RunStats& stats);
  // The reads and writes in the figures (count less the ignored and those
  // counted apart).
  std::uint64_t measured() const { return count - ignored - trims - refused - zone_management; }
  // The device's write amplification during the run (simulated runs only;
  // none when the host wrote nothing).
  std::optional<double> write_amplification() const;
  bool operator==(const RunRecord&) const = default;
};

// io_ignore of an experiment: "auto" (start-up detection) or a count.
struct IoIgnore {
  bool detect = false;
  std::uint64_t count = 0;
  bool operator==(const IoIgnore&) const = default;
};

// The mix and skew keys of a plan's experiment (workloads/plan.h).
struct MixRecord {
  std::string pattern;
  std::uint32_t ratio = 1;
  bool operator==(const MixRecord&) const = default;
};
struct HotColdRecord {
  double hot_fraction = 0, hot_access = 0;
  bool operator==(const HotColdRecord&) const = default;
};

// One experiment, a plan's (its keys as the plan gave them) or a replayed
// trace's (pattern "trace"), and its runs.
struct ExperimentRecord {
  std::string name;
  std::string pattern;  // SR, RR, SW, RW or "trace"
  std::uint64_t count = 0;
  std::uint32_t queue_depth = 1, processes = 1;
  IoIgnore io_ignore;
  // A plan's experiment.
  std::uint64_t io_size = 0, target_offset = 0, target_size = 0, seed = 0, io_shift = 0;
  std::int64_t increment = 1;
  std::uint32_t partitions = 1, burst = 1;
  double pause_us = 0, run_pause_us = 0;
  std::optional<MixRecord> mix;
  std::optional<HotColdRecord> hot_cold;
  std::optional<double> zipf;
  // A uFLIP micro-benchmark's cell: its table, column and row.
  std::optional<std::string> benchmark, column, parameter, value;
  // Re-enforced state before it (uFLIP §4.2); null when there was none to enforce.
  std::optional<std::optional<StateRecord>> state_reset;
  std::optional<std::uint64_t> prefilled_pages;  // ssdlab sim, reading experiments
  // A trace's: its trims, and the replay's queue depth (none in open loop).
  std::optional<std::uint64_t> trims;
  std::optional<std::uint32_t> trace_queue_depth;
  std::optional<TraceRecord> trace;
  std::vector<RunRecord> runs;

  bool is_trace() const { return pattern == "trace"; }
  // A live device's I/Os (sim/live/): written as a trace's, without plan keys.
  bool is_live() const { return pattern == "live"; }
  // The mean over the runs of one figure (0 without runs).
  double mean_over_runs(double RunRecord::*figure) const;
  // A plain experiment: one I/O at a time, no pause, mix, shift or stride.
  bool single_stream() const;
  bool operator==(const ExperimentRecord&) const = default;
};

// A whole summary.json. Blocks that only some runs have are optional: the
// device's (ssdlab sim), the plan's (benchmarks, lifetime), several traces'
// (layout), probe's (target).
struct SummaryRecord {
  int schema_version = 1;
  std::string ssdlab_version, workload;
  std::uint64_t seed = 0, logical_bytes = 0;
  std::optional<StateRecord> precondition;  // null: none
  std::optional<double> simulated_us;
  std::optional<std::uint64_t> prefilled_pages;
  std::vector<ExperimentRecord> experiments;
  std::optional<std::vector<BenchmarkTable>> benchmarks;
  std::optional<LifetimeRecord> lifetime;
  std::optional<std::string> layout;
  std::optional<TargetRecord> target;
  std::optional<LiveRecord> live;  // a live device's (sim/live/)
  // The device at the end of the run (all writes, preconditioning included).
  std::optional<DeviceCounters> device;
  std::optional<WearRecord> wear;
  std::optional<records::SlcCacheCounters> slc_cache;
  std::optional<records::FdpCounters> fdp;           // ftl.placement on only
  std::optional<ZonesRecord> zones;                  // a zoned device only
  std::optional<HostLogRecord> host_log;             // [host.log] only
  std::optional<std::vector<TenantRecord>> tenants;  // runs of tenants (tenant_run.h)
  std::optional<FairnessRecord> fairness;            // --fairness
  std::optional<VerificationRecord> verification;
  // The device config's echo as the simulator wrote it (sim/config/config.h
  // to_json, with the derived `capacity` block, sim/config/capacity.h): data
  // to the readers of results, which never build a device.
  std::optional<nlohmann::json> config;
  std::optional<PowerCutsRecord> power_cuts;
  std::optional<CheckpointRecord> checkpoint;

  // The device's write amplification, all writes (ssdlab sim; none when the
  // host wrote nothing).
  std::optional<double> write_amplification() const;
  // The file's text: to_json, indented by 2, and a newline.
  std::string text() const;
};

// The one serialiser and the one parser of summary.json (summary_json.cpp).
void to_json(nlohmann::json& json, const SummaryRecord& summary);
void to_json(nlohmann::json& json, const RunRecord& run);  // one run, as in the file
// Throws ssdlab::Error naming `where` and what is missing or of the wrong
// type, or a schema newer than this build reads.
SummaryRecord summary_from_json(const nlohmann::json& json, const std::string& where);
// Reads `path` (an ssdlab summary.json) through summary_from_json.
SummaryRecord read_summary(const std::filesystem::path& path);

// A checkpoint's info block (checkpoint_record.h), and the info with its
// file as `ssdlab state-info` prints it. The reader throws ssdlab::Error
// "where: KEY: what is wrong" for a missing field or one of another type.
void to_json(nlohmann::json& json, const CheckpointInfo& info);
void to_json(nlohmann::json& json, const CheckpointFile& file);
CheckpointInfo checkpoint_info_from_json(const nlohmann::json& json, const std::string& where);

}  // namespace ssdlab::sim
