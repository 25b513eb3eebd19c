// Agrawal et al., "Design Tradeoffs for SSD Performance" (USENIX ATC 2008):
// Table 3 (microbenchmarks), Table 4 (shared-bus gangs), Table 5
// (copy-back and cleaning efficiency), Figure 8 (cleaning threshold),
// Tables 7 and 8 (wear leveling), Figure 6 (interleaving). Paper values are
// copied from the tables.
#include <fmt/format.h>

#include "repro/experiment.h"

namespace ssdlab::repro {
namespace {

constexpr const char* kBaseline = "agrawal-baseline.toml";

// Table 3's "Random write, cleaning" workload, from DiskSim's synthetic
// generator as the paper ran it (§4.3): random writes confined to 7,018,904
// sectors (3.35 GiB, ~12% of the 27.2 GiB logical space) of a device whose
// every logical page is mapped (--precondition seq), sizes exponential with
// mean 4 KiB rounded up to whole 4 KiB pages, open-loop arrivals uniform over
// 0-1 ms. The first 1,000,000 writes bring the region's blocks to a steady
// state (cleaning starts once the spare above 5% is used) and are not measured.
std::string disksim_random_writes(const char* count, const char* ignore, const char* extra) {
  return fmt::format(
      "RW:io_size=4096,size_distribution=exponential:4KiB,target_size=3593678848,"
      "count={},io_ignore={}{}",
      count, ignore, extra);
}

SimRun plain(const char* pattern, int queue_depth) {
  return {kBaseline,
          fmt::format("{}:io_size=4096,count=100000,queue_depth={}", pattern, queue_depth),
          "",
          {},
          fmt::format("{}:io_size=4096,count=10000,queue_depth={}", pattern, queue_depth),
          {}};
}

SimRun sequential_cleaning(int queue_depth) {
  return {kBaseline,
          fmt::format("SW:io_size=4096,count=500000,queue_depth={}", queue_depth),
          "seq:1",
          {},
          fmt::format("SW:io_size=4096,count=50000,queue_depth={}", queue_depth),
          {}};
}

SimRun random_cleaning_open_loop() {
  return {kBaseline,
          disksim_random_writes("2000000", "1000000", ",interarrival_us=uniform:0:1000"),
          "seq",
          {},
          disksim_random_writes("1000000", "800000", ",interarrival_us=uniform:0:1000"),
          {}};
}

SimRun random_cleaning_qd8() {
  return {kBaseline, disksim_random_writes("2000000", "1000000", ",queue_depth=8"), "seq", {},
          disksim_random_writes("1000000", "800000", ",queue_depth=8"), {}};
}

Row table3(const char* id, int row, const char* quantity, double paper, double tolerance,
           SimRun run, Metric metric, const char* note) {
  return Row{"agrawal",
             fmt::format("agrawal/table3/{}", id),
             fmt::format("Table 3, row {}", row),
             quantity,
             fmt::format("{:g}", paper),
             paper,
             Check::kValue,
             tolerance,
             1.0,
             {Measure{"", std::move(run), "", metric}},
             note};
}

std::vector<Row> table3_rows() {
  const char* kLatency = "mean response time (µs), 4 KiB";
  const char* kIops = "IO/s, 4 KiB, 8 outstanding (one per package)";
  const char* kQd1 =
      "Queue depth 1 (the paper gives only '4 KB I/O operations'; one at a time is the "
      "latency of one).";
  const char* kIopsNote =
      "The paper's IO/s is 8 packages / latency in every row (8e6/130 = 61,538 ≈ 61,255 for "
      "130.6 µs); measured here with 8 outstanding.";
  const char* kRandomIops =
      "Random addresses at 8 outstanding land on the same package for some requests and wait; "
      "the paper's figure is 8 packages / latency, which assumes they never do.";
  return {
      table3("seq-read/latency", 1, kLatency, 130, 0.03, plain("SR", 1), Metric::kMeanUs, kQd1),
      table3("seq-read/iops", 1, kIops, 61255, 0.03, plain("SR", 8), Metric::kIops, kIopsNote),
      table3("random-read/latency", 2, kLatency, 130, 0.03, plain("RR", 1), Metric::kMeanUs, kQd1),
      table3("random-read/iops", 2, kIops, 61255, 0.03, plain("RR", 8), Metric::kIops,
             kRandomIops),
      table3("seq-write/latency", 3, kLatency, 309, 0.03, plain("SW", 1), Metric::kMeanUs,
             "Table 1's timing gives 305.6 µs; the paper's 309 is 3.3 µs (132 bus bytes) more, "
             "which the model does not invent."),
      table3("seq-write/iops", 3, kIops, 25898, 0.03, plain("SW", 8), Metric::kIops, kIopsNote),
      table3("random-write/latency", 4, kLatency, 309, 0.03, plain("RW", 1), Metric::kMeanUs,
             "Fresh device: no cleaning in 100,000 writes."),
      table3("random-write/iops", 4, kIops, 25898, 0.03, plain("RW", 8), Metric::kIops,
             kRandomIops),
      table3("seq-write-cleaning/latency", 5, kLatency, 327, 0.10, sequential_cleaning(1),
             Metric::kMeanUs,
             "After --precondition seq:1 (two sequential passes): each cleaned block is wholly "
             "superseded, cleaning is one erase per 64 writes."),
      table3("seq-write-cleaning/iops", 5, kIops, 24457, 0.10, sequential_cleaning(8),
             Metric::kIops, kIopsNote),
      table3("random-write-cleaning/latency", 6, kLatency, 433, 0.10, random_cleaning_open_loop(),
             Metric::kMeanUs,
             "The paper's DiskSim workload (§4.3): 3.35 GiB region of a fully mapped device, "
             "exponential sizes (mean 4 KiB, rounded up to 4 KiB), open-loop arrivals uniform "
             "over 0-1 ms; mean over writes 1,000,001 to 2,000,000. Write amplification is "
             "about 1.2 and the median the unloaded 305.6 µs; the mean misses by the writes "
             "that wait for foreground cleaning (ftl.cleaning_blocks_writes = true), with "
             "open-loop arrivals queueing behind them. Per-plane, one-victim cleaning (the "
             "agrawal presets) and the queued flash scheduler brought it from about 1690 µs "
             "to under 600 µs; docs/cleaning-scope-and-granularity.md measures the rest."),
      table3("random-write-cleaning/iops", 6, kIops, 18480, 0.10, random_cleaning_qd8(),
             Metric::kIops,
             "The same region and sizes, closed loop with 8 outstanding (open-loop arrivals "
             "measure the arrival rate, not the device). Requests of several pages, package "
             "collisions and the cleaning stalls of the latency row make this lower than "
             "8 / latency."),
  };
}

// Table 4's stand-in for the Exchange trace, which is not available, from
// what the paper says of Exchange and of how it ran it: "about a 3:2
// read-to-write ratio" (§4.2), random 4 KiB requests (the paper gives only
// "variable size"; 4 KiB is its page and stripe), one at a time (a light
// load: "this workload requires only about 900 IOPS", and Table 4's "IOPS
// per gang" is 1 / latency, no queueing), on a device whose every logical
// page is mapped (--precondition seq, as DiskSim starts, ssd_init.c) and
// that writes too little in the run to clean (65,000 requests in 15 minutes
// over 10 SSDs, §4.2-4.3): what sets the rise is the gang's own costs.
SimRun exchange_stand_in(const char* config, std::vector<std::string> overrides) {
  return {config,
          "RW:io_size=4096,read_share=0.6,count=20000,io_ignore=0",
          "seq",
          std::move(overrides),
          "RW:io_size=4096,read_share=0.6,count=4000,io_ignore=0",
          {"geometry.blocks_per_plane=256"}};
}

std::vector<Row> gang_rows() {
  // The paper's gangs are synchronous shared-bus gangs (§4: "8-wide (32KB)
  // and 16-wide (64KB) shared-bus gangs"; DiskSim's SYNC_GANG): one queued
  // unit per bus with a gang page, every partial write moving the whole gang
  // page over the bus (configs/agrawal-gang8-shared-bus-sync.toml). Ganging
  // scales capacity without scaling pins (§3.3), so the columns are compared
  // at the same 16 packages (64 GiB): 16 buses, two 8-gangs (2 buses), one
  // 16-gang (1 bus); one request at a time, the bus count does not matter.
  auto gang = [](const char* label, const char* config, std::vector<std::string> overrides) {
    return Measure{label, exchange_stand_in(config, std::move(overrides)), "", Metric::kMeanUs};
  };
  return {Row{"agrawal", "agrawal/table4/shared-bus-latency", "Table 4",
              "mean response time (µs), random 4 KiB reads and writes 3:2, one at a time, "
              "16 packages (64 GiB) on 16, 2 and 1 buses; the rise from no gang to the 16-gang",
              "Exchange: 237, 553, 746 µs (no gang, 8-gang, 16-gang): x3.15", 746.0 / 237.0,
              Check::kRatio, 0.45, 1.0,
              {gang("no gang", "agrawal-baseline.toml", {"geometry.channels=16"}),
               gang("8-gang", "agrawal-gang8-shared-bus-sync.toml", {"geometry.channels=2"}),
               gang("16-gang", "agrawal-gang16-shared-bus-sync.toml", {})},
              "The size of the rise, last over first. The Exchange trace is not available; the "
              "stand-in follows what the paper says of it and of the gang (§4.2-4.3): 3:2 "
              "reads:writes of 4 KiB at random, one at a time (Exchange needs 'only about 900 "
              "IOPS'; Table 4's IOPS per gang is 1 / latency), every logical page mapped and too "
              "few writes to clean. The gangs are synchronous shared-bus gangs "
              "(agrawal-gang8/16-shared-bus-sync, DiskSim's SYNC_GANG): a 4 KiB write costs a "
              "25 µs register read, the whole gang page over the one bus and one program "
              "(305.6, 1069.8, 1914.6 µs), a 4 KiB read 130.6 µs in all three. The tolerance is "
              "what the stand-in cannot know of Exchange (its request sizes, its exact mix): the "
              "authors' own simulator on this stand-in gives 204, 528, 904 µs, x4.43, 41% above "
              "the paper's x3.15 (docs/model.md, 'A Table 4-style comparison'); ±45% admits it "
              "and still rejects the asynchronous shared-bus gang's x1.08 (agrawal-gang8/16-"
              "shared-bus, packages each with its own queues)."}};
}

// Figure 6: the same queued workload with interleaving none, dies, planes
// (flash/scheduler.h); throughput rises with each.
std::vector<Row> interleaving_rows() {
  auto with = [](const char* label, const char* interleaving) {
    return Measure{label,
                   SimRun{kBaseline,
                          "SW:io_size=262144,count=2000,queue_depth=8",
                          "",
                          {fmt::format("geometry.interleaving=\"{}\"", interleaving)},
                          "SW:io_size=262144,count=400,queue_depth=8",
                          {}},
                   "", Metric::kIops};
  };
  return {Row{"agrawal", "agrawal/figure6/interleaving", "Figure 6",
              "IO/s, 256 KiB sequential writes striped over the packages, 8 outstanding",
              "throughput rises from None to Dies to Plane-pairs", std::nullopt,
              Check::kIncreasing, 0.02, 1.0,
              {with("none", "none"), with("dies", "dies"), with("planes", "planes")},
              "Dies overlap their programs behind one bus; plane pairs add two-plane "
              "commands joined across queued requests, which this striped workload already "
              "forms inside each request, so planes adds little over dies here."}};
}

}  // namespace

std::vector<Row> agrawal_rows() {
  std::vector<Row> rows = table3_rows();
  for (Row& row : gang_rows()) rows.push_back(std::move(row));
  for (Row& row : interleaving_rows()) rows.push_back(std::move(row));
  for (Row& row : cleaning_rows()) rows.push_back(std::move(row));
  for (Row& row : wear_rows()) rows.push_back(std::move(row));
  return rows;
}

}  // namespace ssdlab::repro
