// The blocks of summary.json besides the experiments and their runs
// (sim/results/summary.h) and the checkpoint's (checkpoint_record.h): each a
// typed record that the run code fills in and that summary_json.cpp writes
// and reads through its one field list. Units are those of the file
// (microseconds, seconds); a std::optional is a key present only when it
// applies, or a JSON null where the file says so.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "records/host_log_counters.h"
#include "records/zone_counters.h"

namespace ssdlab::sim {

// A state brought about before the runs ("precondition", an experiment's
// "state_reset"): by the simulator (functional writes) or by probe (real
// writes). Fields of the other kind are absent.
struct StateRecord {
  std::string mode;  // the --precondition text: "random", "uflip:2", ...
  double wall_seconds = 0;
  // ssdlab sim (sim/state/precondition.cpp).
  std::optional<std::uint64_t> host_pages_written, flash_pages_written, blocks_cleaned;
  std::optional<double> write_amplification, flash_pages_per_second;
  // ssdlab probe (sim/run/probe.cpp).
  std::optional<std::uint64_t> bytes_written, writes;
  std::optional<std::uint32_t> threads;  // that wrote it (sim/state/precondition.h)
  // The state cache (sim/state/state_cache.h): "hit", "stored" or "not
  // stored"; on a hit, the file and how long loading it took (the other
  // figures are those of the run that made the state).
  std::optional<std::string> state_cache, state_file;
  std::optional<double> load_seconds;

  bool operator==(const StateRecord&) const = default;
};

// Blocks by remaining life relative to the mean (Agrawal et al. Table 8).
struct LifeHistogram {
  std::uint64_t below_40pct_of_mean = 0, below_80pct_of_mean = 0, below_100pct_of_mean = 0,
                at_or_above_mean = 0;
  bool operator==(const LifeHistogram&) const = default;
};

// Blocks by erase count: blocks[i] have erase counts from erases_from[i] up
// to the next edge.
struct EraseBuckets {
  std::uint64_t rated_cycles = 0;
  std::vector<std::uint64_t> erases_from, blocks;
  bool operator==(const EraseBuckets&) const = default;
};

// Wear at the end of the run (sim/report/wear_buckets.cpp).
struct WearRecord {
  std::uint64_t rated_cycles = 0;
  std::string wear_leveling;
  double remaining_life_mean = 0, remaining_life_stddev = 0;
  std::uint64_t remaining_life_min = 0, blocks_expired = 0, blocks_retired = 0;
  LifeHistogram remaining_life_histogram;
  EraseBuckets remaining_life_buckets;
  std::uint64_t rate_limit_deferrals = 0, migrations = 0, migrated_pages = 0;
  std::vector<std::uint64_t> migrations_per_pool;
  double migration_flash_us = 0;
  bool operator==(const WearRecord&) const = default;
};

struct VerificationRecord {
  bool enabled = false;
  std::uint64_t pages_checked = 0;
  bool operator==(const VerificationRecord&) const = default;
};

// One power cut and its recovery (sim/state/power_cut_plan.cpp).
struct PowerCutRecord {
  double at_us = 0, scan_time_us = 0, mount_merge_time_us = 0, hold_up_time_us = 0,
         mount_time_us = 0;
  std::uint64_t scan_pages = 0, mount_commands = 0, torn_pages = 0, erases_undone = 0,
                writes_in_flight = 0, requests_resubmitted = 0, pages_checked = 0,
                lost_writes = 0, buffered_writes_lost = 0;
  std::uint64_t paired_pages_lost = 0;  // cells of several bits only (PowerCutReport)
  bool operator==(const PowerCutRecord&) const = default;
};

// Every power cut of a run (--power-cut-at) and their totals.
struct PowerCutsRecord {
  std::uint64_t count = 0, recovered = 0, lost_writes = 0, buffered_writes_lost = 0,
                not_reached = 0, scan_pages = 0, requests_resubmitted = 0, paired_pages_lost = 0;
  double scan_time_us = 0, hold_up_time_us = 0, mean_mount_time_us = 0, max_mount_time_us = 0;
  std::vector<PowerCutRecord> cuts;
  bool operator==(const PowerCutsRecord&) const = default;
};

// A zoned device at the end of a run (ftl.type = "zoned"; docs/zns.md): its
// zones, their sizes and states, and its counters (the zone commands it
// served and refused: records/zone_counters.h).
struct ZonesRecord {
  std::uint64_t zones = 0, zone_bytes = 0, capacity_bytes = 0;
  std::uint64_t empty = 0, implicitly_open = 0, explicitly_open = 0, closed = 0;
  std::uint64_t read_only = 0, full = 0, offline = 0;
  records::ZoneCounters counters;
  bool operator==(const ZonesRecord&) const = default;
};

// The host's log-structured layer over a zoned device ([host.log];
// docs/zns.md): its settings, its counters (what the host wrote, what its
// own cleaning moved: records/host_log_counters.h, with the log's own
// write amplification), and the write amplification of the device under
// it and of both, which take the FTL's counters too.
struct HostLogRecord {
  std::string victim;
  std::uint64_t exported_bytes = 0, zones = 0;
  records::HostLogCounters counters;
  double device_write_amplification = 0;  // flash pages / pages the host log wrote
  double total_write_amplification = 0;   // flash pages / host pages
  bool operator==(const HostLogRecord&) const = default;
};

// A tenant's figures over the window in which every tenant ran
// (sim/results/contended_window.h): the I/Os it submitted in the window,
// and with --fairness its slowdowns (over its figures alone).
struct ContendedRecord {
  double from_us = 0, to_us = 0;  // the window, from the run's start
  std::uint64_t ios = 0;
  double iops = 0, mean_us = 0, p99_us = 0;
  std::optional<double> slowdown_mean, slowdown_p99;
  bool operator==(const ContendedRecord&) const = default;
};

// One tenant of a run of several workloads at once (sim/run/tenant_run.h):
// where it ran, its figures (as its experiment's run), the pages cleaning
// moved while its writes were started, and with --fairness its figures
// alone on the same device and state and its slowdown (shared over alone).
struct TenantRecord {
  std::string name;            // its io.csv experiment
  std::uint32_t queue = 1;     // submission queue, 1-based
  std::uint32_t namespace_id = 0;  // 1-based; 0: the whole logical space
  std::uint64_t namespace_base = 0, namespace_bytes = 0;
  std::uint64_t ios = 0;       // measured reads and writes (RunRecord::measured)
  double iops = 0, mean_us = 0, p99_us = 0, max_us = 0;
  // Counted apart from the figures above (RunRecord); written when not 0.
  std::uint64_t trims = 0, refused = 0, zone_management = 0;
  std::uint64_t pages_moved_by_writes = 0;
  std::optional<double> alone_mean_us, alone_p99_us, slowdown_mean, slowdown_p99;
  // While every tenant ran; none if the tenants never all ran at once.
  std::optional<ContendedRecord> contended;
  bool operator==(const TenantRecord&) const = default;
};

// --fairness (FLIN, Tavakkol et al., ISCA 2018, §3): the fairness index,
// the smallest tenant slowdown over the largest (1: every tenant slowed down
// alike), of mean and of 99th-percentile response times: over each tenant's
// whole run, and over the window in which all of them ran (FLIN's: its
// slowdown is of a flow while it shares the device; none if they never all
// ran at once).
struct FairnessRecord {
  double index_mean = 0, index_p99 = 0;
  std::optional<double> contended_index_mean, contended_index_p99;
  std::string dispatch_order;  // the flash scheduler's (controller.dispatch_order)
  std::string arbitration;     // the host queues' (host.arbitration)
  bool operator==(const FairnessRecord&) const = default;
};

// A plan's lifetime stop (--until-expired, the device's end of life).
struct LifetimeRecord {
  std::uint64_t until_expired = 0;
  bool stopped = false, end_of_life = false;
  // Where it stopped, once it did.
  std::optional<std::string> reason, experiment;
  std::optional<std::uint32_t> run;
  std::optional<std::uint64_t> ios_completed;
  std::uint64_t host_pages_written = 0;
  double simulated_us = 0;
  bool operator==(const LifetimeRecord&) const = default;
};

// The fixed and per-KiB cost fitted to a granularity table's column.
struct LinearCostRecord {
  double fixed_us = 0, per_kib_us = 0, r_squared = 0;
  std::size_t points = 0;
  bool operator==(const LinearCostRecord&) const = default;
};

// One uFLIP micro-benchmark as a table (sim/report/uflip_report.cpp): mean
// response time by parameter value (rows) and pattern or mix (columns).
struct BenchmarkTable {
  struct Row {
    std::string value;
    std::map<std::string, double> mean_us;  // by column
    bool operator==(const Row&) const = default;
  };
  std::string name, parameter;
  std::vector<std::string> columns;
  std::vector<Row> rows;
  std::optional<std::map<std::string, LinearCostRecord>> linear_cost;  // io_size tables
  bool operator==(const BenchmarkTable&) const = default;
};

// ssdlab probe's device or file.
struct TargetRecord {
  std::string path, kind;  // "file" or "block device"
  std::uint64_t bytes = 0, sector_size = 0;
  bool direct = false, created = false;
  bool operator==(const TargetRecord&) const = default;
};

// A live device's run (sim/live/: the nbdkit plugin): how it was served and
// how closely its replies kept to the simulated completions. A reply is late
// when it left more than late_threshold_us after its request's simulated
// completion (the host could not keep up with the model's time; the io.csv
// times stay the model's). Requests count every request received;
// failed_requests those answered with an error (not in io.csv), and
// reads_after_end_of_life the reads served from the kept data after the
// device's end of life (not in io.csv either); failure says why the device
// stopped serving ("" while it did not: sim/live/live_device.h).
struct LiveRecord {
  std::string server, data;  // "nbdkit"; memory, sparse-file:PATH or none
  double wall_seconds = 0;
  std::uint64_t connections = 0, requests = 0, flushes = 0;
  std::uint64_t failed_requests = 0, reads_after_end_of_life = 0;
  std::string failure;
  std::uint64_t late_replies = 0;
  double late_threshold_us = 0, mean_lag_us = 0, max_lag_us = 0;
  bool operator==(const LiveRecord&) const = default;
};

// A replayed trace: its options and what reading and placing it counted
// (sim/run/trace_report.cpp). Absent values are written as null.
struct TraceRecord {
  struct Partition {
    std::uint64_t offset = 0, bytes = 0;
    bool operator==(const Partition&) const = default;
  };
  std::string file, format;
  bool format_detected = false;
  std::string compression, mode;
  std::optional<std::uint32_t> queue_depth;  // closed loop
  std::optional<double> speed;               // open loop
  std::string map;
  std::optional<std::uint64_t> trace_span_bytes;  // --map scale
  std::optional<std::uint32_t> device_filter;
  std::uint64_t start_requests = 0;
  std::optional<double> start_us;
  std::uint64_t limit = 0;
  std::uint64_t lines = 0, records = 0, skipped_lines = 0, bad_lines_skipped = 0,
                zero_size_skipped = 0, other_device = 0, before_start = 0, realigned = 0,
                remapped = 0, out_of_order = 0, replayed = 0;
  double trace_start_us = 0, trace_end_us = 0;
  std::optional<Partition> partition;  // --layout partitioned
  std::string devices;
  std::optional<std::map<std::string, std::uint64_t>> device_bases;  // by device number
  // --mode dependent: each recorded process's depth, by process number.
  std::optional<std::map<std::string, std::uint64_t>> queue_depth_by_process;
  std::vector<std::string> warnings;
  // --placement-oracle (traces/lifetime_oracle.h): per lifetime class, its
  // writes and the longest lifetime in it (host pages; never-superseded
  // data in the last class counts 0).
  std::optional<std::vector<std::uint64_t>> oracle_class_writes, oracle_class_max_lifetime_pages;
  bool operator==(const TraceRecord&) const = default;
};

}  // namespace ssdlab::sim
