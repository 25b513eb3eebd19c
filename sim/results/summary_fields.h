// The one list of summary.json's fields: for each record of summary.h and
// summary_blocks.h, fields(v, record) names every key and the member it
// holds. A visitor `v` either writes them (JsonWriter) or reads them
// (JsonReader, summary_json.cpp), so that the file's layout is declared once.
//
//   v(key, member)           always written; read if present (else the default)
//   v.required(key, member)  always written; an error if missing when read
//   v.optional(key, member)  a std::optional: written only if it holds a value
//   v.nonzero(key, member)   a number written only when not 0; read if present (else 0)
//   v.version, v.percentiles the two keys of a special shape ({"version": ...};
//                            a percentile's own key p99_9_us besides the object)
// A std::optional member given to v(...) is written as null when it is empty.
// The device counters' lists, with three ops of their own, are in
// device_counter_fields.h; the checkpoint block's in checkpoint_fields.h; a
// zoned device's and a live device's in summary_fields_zones.h and _live.h.
// The parts' counter blocks (the FTL's, the SLC cache's, FDP's, the write
// buffer's) are declared once in records/, each with its list
// (records/field_list.h).
//
// Keys are written in nlohmann::json's order (sorted), whatever the order here.
#pragma once

#include "records/fdp_counters.h"
#include "records/slc_cache_counters.h"
#include "sim/results/checkpoint_fields.h"
#include "sim/results/device_counter_fields.h"
#include "sim/results/summary.h"
#include "sim/results/summary_fields_live.h"
#include "sim/results/summary_fields_tenants.h"
#include "sim/results/summary_fields_zones.h"

namespace ssdlab::sim {

template <typename V, typename R>
void fields(V& v, R& s) requires std::is_same_v<std::remove_const_t<R>, StateRecord> {
  v("mode", s.mode);
  v("wall_seconds", s.wall_seconds);
  v.optional("host_pages_written", s.host_pages_written);
  v.optional("flash_pages_written", s.flash_pages_written);
  v.optional("blocks_cleaned", s.blocks_cleaned);
  v.optional("write_amplification", s.write_amplification);
  v.optional("flash_pages_per_second", s.flash_pages_per_second);
  v.optional("threads", s.threads);
  v.optional("state_cache", s.state_cache);
  v.optional("state_file", s.state_file);
  v.optional("load_seconds", s.load_seconds);
  v.optional("bytes_written", s.bytes_written);
  v.optional("writes", s.writes);
}

template <typename V, typename R>
void fields(V& v, R& h) requires std::is_same_v<std::remove_const_t<R>, LifeHistogram> {
  v("below_40pct_of_mean", h.below_40pct_of_mean);
  v("below_80pct_of_mean", h.below_80pct_of_mean);
  v("below_100pct_of_mean", h.below_100pct_of_mean);
  v("at_or_above_mean", h.at_or_above_mean);
}

template <typename V, typename R>
void fields(V& v, R& b) requires std::is_same_v<std::remove_const_t<R>, EraseBuckets> {
  v("rated_cycles", b.rated_cycles);
  v("erases_from", b.erases_from);
  v("blocks", b.blocks);
}

template <typename V, typename R>
void fields(V& v, R& w) requires std::is_same_v<std::remove_const_t<R>, WearRecord> {
  v("rated_cycles", w.rated_cycles);
  v("wear_leveling", w.wear_leveling);
  v("remaining_life_mean", w.remaining_life_mean);
  v("remaining_life_stddev", w.remaining_life_stddev);
  v("remaining_life_min", w.remaining_life_min);
  v("blocks_expired", w.blocks_expired);
  v("blocks_retired", w.blocks_retired);
  v("remaining_life_histogram", w.remaining_life_histogram);
  v("remaining_life_buckets", w.remaining_life_buckets);
  v("rate_limit_deferrals", w.rate_limit_deferrals);
  v("migrations", w.migrations);
  v("migrations_per_pool", w.migrations_per_pool);
  v("migrated_pages", w.migrated_pages);
  v("migration_flash_us", w.migration_flash_us);
}

template <typename V, typename R>
void fields(V& v, R& c) requires std::is_same_v<std::remove_const_t<R>, VerificationRecord> {
  v("enabled", c.enabled);
  v("pages_checked", c.pages_checked);
}

template <typename V, typename R>
void fields(V& v, R& c) requires std::is_same_v<std::remove_const_t<R>, PowerCutRecord> {
  v("at_us", c.at_us);
  v("scan_pages", c.scan_pages);
  v("scan_time_us", c.scan_time_us);
  v("mount_merge_time_us", c.mount_merge_time_us);
  v("hold_up_time_us", c.hold_up_time_us);
  v("mount_time_us", c.mount_time_us);
  v("mount_commands", c.mount_commands);
  v("torn_pages", c.torn_pages);
  v("erases_undone", c.erases_undone);
  v("writes_in_flight", c.writes_in_flight);
  v("requests_resubmitted", c.requests_resubmitted);
  v("pages_checked", c.pages_checked);
  v("lost_writes", c.lost_writes);
  v("buffered_writes_lost", c.buffered_writes_lost);
  v.nonzero("paired_pages_lost", c.paired_pages_lost);  // (only where cells pair pages)
}

template <typename V, typename R>
void fields(V& v, R& p) requires std::is_same_v<std::remove_const_t<R>, PowerCutsRecord> {
  v("count", p.count);
  v("recovered", p.recovered);
  v("lost_writes", p.lost_writes);
  v("buffered_writes_lost", p.buffered_writes_lost);
  v("not_reached", p.not_reached);
  v("scan_pages", p.scan_pages);
  v("scan_time_us", p.scan_time_us);
  v("hold_up_time_us", p.hold_up_time_us);
  v("mean_mount_time_us", p.mean_mount_time_us);
  v("max_mount_time_us", p.max_mount_time_us);
  v("requests_resubmitted", p.requests_resubmitted);
  v.nonzero("paired_pages_lost", p.paired_pages_lost);
  v("cuts", p.cuts);
}

template <typename V, typename R>
void fields(V& v, R& l) requires std::is_same_v<std::remove_const_t<R>, LifetimeRecord> {
  v("until_expired", l.until_expired);
  v("stopped", l.stopped);
  v("end_of_life", l.end_of_life);
  v.optional("reason", l.reason);
  v.optional("experiment", l.experiment);
  v.optional("run", l.run);
  v.optional("ios_completed", l.ios_completed);
  v("host_pages_written", l.host_pages_written);
  v("simulated_us", l.simulated_us);
}

template <typename V, typename R>
void fields(V& v, R& c) requires std::is_same_v<std::remove_const_t<R>, LinearCostRecord> {
  v("fixed_us", c.fixed_us);
  v("per_kib_us", c.per_kib_us);
  v("r_squared", c.r_squared);
  v("points", c.points);
}

template <typename V, typename R>
void fields(V& v, R& r) requires std::is_same_v<std::remove_const_t<R>, BenchmarkTable::Row> {
  v("value", r.value);
  v("mean_us", r.mean_us);
}

template <typename V, typename R>
void fields(V& v, R& t) requires std::is_same_v<std::remove_const_t<R>, BenchmarkTable> {
  v.required("name", t.name);
  v("parameter", t.parameter);
  v("columns", t.columns);
  v("rows", t.rows);
  v.optional("linear_cost", t.linear_cost);
}

template <typename V, typename R>
void fields(V& v, R& t) requires std::is_same_v<std::remove_const_t<R>, TargetRecord> {
  v("path", t.path);
  v("kind", t.kind);
  v("bytes", t.bytes);
  v("sector_size", t.sector_size);
  v("direct", t.direct);
  v("created", t.created);
}

template <typename V, typename R>
void fields(V& v, R& p) requires std::is_same_v<std::remove_const_t<R>, TraceRecord::Partition> {
  v("offset", p.offset);
  v("bytes", p.bytes);
}

template <typename V, typename R>
void fields(V& v, R& t) requires std::is_same_v<std::remove_const_t<R>, TraceRecord> {
  v("file", t.file);
  v("format", t.format);
  v("format_detected", t.format_detected);
  v("compression", t.compression);
  v("mode", t.mode);
  v("queue_depth", t.queue_depth);  // null when absent
  v("speed", t.speed);
  v("map", t.map);
  v("trace_span_bytes", t.trace_span_bytes);
  v("device_filter", t.device_filter);
  v("start_requests", t.start_requests);
  v("start_us", t.start_us);
  v("limit", t.limit);
  v("lines", t.lines);
  v("records", t.records);
  v("skipped_lines", t.skipped_lines);
  v("bad_lines_skipped", t.bad_lines_skipped);
  v("zero_size_skipped", t.zero_size_skipped);
  v("other_device", t.other_device);
  v("before_start", t.before_start);
  v("realigned", t.realigned);
  v("remapped", t.remapped);
  v("out_of_order", t.out_of_order);
  v("replayed", t.replayed);
  v("trace_start_us", t.trace_start_us);
  v("trace_end_us", t.trace_end_us);
  v.optional("partition", t.partition);
  v("devices", t.devices);
  v.optional("device_bases", t.device_bases);
  v.optional("queue_depth_by_process", t.queue_depth_by_process);
  v("warnings", t.warnings);
  v.optional("placement_oracle_class_writes", t.oracle_class_writes);
  v.optional("placement_oracle_class_max_lifetime_pages", t.oracle_class_max_lifetime_pages);
}

template <typename V, typename R>
void fields(V& v, R& h) requires std::is_same_v<std::remove_const_t<R>, HistogramRecord> {
  v("from_us", h.from_us);
  v("to_us", h.to_us);
  v("counts", h.counts);
}

template <typename V, typename R>
void fields(V& v, R& m) requires std::is_same_v<std::remove_const_t<R>, MixRecord> {
  v("pattern", m.pattern);
  v("ratio", m.ratio);
}

template <typename V, typename R>
void fields(V& v, R& h) requires std::is_same_v<std::remove_const_t<R>, HotColdRecord> {
  v("hot_fraction", h.hot_fraction);
  v("hot_access", h.hot_access);
}

// Percentiles may be missing from hand-made files: not a number then (the
// reader starts from NaN). Each asked-for percentile is also its own key
// (p99_9_us), written only: the "percentiles" object is what is read.
template <typename V, typename R>
void fields(V& v, R& r) requires std::is_same_v<std::remove_const_t<R>, PageTypeReadRecord> {
  v("page_type", r.page_type);
  v("reads", r.reads);
  v("mean_us", r.mean_us);
  v("p50_us", r.p50_us);
  v("p99_us", r.p99_us);
  v("max_us", r.max_us);
}

template <typename V, typename R>
void fields(V& v, R& r) requires std::is_same_v<std::remove_const_t<R>, RunRecord> {
  v("run", r.run);
  v("count", r.count);
  v("ignored", r.ignored);
  v("min_us", r.min_us);
  v("max_us", r.max_us);
  v.required("mean_us", r.mean_us);
  v("stddev_us", r.stddev_us);
  v("p50_us", r.p50_us);
  v("p99_us", r.p99_us);
  v("iops", r.iops);
  v("mb_per_s", r.mb_per_s);
  v.nonzero("trims", r.trims);
  v.nonzero("trim_iops", r.trim_iops);
  v.nonzero("refused", r.refused);
  v.nonzero("zone_management", r.zone_management);
  v.percentiles("percentiles", r.percentiles);
  v("histogram", r.histogram);
  v("percentile_method", r.percentile_method);
  v.optional("startup_ios", r.startup_ios);
  v.optional("start_us", r.start_us);
  v.optional("end_us", r.end_us);
  v.optional("device", r.device);
  v.optional("stopped", r.stopped);
  v.optional("read_latency_by_page_type", r.read_latency_by_page_type);
}

// A plan's experiment has its plan keys; a trace's its trace block.
template <typename V, typename R>
void fields(V& v, R& e) requires std::is_same_v<std::remove_const_t<R>, ExperimentRecord> {
  v.required("name", e.name);
  v("pattern", e.pattern);
  v("count", e.count);
  v("processes", e.processes);
  v("io_ignore", e.io_ignore);
  if (e.is_trace() || e.is_live()) {
    v("queue_depth", e.trace_queue_depth);  // null in open loop
    v.optional("trims", e.trims);
    v.optional("trace", e.trace);
  } else {
    v("queue_depth", e.queue_depth);
    v("io_size", e.io_size);
    v("target_offset", e.target_offset);
    v("target_size", e.target_size);
    v("seed", e.seed);
    v("io_shift", e.io_shift);
    v("increment", e.increment);
    v("partitions", e.partitions);
    v("pause_us", e.pause_us);
    v("burst", e.burst);
    v("run_pause_us", e.run_pause_us);
    v.optional("mix", e.mix);
    v.optional("hot_cold", e.hot_cold);
    v.optional("zipf", e.zipf);
    v.optional("benchmark", e.benchmark);
    v.optional("column", e.column);
    v.optional("parameter", e.parameter);
    v.optional("value", e.value);
    v.optional("state_reset", e.state_reset);
    v.optional("prefilled_pages", e.prefilled_pages);
  }
  v.required("runs", e.runs);
}

template <typename V, typename R>
void fields(V& v, R& s) requires std::is_same_v<std::remove_const_t<R>, SummaryRecord> {
  v("schema_version", s.schema_version);
  v.version("ssdlab", s.ssdlab_version);
  v("workload", s.workload);
  v("seed", s.seed);
  v("logical_bytes", s.logical_bytes);
  v("precondition", s.precondition);  // null: none
  v.optional("simulated_us", s.simulated_us);
  v.optional("prefilled_pages", s.prefilled_pages);
  v.required("experiments", s.experiments);
  v.optional("benchmarks", s.benchmarks);
  v.optional("lifetime", s.lifetime);
  v.optional("layout", s.layout);
  v.optional("target", s.target);
  v.optional("live", s.live);
  v.optional("device", s.device);
  v.optional("wear", s.wear);
  v.optional("slc_cache", s.slc_cache);
  v.optional("fdp", s.fdp);
  v.optional("zones", s.zones);
  v.optional("host_log", s.host_log);
  v.optional("tenants", s.tenants);
  v.optional("fairness", s.fairness);
  v.optional("verification", s.verification);
  v.optional("config", s.config);
  v.optional("power_cuts", s.power_cuts);
  v.optional("checkpoint", s.checkpoint);
}

}  // namespace ssdlab::sim
