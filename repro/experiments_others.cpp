// uFLIP (Bouganim, Jónsson, Bonnet, CIDR 2009), Desnoyers (HotStorage 2013)
// and Ajwani et al. (WEA 2008): trends the papers report on real devices,
// checked on the presets that model such devices (configs/bast-ssd.toml,
// usb-stick.toml, agrawal-background-cleaning.toml). The papers' devices are
// not modelled one by one, so these rows compare directions and the ratios
// the papers state, not milliseconds.
#include <fmt/format.h>

#include "common/units.h"
#include "repro/experiment.h"

namespace ssdlab::repro {
namespace {

// An inline experiment after --precondition seq (the device written once).
SimRun written(const char* config, const std::string& workload,
               std::vector<std::string> overrides = {}) {
  return {config, workload, "seq", std::move(overrides), "", {}};
}

Measure mean_of(std::string label, SimRun run, Metric metric = Metric::kMeanUs) {
  return {std::move(label), std::move(run), "", metric};
}

std::vector<Row> uflip_rows() {
  std::vector<Measure> granularity, locality;
  for (const char* size : {"4KiB", "16KiB", "64KiB", "256KiB"})
    granularity.push_back(mean_of(
        size, written("bast-ssd.toml", fmt::format("SW:io_size={},count=2000", size))));
  for (const char* area : {"128KiB", "1MiB", "8MiB", "32MiB", "128MiB"})
    locality.push_back(mean_of(
        area, written("bast-ssd.toml",
                      fmt::format("RW:io_size=32KiB,count=3000,io_ignore=1000,target_size={}",
                                  area))));
  const SimRun sw32 = written("bast-ssd.toml", "SW:io_size=32KiB,count=3000,io_ignore=1000");
  std::vector<Measure> pauses;
  for (const int pause : {0, 400, 1600, 6400})
    pauses.push_back(mean_of(
        fmt::format("{} µs", pause),
        SimRun{"agrawal-background-cleaning.toml",
               fmt::format("RW:io_size=32KiB,count=4000,io_ignore=1000{}",
                           pause ? fmt::format(",pause_us={}", pause) : std::string()),
               "random",
               {"geometry.blocks_per_plane=256"},
               "",
               {}}));
  return {
      Row{"uflip", "uflip/granularity/sw", "§5.2, Figures 6 and 7",
          "mean response time of sequential writes (µs) by I/O size",
          "'response time is linear' in the I/O size", std::nullopt, Check::kIncreasing, 0, 1.0,
          granularity, "bast-ssd preset, after --precondition seq."},
      Row{"uflip", "uflip/alignment/rw", "§5.2 ('Other results')",
          "mean response time of 32 KiB random writes, shifted 512 B over aligned",
          "Samsung: 18 ms aligned, 32 ms unaligned", std::nullopt, Check::kAtLeast, 0, 1.0,
          {mean_of("shift 512 B",
                   written("bast-ssd.toml", "RW:io_size=32KiB,count=3000,io_ignore=1000,"
                                            "io_shift=512")),
           mean_of("aligned",
                   written("bast-ssd.toml", "RW:io_size=32KiB,count=3000,io_ignore=1000"))},
          "Direction only (ratio > 1): a shifted write touches one more page, partly."},
      Row{"uflip", "uflip/locality/rw", "§5.2, Figure 8",
          "mean response time of 32 KiB random writes (µs) by target size",
          "grows with the target size; near sequential writes within a small area",
          std::nullopt, Check::kIncreasing, 0.02, 1.0, locality,
          "bast-ssd preset (16 log blocks of 1 MiB)."},
      Row{"uflip", "uflip/locality/small-area", "Table 3 ('Locality' column)",
          "32 KiB random writes within 1 MiB over sequential writes",
          "x1 to x2 within the locality area (Memoright '=', Mtron 'x2')", std::nullopt,
          Check::kAtMost, 0, 2.0, {locality[1], mean_of("SW", sw32)},
          "Bound 2: the high-end SSDs' worst factor in Table 3."},
      Row{"uflip", "uflip/pause/rw", "§5.2, Table 3 ('Pause' column)",
          "mean response time of 32 KiB random writes (µs) by pause between them",
          "with asynchronous reclamation a pause makes random writes as cheap as sequential",
          std::nullopt, Check::kDecreasing, 0.02, 1.0, pauses,
          "agrawal-background-cleaning preset at 4 GiB (blocks_per_plane=256), steady state "
          "of random writes: idle time lets background cleaning run."},
  };
}

std::vector<Row> desnoyers_rows() {
  std::vector<Measure> bast, page;
  for (const char* area : {"4MiB", "16MiB", "24MiB", "64MiB"}) {
    const std::string workload =
        fmt::format("RW:io_size=4096,count=20000,io_ignore=4000,target_size={}", area);
    bast.push_back(mean_of(area, written("bast-ssd.toml", workload)));
    page.push_back(
        mean_of(area, written("bast-ssd.toml", workload, {"ftl.type=page-mapped"})));
  }
  const SimRun sw = written("bast-ssd.toml", "SW:io_size=4096,count=20000,io_ignore=4000");
  return {
      Row{"desnoyers", "desnoyers/bast/within-logs", "§4 ('Random write speed')",
          "4 KiB random writes within 16 MiB (the 16 log blocks) over sequential writes",
          "'degraded by a factor of two, but no further'", std::nullopt, Check::kAtMost, 0, 2.0,
          {bast[1], mean_of("SW", sw)}, "bast-ssd preset: 16 log blocks of 1 MiB."},
      Row{"desnoyers", "desnoyers/bast/knee", "§4 ('Random write speed')",
          "4 KiB random writes over 24 MiB over those within 16 MiB",
          "beyond the log blocks, worse than the factor of two", std::nullopt, Check::kAtLeast,
          0, 2.0, {bast[2], bast[1]}, "The knee: the area no longer fits the log blocks."},
      Row{"desnoyers", "desnoyers/page-mapped/area", "§4, Figure 2 (page-mapped)",
          "4 KiB random writes (µs) by area, page-mapped FTL on the same flash",
          "throughput falls as the area grows", std::nullopt, Check::kIncreasing, 0.02, 1.0,
          page, "The bast-ssd flash with ftl.type=page-mapped."},
      Row{"desnoyers", "desnoyers/page-vs-block", "§4 ('Random write speed')",
          "4 KiB random writes over 64 MiB: BAST over page-mapped",
          "random writes are fast on page-mapped FTLs, slow on block-mapped ones", std::nullopt,
          Check::kAtLeast, 0, 1.0, {bast[3], page[3]}, "Direction only."},
  };
}

std::vector<Row> ajwani_rows() {
  std::vector<Measure> sizes;
  for (const char* size : {"4KiB", "32KiB", "128KiB", "512KiB"})
    sizes.push_back(mean_of(size, written("usb-stick.toml",
                                          fmt::format("RW:io_size={},count=2000", size)),
                            Metric::kMbPerS));
  return {
      Row{"ajwani", "ajwani/chunk-rmw", "§3.3.1, Figure 3.1",
          "random write throughput (MB/s) by write size, 512 KiB chunks",
          "best random-write performance on blocks of the chunk size (512 KB)", std::nullopt,
          Check::kIncreasing, 0, 1.0, sizes,
          "usb-stick preset: block-mapped, 512 KiB chunks; smaller writes read-modify-write "
          "the chunk."},
      Row{"ajwani", "ajwani/misalignment", "§3.3.4, Figure 3.4(a)",
          "512 KiB random writes misaligned by 4 KiB over aligned (response time)",
          "'misaligned random writes achieve much lower performance than aligned writes'",
          std::nullopt, Check::kAtLeast, 0, 1.0,
          {mean_of("shift 4 KiB",
                   written("usb-stick.toml", "RW:io_size=512KiB,count=2000,io_shift=4096")),
           mean_of("aligned", written("usb-stick.toml", "RW:io_size=512KiB,count=2000"))},
          "Direction only: a misaligned chunk-sized write spans two chunks."},
  };
}

}  // namespace

std::vector<Row> other_rows() {
  std::vector<Row> rows = uflip_rows();
  for (Row& row : desnoyers_rows()) rows.push_back(std::move(row));
  for (Row& row : ajwani_rows()) rows.push_back(std::move(row));
  return rows;
}

const std::vector<Row>& all_rows() {
  static const std::vector<Row> rows = [] {
    std::vector<Row> all = agrawal_rows();
    for (Row& row : other_rows()) all.push_back(std::move(row));
    return all;
  }();
  return rows;
}

const char* metric_name(Metric metric) {
  switch (metric) {
    case Metric::kMeanUs:
      return "mean_us";
    case Metric::kIops:
      return "iops";
    case Metric::kMbPerS:
      return "mb_per_s";
    case Metric::kCleaningMsPerBlock:
      return "cleaning_ms_per_block";
    case Metric::kCleaningEfficiency:
      return "cleaning_efficiency";
    case Metric::kPagesMoved:
      return "pages_moved";
    case Metric::kWearStddev:
      return "remaining_life_stddev";
    case Metric::kWearMean:
      return "remaining_life_mean";
    case Metric::kWearBelow80:
      return "blocks_below_80pct_of_mean";
    case Metric::kAccessTimeUs:
      return "access_time_us";
    case Metric::kAccessIops:
      return "packages_per_access_time";
    case Metric::kQueueLength:
      return "queued_commands_per_package";
  }
  return "?";
}

}  // namespace ssdlab::repro
