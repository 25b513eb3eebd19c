// The published experiments `ssdlab reproduce` runs: each row names the
// paper's figure or table, its published value(s) as data (cited, never
// computed), the ssdlab runs that measure the same thing, and how the two are
// compared. Adding a figure is one more Row in one of the tables
// (experiments_agrawal.cpp, experiments_others.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ssdlab::repro {

// One `ssdlab sim` run; rows that name the same run share it.
struct SimRun {
  std::string config;        // a preset, relative to the configs folder
  std::string workload;      // inline experiment or plan, as `-w` takes it
  std::string precondition;  // as --precondition takes it; empty: none
  std::vector<std::string> overrides;  // --set table.key=value
  // The scaled-down workload of --quick (empty: the same), and overrides
  // --quick adds (a smaller device where only the trend is compared).
  std::string quick_workload;
  std::vector<std::string> quick_overrides;

  std::vector<std::string> overrides_for(bool quick) const;
  std::string key(bool quick) const;  // the identity of the run
};

// What a row reads from a run's summary.json.
enum class Metric {
  kMeanUs,             // the experiment's mean response time
  kIops,               // its I/Os per second
  kMbPerS,             // its throughput, 10^6 bytes/s
  kCleaningMsPerBlock,  // cleaning time over blocks cleaned
  kCleaningEfficiency,  // superseded pages over pages of the cleaned blocks
  kPagesMoved,          // pages moved by cleaning
  kWearStddev,          // stddev of the remaining life of the blocks
  kWearMean,            // mean remaining life
  kWearBelow80,         // blocks below 80% of the mean remaining life (Table 8)
  // DiskSim's access time (device counter access_time_us: mean flash time per
  // page access, each cleaned block one sample of its serial cost, no
  // queueing), the statistic of Agrawal et al.'s Table 3 latencies; and the
  // paper's IO/s from it: the device's packages over that mean.
  kAccessTimeUs,
  kAccessIops,
  // Figure 6(b): flash commands waiting per package, averaged over the run
  // (device counter queued_command_time_us over the span and the packages).
  kQueueLength,
};
const char* metric_name(Metric metric);

struct Measure {
  std::string label;       // the point on the figure's axis ("5%", "copy-back on")
  SimRun run;
  std::string experiment;  // the plan experiment read (empty: the first)
  Metric metric = Metric::kMeanUs;
};

// How ssdlab's values are judged.
enum class Check {
  kValue,       // one measure within `tolerance` (relative) of the paper's value
  kIncreasing,  // the measures in order never fall by more than `tolerance` and end higher
  kDecreasing,  // the mirror image
  kAtLeast,     // measures[0] / measures[1] >= `bound`, a ratio the paper states
  kAtMost,      // measures[0] / measures[1] <= `bound`
  // Not compared: a quantity the paper does not print, reported beside the
  // row that compares the paper's own statistic (its verdict is "measured";
  // it counts neither as a pass nor as a miss).
  kMeasured,
  // The size of a rise (or fall): last measure / first measure within
  // `tolerance` (relative) of `paper_value`, the same ratio of the paper's
  // own values (e.g. Table 4: 746 / 237 from no gang to the 16-gang).
  kRatio,
};

struct Row {
  std::string paper;     // agrawal, uflip, desnoyers, ajwani
  std::string id;        // unique, e.g. "agrawal/table3/random-write-cleaning/latency"
  std::string figure;    // where the paper shows it: "Table 3, row 6"
  std::string quantity;  // what is compared, with its unit
  std::string published;  // the paper's value or statement, as printed there
  std::optional<double> paper_value;  // kValue: the number compared against; kRatio: the ratio
  Check check = Check::kValue;
  double tolerance = 0.03;  // kValue, kRatio and trends: relative
  double bound = 1.0;       // kAtLeast / kAtMost
  std::vector<Measure> measures;
  // Why ssdlab departs from the paper where it does, or what the row rests
  // on; shown beside the verdict.
  std::string note;
};

// Every row, in report order.
const std::vector<Row>& all_rows();
std::vector<Row> agrawal_rows();
std::vector<Row> cleaning_rows();  // Agrawal Table 5, Figure 8
std::vector<Row> wear_rows();      // Agrawal Tables 7 and 8
std::vector<Row> other_rows();  // uFLIP, Desnoyers, Ajwani

// The papers reproduce knows, for the command line.
const std::vector<std::string>& paper_names();

}  // namespace ssdlab::repro
