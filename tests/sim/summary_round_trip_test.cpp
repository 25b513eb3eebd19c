// summary.json's one typed model (sim/results/summary.h) round trip: a record
// written by to_json and read back by summary_from_json is the same record,
// for every kind of block (plan, uFLIP tables, traces, probe, power cuts,
// checkpoints); and the files real runs write read back into records that
// write the same bytes again.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "run_support.h"
#include "sim/config/config.h"
#include "sim/results/output.h"
#include "sim/results/summary.h"
#include "sim/run/probe.h"
#include "test_support.h"

namespace ssdlab::sim {
namespace {

// The device config the records describe.
const DeviceConfig& tiny() {
  static const DeviceConfig config = testing::load_preset("tiny");
  return config;
}

// Every member compared; the config (no operator==) by its echo.
void expect_same(const SummaryRecord& a, const SummaryRecord& b) {
  EXPECT_EQ(a.schema_version, b.schema_version);
  EXPECT_EQ(a.ssdlab_version, b.ssdlab_version);
  EXPECT_EQ(a.workload, b.workload);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.logical_bytes, b.logical_bytes);
  EXPECT_EQ(a.precondition, b.precondition);
  EXPECT_EQ(a.simulated_us, b.simulated_us);
  EXPECT_EQ(a.prefilled_pages, b.prefilled_pages);
  EXPECT_EQ(a.experiments, b.experiments);
  EXPECT_EQ(a.benchmarks, b.benchmarks);
  EXPECT_EQ(a.lifetime, b.lifetime);
  EXPECT_EQ(a.layout, b.layout);
  EXPECT_EQ(a.target, b.target);
  EXPECT_EQ(a.device, b.device);
  EXPECT_EQ(a.wear, b.wear);
  EXPECT_EQ(a.slc_cache, b.slc_cache);
  EXPECT_EQ(a.fdp, b.fdp);
  EXPECT_EQ(a.zones, b.zones);
  EXPECT_EQ(a.host_log, b.host_log);
  EXPECT_EQ(a.verification, b.verification);
  EXPECT_EQ(a.config, b.config);
  EXPECT_EQ(a.power_cuts, b.power_cuts);
  EXPECT_EQ(a.checkpoint, b.checkpoint);
}

// struct -> json -> struct, and the JSON of both the same.
void expect_round_trip(const SummaryRecord& record) {
  const nlohmann::json json = record;
  const SummaryRecord back = summary_from_json(json, "record");
  expect_same(record, back);
  EXPECT_EQ(back.text(), record.text());
}

RunRecord run(std::uint32_t number, double mean_us) {
  RunRecord r;
  r.run = number;
  r.count = 100 + number;
  r.ignored = number;
  r.min_us = mean_us / 2;
  r.max_us = mean_us * 3;
  r.mean_us = mean_us;
  r.stddev_us = 1.25;
  r.p50_us = mean_us;
  r.p99_us = mean_us * 2;
  r.iops = 1234.5;
  r.mb_per_s = 5.055;
  r.percentiles = {{50, mean_us}, {99.9, mean_us * 2.5}};
  r.histogram = {{0.008, 1.024}, {0.01, 1.28}, {3, 7}};
  return r;
}

// A simulated run: its span and device counters, with a write buffer and
// program/erase suspend.
RunRecord simulated_run(std::uint32_t number, const DeviceConfig& config) {
  RunRecord r = run(number, 80.5);
  r.start_us = 10.0 * number;
  r.end_us = 10.0 * number + 7.5;
  DeviceCounters& d = r.device.emplace();
  d.ftl.host_pages_written = 40 + number;
  d.ftl.flash_pages_written = 90;
  d.ftl.blocks_cleaned = 3;
  d.ftl.background_blocks_cleaned = 1;
  d.ftl.pages_reclaimed = 100;
  d.ftl.blocks_cleaned_per_pool = {3};
  d.ftl.wear_migrations_per_pool = {0};
  d.cleaning_ns = 123456;
  d.background_cleaning_ns = 456;
  d.bus_busy_ns = 777000;
  d.buffer = records::WriteBufferCounters{5, 1, 2, 3, 4, 1, 1, 2500};
  d.suspend = records::SuspendCounters{6 + number, 2};
  d.pages_per_block = config.geometry.pages_per_block;  // read back from the config
  return r;
}

// What ssdlab sim adds at the end, on the tiny preset.
void add_device(SummaryRecord& s) {
  s.schema_version = kSummarySchemaVersion;
  s.ssdlab_version = "9.9.9";
  s.seed = 7;
  s.logical_bytes = 1 << 20;
  s.simulated_us = 1234.5;
  s.prefilled_pages = 12;
  s.config = to_json(tiny());
  s.device = simulated_run(0, tiny()).device;
  WearRecord& w = s.wear.emplace();
  w.rated_cycles = 3000;
  w.wear_leveling = "none";
  w.remaining_life_mean = 2999.5;
  w.remaining_life_buckets = {3000, {0, 1, 2, 3000}, {10, 4, 2, 0}};
  w.remaining_life_histogram = {0, 1, 2, 13};
  w.migrations_per_pool = {0};
  s.verification = VerificationRecord{true, 4096};
  s.precondition = StateRecord{"random", 0.25, 10, 20, 1, 2.0, 80.0, {}, {}, {}, {}, {}, {}};
}

ExperimentRecord plan_experiment(const std::string& name, const DeviceConfig& config) {
  ExperimentRecord e;
  e.name = name;
  e.pattern = "RW";
  e.count = 100;
  e.io_size = 4096;
  e.target_size = 1 << 20;
  e.seed = 42;
  e.increment = -2;
  e.pause_us = 2.5;
  e.io_ignore = {true, 0};
  for (std::uint32_t r = 0; r < 2; ++r) e.runs.push_back(simulated_run(r, config));
  e.runs[0].startup_ios = 3;
  return e;
}

TEST(SummaryRoundTrip, PlanWithMixSkewLifetimeAndStateResets) {
  SummaryRecord s;
  add_device(s);
  s.workload = "RW:count=100";
  ExperimentRecord e = plan_experiment("rw", tiny());
  e.mix = MixRecord{"SR", 3};
  e.hot_cold = HotColdRecord{0.2, 0.8};
  e.zipf = 0.9;
  e.state_reset.emplace(std::nullopt);  // state enforcement of "none": null
  e.prefilled_pages = 5;
  e.runs[1].stopped = "lifetime limit";
  e.runs[1].percentile_method = "histogram, relative error <= 0.195%";
  s.experiments.push_back(e);
  e.name = "rw-2";
  e.state_reset.emplace(s.precondition);
  e.io_ignore = {false, 7};
  s.experiments.push_back(e);
  s.benchmarks.emplace();
  s.lifetime = LifetimeRecord{4, true, false, "lifetime limit", "rw", 1, 101, 4000, 99.5};
  expect_round_trip(s);
}

TEST(SummaryRoundTrip, UflipTablesWithLinearCost) {
  SummaryRecord s;
  add_device(s);
  for (const char* value : {"4096", "8192"}) {
    ExperimentRecord e = plan_experiment(std::string("granularity-") + value, tiny());
    e.benchmark = "granularity";
    e.column = "SW";
    e.parameter = "io_size";
    e.value = value;
    s.experiments.push_back(e);
  }
  BenchmarkTable table{"granularity", "io_size", {"SR", "SW"}, {}, {}};
  table.rows = {{"4096", {{"SW", 80.5}}}, {"8192", {{"SR", 1.5}, {"SW", 90.25}}}};
  table.linear_cost.emplace()["SW"] = LinearCostRecord{70.75, 4.938, 0.9999, 2};
  s.benchmarks = {table, BenchmarkTable{"locality", "target_size", {"RW"}, {}, {}}};
  s.lifetime.emplace();
  expect_round_trip(s);
}

TraceRecord trace_block(bool open) {
  TraceRecord t;
  t.file = "traces/examples/synthetic.csv";
  t.format = "msr";
  t.format_detected = true;
  t.compression = "none";
  t.mode = open ? "open" : "closed";
  if (open)
    t.speed = 2.0;
  else
    t.queue_depth = 4;
  t.map = "scale";
  t.trace_span_bytes = 1 << 30;
  t.device_filter = 2;
  t.start_us = 1500.5;
  t.lines = 10;
  t.records = 9;
  t.replayed = 8;
  t.trace_end_us = 99.25;
  t.devices = "side-by-side";
  t.device_bases = std::map<std::string, std::uint64_t>{{"1", 0}, {"10", 4096}};
  t.warnings = {"a warning"};
  return t;
}

TEST(SummaryRoundTrip, OneAndSeveralTracesOpenAndClosed) {
  SummaryRecord s;
  add_device(s);
  for (const bool open : {true, false}) {
    ExperimentRecord e;
    e.name = open ? "open" : "closed";
    e.pattern = "trace";
    e.count = 8;
    e.trims = 2;
    if (!open) e.trace_queue_depth = 4;
    e.queue_depth = e.trace_queue_depth.value_or(1);
    e.io_ignore = {false, 0};
    e.trace = trace_block(open);
    if (!open) e.trace->partition = TraceRecord::Partition{4096, 8192};
    e.runs.push_back(simulated_run(0, tiny()));
    s.experiments.push_back(e);
  }
  expect_round_trip(s);
  s.layout = "partitioned";
  expect_round_trip(s);
}

TEST(SummaryRoundTrip, ProbeOnAFile) {
  SummaryRecord s;
  s.schema_version = kSummarySchemaVersion;
  s.workload = "RW:count=10";
  s.logical_bytes = 16 << 20;
  s.precondition = StateRecord{"seq", 0.5, {}, {}, {}, {}, {}, 16 << 20, 128, {}, {}, {}, {}};
  ExperimentRecord e;
  e.name = "rw";
  e.pattern = "RW";
  e.runs = {run(0, 50), run(1, 60)};
  e.state_reset.emplace(s.precondition);
  s.experiments.push_back(e);
  s.benchmarks.emplace();
  s.target = TargetRecord{"/tmp/probe.img", "file", 16 << 20, 512, true, true};
  expect_round_trip(s);
}

TEST(SummaryRoundTrip, PowerCutsAndCheckpoints) {
  SummaryRecord s;
  add_device(s);
  s.experiments.push_back(plan_experiment("rw", tiny()));
  PowerCutsRecord& cuts = s.power_cuts.emplace();
  cuts.count = 2;
  cuts.recovered = 2;
  cuts.not_reached = 1;
  cuts.mean_mount_time_us = 12.5;
  for (int i = 1; i <= 2; ++i) {
    PowerCutRecord cut;
    cut.at_us = 100.5 * i;
    cut.torn_pages = i;
    cut.mount_time_us = 12.5;
    cuts.cuts.push_back(cut);
  }
  LoadedCheckpoint loaded;
  loaded.file = "a.state";
  loaded.bytes = 1000;
  loaded.seconds = 0.25;
  loaded.config_differs = {"timing.read_us"};
  loaded.info = {.ssdlab_version = "0.1.0",
                 .format = 6,
                 .config = {{"geometry", {{"pages_per_block", 16}}}},
                 .provenance = {.saved_after = "run", .workload = "RW", .seed = 1}};
  loaded.info.provenance.run = Provenance::Run{.config = "tiny.toml", .sets = {"ftl.type=fast"}};
  s.checkpoint = CheckpointRecord{
      loaded, SavedCheckpoint{.skipped = "the device reached its end of life during the run"}};
  expect_round_trip(s);
  loaded.info.provenance.run.reset();
  loaded.info.provenance.precondition = "random";
  loaded.info.provenance.cache = Provenance::Cache{.state_cache_key = {{"seed", 1}}};
  loaded.info.provenance.cache->figures.mode = "random";
  s.checkpoint = CheckpointRecord{loaded, std::nullopt};
  expect_round_trip(s);
  s.checkpoint = CheckpointRecord{std::nullopt, SavedCheckpoint{.file = "b.state", .bytes = 9}};
  expect_round_trip(s);
}

// A real run into the folder `out`: `ssdlab sim` or `ssdlab probe`, run
// in-process.
using RealRun = std::function<void(const std::filesystem::path& out)>;

// `ssdlab sim -c configs/PRESET.toml --quiet` with these workloads (-w) and
// --set overrides; `more` sets the other options.
RealRun sim_run(const std::string& preset, const std::vector<std::string>& workloads,
                const std::vector<std::string>& overrides = {},
                const std::function<void(SimOptions&, TraceOptions&)>& more = {}) {
  return [=](const std::filesystem::path& out) {
    auto options = testing::sim_options("", overrides);
    options.quiet = true;
    TraceOptions trace;
    if (more) more(options, trace);
    std::ostringstream printed;
    testing::sim_preset(preset, out, options, workloads, trace, printed);
  };
}

// Runs of each kind, by name, their states and probe target in `dir`.
std::vector<std::pair<std::string, RealRun>> real_runs(const std::filesystem::path& dir) {
  const std::string trace =
      "trace:" + std::string(SSDLAB_SOURCE_DIR) + "/traces/examples/synthetic.csv";
  const std::string state = (dir / "s.state").string(), tlc_state = (dir / "tlc.state").string();
  const auto precondition = [](std::string how) {
    return [how](SimOptions& options, TraceOptions&) { options.precondition = how; };
  };
  const auto probe = [dir](const std::filesystem::path& out) {
    ProbeOptions options;
    options.target = (dir / "probe.img").string();
    options.size = std::uint64_t{4} << 20;  // 4MiB
    options.workload = "RW:count=50,runs=2";
    options.outdir = out.string();
    options.quiet = true;
    std::ostringstream printed;
    run_probe(options, printed);
  };
  return {{"plan", sim_run("tiny", {"RW:count=500,runs=2,io_ignore=auto"}, {},
                           [](SimOptions& options, TraceOptions&) {
                             options.percentiles = parse_percentiles("50,99.9");
                           })},
          {"uflip", sim_run("tiny", {"uflip:granularity:count=16,runs=1"})},
          {"trace", sim_run("tiny", {trace, trace}, {},
                            [](SimOptions&, TraceOptions& t) { t.layout = "partitioned"; })},
          {"power",
           sim_run("tiny", {"RW:count=3000"}, {},
                   [](SimOptions& options, TraceOptions&) { options.power_cuts = {"random:2"}; })},
          {"verify", sim_run("tiny", {"RW:count=300"}, {},
                             [](SimOptions& options, TraceOptions&) {
                               options.verify = true;
                               options.precondition = "random";
                             })},
          {"checkpoint",
           sim_run("tiny", {"RW:count=300"}, {},
                   [state](SimOptions& options, TraceOptions&) { options.save_state = state; })},
          {"loaded",
           sim_run("tiny", {"RR:count=300"}, {},
                   [state](SimOptions& options, TraceOptions&) { options.load_state = state; })},
          {"probe", probe},
          // A TLC device: the cell counters and the cell keys of the config echo,
          // and its timeline's counters through a checkpoint.
          {"tlc", sim_run("tiny-tlc", {"RW:count=2000"}, {},
                          [tlc_state](SimOptions& options, TraceOptions&) {
                            options.precondition = "random";
                            options.save_state = tlc_state;
                          })},
          {"tlc-loaded", sim_run("tiny-tlc", {"RR:count=300"}, {},
                                 [tlc_state](SimOptions& options, TraceOptions&) {
                                   options.load_state = tlc_state;
                                 })},
          // The parts' records (records/): an SLC cache, FDP, zones and the
          // host's log over them, with their derived keys.
          {"slc",
           sim_run("tiny-tlc", {"RW:count=2000"},
                   {"slc_cache.mode=dynamic", "slc_cache.size_gib=0.002"}, precondition("random"))},
          {"fdp", sim_run("tiny", {"RW:count=2000"}, {"ftl.placement=fdp", "ftl.fdp_handles=2"})},
          {"zones", sim_run("tiny", {"RW:count=2000"},
                            {"ftl.type=zoned", "ftl.zone_width=2", "ftl.overprovisioning=0.03",
                             "host.log.overprovisioning=0.12"},
                            precondition("seq"))}};
}

// Real runs of each kind: the file read back writes the same bytes.
TEST(SummaryRoundTrip, FilesOfRealRunsReadBackToTheSameBytes) {
  const auto dir = testing::temp_dir_for_this_test("summary-round-trip-");
  for (const auto& [name, run] : real_runs(dir)) {
    SCOPED_TRACE(name);
    const auto out = dir / name;
    ASSERT_NO_THROW(run(out));
    const std::string text = testing::read_file(out / "summary.json");
    const SummaryRecord record = read_summary(out / "summary.json");
    EXPECT_EQ(record.text(), text);
    expect_round_trip(record);
  }
}

}  // namespace
}  // namespace ssdlab::sim
