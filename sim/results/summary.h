// summary.json's reading side as a typed model: what compare, calibrate,
// sweep and collect read back from an output folder, parsed and checked in
// one place (with "file: experiments[i].runs[j]: what is missing" errors)
// instead of by string keys in each of them. The writing side is the run
// driver (sim/run/run_session.cpp) with the to_json functions of these same
// figures (RunStats in output.h, DeviceCounters); kSummarySchemaVersion
// names the layout they agree on.
//
// Schema versions: 1, the files before the field existed (read the same);
// 2, adds schema_version and the per-experiment "trims" of traces.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/results/output.h"

namespace ssdlab::sim {

inline constexpr int kSummarySchemaVersion = 2;

// One run of an experiment: its response-time figures as summary.json holds
// them (to_json(RunStats): microseconds rounded to the nanosecond) and the
// device's write amplification during it (simulated runs only).
struct RunRecord {
  std::uint32_t run = 0;
  std::uint64_t count = 0, ignored = 0;
  double min_us = 0, max_us = 0, mean_us = 0, stddev_us = 0, p50_us = 0, p99_us = 0;
  double iops = 0, mb_per_s = 0;
  // Every percentile summary.json holds ("percentiles": percent -> us), in
  // increasing percent; p50 and p99 are also above.
  std::vector<std::pair<double, double>> percentiles;
  std::optional<double> write_amplification;  // runs of ssdlab sim
  std::string stopped;                         // why it stopped early, if it did

  std::uint64_t measured() const { return count - ignored; }
};

// One experiment (a plan's experiment or a trace) and its runs.
struct ExperimentRecord {
  std::string name;
  std::string pattern;  // SR, RR, SW, RW or "trace"
  std::uint64_t io_size = 0;
  std::uint32_t queue_depth = 1, processes = 1, partitions = 1;
  std::int64_t increment = 1;
  std::uint64_t io_shift = 0;
  double pause_us = 0;
  bool mixed = false;  // has a mix pattern
  std::vector<RunRecord> runs;

  // The mean over the runs of one figure (0 without runs).
  double mean_over_runs(double RunRecord::*figure) const;
  // A plain experiment: one I/O at a time, no pause, mix, shift or stride.
  bool single_stream() const;
};

struct SummaryRecord {
  int schema_version = 1;
  std::string ssdlab_version, workload;
  std::uint64_t seed = 0, logical_bytes = 0;
  std::vector<ExperimentRecord> experiments;
  std::optional<double> write_amplification;  // the device's, all writes (ssdlab sim)
};

// Reads `path` (an ssdlab summary.json); throws ssdlab::Error naming the file
// and what is missing or of the wrong type, or a schema newer than this
// build reads.
SummaryRecord read_summary(const std::filesystem::path& path);
SummaryRecord summary_from_json(const nlohmann::json& json, const std::string& where);

}  // namespace ssdlab::sim
