// Program/erase suspend in whole runs (flash/suspend.h through the host loop
// and the controller): every FTL verifies with reads suspending programs and
// erases, the counters appear in summary.json only with timing.suspend, and
// reads' tails shorten. Runs go through the library (run_support.h).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "run_support.h"
#include "test_support.h"

namespace ssdlab {
namespace {

using testing::run_tiny;
using testing::sim_options;
using testing::summary_of;

// The 99th percentile of the reads' response times in an io.csv
// (experiment,run,process,io,submit_us,rt_us,mode,...).
double read_p99_us(const std::filesystem::path& io_csv) {
  std::ifstream in(io_csv);
  std::string line;
  std::getline(in, line);
  std::vector<double> reads;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    if (cells.size() > 6 && cells[6] == "R") reads.push_back(std::stod(cells[5]));
  }
  EXPECT_FALSE(reads.empty());
  std::sort(reads.begin(), reads.end());
  return reads.empty() ? 0 : reads[reads.size() * 99 / 100];
}

constexpr const char* kMixed = "RW:io_size=4096,count=4000,read_share=0.5,queue_depth=8";

TEST(SuspendRun, EveryFtlVerifiesWithReadsSuspendingProgramsAndErases) {
  const auto dir = testing::temp_dir_for_this_test("suspend-run-");
  for (const char* ftl : {"page-mapped", "block-mapped", "bast", "fast", "dftl"}) {
    auto options = sim_options(kMixed, {"timing.suspend=true"});
    options.overrides.insert(options.overrides.begin(), fmt::format("ftl.type={}", ftl));
    options.verify = true;
    options.precondition = "seq";
    const auto summary = summary_of(run_tiny(dir, ftl, options));
    const auto& device = summary["device"];
    EXPECT_GT(summary["verification"]["pages_checked"].get<std::uint64_t>(), 0u) << ftl;
    EXPECT_GT(device["program_suspensions"].get<std::uint64_t>() +
                  device["erase_suspensions"].get<std::uint64_t>(),
              0u)
        << ftl;
    EXPECT_EQ(summary["config"]["timing"]["suspend"], true) << ftl;
  }
}

TEST(SuspendRun, CountersOnlyWithSuspendAndReadsTailShorter) {
  const auto dir = testing::temp_dir_for_this_test("suspend-run-");
  double p99[2] = {0, 0};
  for (const bool suspend : {false, true}) {
    // Reads first at the dies: what is left of a read's wait is the
    // operation in progress, which suspend cuts short. (A quick suspend, as
    // serial flash has it: with the NAND-class defaults, 100 us to suspend
    // tiny's 200 us programs gains nothing at p99; bench/scripts/
    // suspend-tail.sh measures them on the baseline.)
    auto options = sim_options(kMixed, {fmt::format("timing.suspend={}", suspend),
                                        "timing.suspend_us=20", "timing.resume_us=20",
                                        "timing.suspend_min_interval_us=0",
                                        "controller.dispatch_order=\"read>write>cleaning\""});
    options.precondition = "seq";
    const auto summary = summary_of(run_tiny(dir, suspend ? "on" : "off", options));
    const auto& device = summary["device"];
    EXPECT_EQ(device.contains("program_suspensions"), suspend);
    EXPECT_EQ(summary["config"]["timing"].contains("suspend_program_us"), suspend);
    p99[suspend] = read_p99_us(dir / (suspend ? "on" : "off") / "io.csv");
  }
  EXPECT_LT(p99[1], p99[0]);
}

}  // namespace
}  // namespace ssdlab
