// The flash scheduler in whole runs (flash/scheduler.h through the host
// loop): every FTL verifies with commands queued and reordered; queue depth
// 1 is the same whatever the interleaving; the §2.2 single-die rates.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "flash/timing.h"
#include "test_support.h"

namespace ssdlab {
namespace {

using testing::sim_tiny;
using testing::summary_of;

TEST(FlashSchedulerRun, EveryFtlVerifiesWithCommandsQueuedJoinedAndReordered) {
  const auto dir = testing::temp_dir_for_this_test("scheduler-run-");
  for (const char* ftl : {"page-mapped", "block-mapped", "bast", "fast", "dftl"}) {
    const std::pair<const char*, const char*> cases[] = {
        {"planes",
         "--set 'geometry.interleaving=\"planes\"' --set timing.cache_register=true "
         "--set 'controller.dispatch_order=\"read>write>cleaning\"'"},
        {"none",
         "--set 'geometry.interleaving=\"none\"' "
         "--set 'controller.dispatch_order=\"cleaning>write>read\"' "
         "--set 'controller.cleaning_wait=\"request\"'"}};
    for (const auto& [name, settings] : cases) {
      const auto out = sim_tiny(
          dir, fmt::format("{}-{}", ftl, name),
          fmt::format("--set ftl.type={} {} --verify --precondition seq "
                      "-w RR:io_size=8192,count=3000,queue_depth=8,mix_pattern=RW,mix_ratio=1",
                      ftl, settings));
      const auto summary = summary_of(out);
      EXPECT_GT(summary["verification"]["pages_checked"].get<std::uint64_t>(), 0u) << ftl;
      EXPECT_GT(summary["device"]["blocks_cleaned"].get<std::uint64_t>() +
                    summary["device"].value("merges", std::uint64_t{0}) +
                    summary["device"].value("full_merges", std::uint64_t{0}),
                0u)
          << ftl << ": the run should clean or merge, so that cleaning is queued too";
    }
  }
}

// Agrawal et al. §4.1: only the element that cleans delays its part of a
// request. Writes striped over every package, with cleaning: the same FTL
// work either way, but with `package` the other packages' pages (and later
// requests) do not wait for the cleaning package.
TEST(FlashSchedulerRun, OnlyTheCleaningPackageWaitsForItsCleaning) {
  const auto dir = testing::temp_dir_for_this_test("scheduler-run-");
  std::map<std::string, nlohmann::json> runs;
  for (const char* wait : {"package", "request"}) {
    const auto out =
        sim_tiny(dir, wait,
                 fmt::format("--set 'controller.cleaning_wait=\"{}\"' --precondition random "
                             "-w RW:io_size=65536,count=3000,queue_depth=4",
                             wait));
    runs[wait] = summary_of(out);
  }
  const auto& package = runs["package"];
  const auto& request = runs["request"];
  EXPECT_GT(request["device"]["blocks_cleaned"].get<std::uint64_t>(), 0u);
  EXPECT_EQ(package["device"]["blocks_cleaned"], request["device"]["blocks_cleaned"]);
  EXPECT_EQ(package["device"]["pages_moved"], request["device"]["pages_moved"]);
  const auto mean = [](const nlohmann::json& s) {
    return s["experiments"][0]["runs"][0]["mean_us"].get<double>();
  };
  EXPECT_LT(mean(package), mean(request));
  EXPECT_EQ(package["config"]["controller"]["cleaning_wait"], "package");
}

TEST(FlashSchedulerRun, AnUnknownCleaningWaitIsRefusedByName) {
  const auto result =
      testing::run_ssdlab("config " + testing::shell_quote(testing::preset("tiny")) +
                          " --set 'controller.cleaning_wait=\"die\"'");
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE(result.output.find("controller.cleaning_wait: 'die' is not a cleaning wait"),
            std::string::npos)
      << result.output;
}

// A checkpoint saved after a run with commands queued at the dies (queue
// depth 8, cleaning, plane joins, a cache register) restarts into the same
// io.csv rows as the run that went on: every run ends with its queues
// settled, so the state saved holds no queued command to lose.
TEST(FlashSchedulerRun, ACheckpointAfterQueuedWorkRestartsIntoTheSameRows) {
  const auto dir = testing::temp_dir_for_this_test("scheduler-run-");
  const auto experiment = [](const char* name) {
    return fmt::format(
        "[[experiment]]\nname = \"{}\"\npattern = \"RW\"\nio_size = 8192\ncount = 2500\n"
        "queue_depth = 8\nmix_pattern = \"RR\"\nmix_ratio = 1\n",
        name);
  };
  const auto first = testing::write_file(dir / "first.toml", experiment("first"));
  const auto second = testing::write_file(dir / "second.toml", experiment("second"));
  const auto both =
      testing::write_file(dir / "both.toml", experiment("first") + "\n" + experiment("second"));
  const std::string device =
      "--set 'geometry.interleaving=\"planes\"' --set timing.cache_register=true ";
  const auto q = [](const std::filesystem::path& p) { return testing::shell_quote(p); };
  const auto whole = sim_tiny(dir, "whole", device + "--precondition random -w " + q(both));
  sim_tiny(dir, "part1",
           device + "--precondition random -w " + q(first) + " --save-state " + q(dir / "ckpt"));
  const auto part2 = sim_tiny(
      dir, "part2", device + "--verify --load-state " + q(dir / "ckpt") + " -w " + q(second));
  const auto rows = [](const std::filesystem::path& out) {
    const std::string text = testing::read_file(out / "io.csv");
    return text.substr(text.find('\n') + 1);
  };
  EXPECT_GT(summary_of(whole)["device"]["blocks_cleaned"].get<std::uint64_t>(), 0u);
  ASSERT_FALSE(rows(part2).empty());
  EXPECT_EQ(rows(dir / "part1") + rows(part2), rows(whole));
  EXPECT_EQ(summary_of(part2)["simulated_us"], summary_of(whole)["simulated_us"]);
}

TEST(FlashSchedulerRun, QueueDepthOneIsTheSameWhateverTheInterleaving) {
  const auto dir = testing::temp_dir_for_this_test("scheduler-run-");
  std::string first;
  for (const char* interleaving : {"none", "dies", "planes"}) {
    const auto out = sim_tiny(dir, interleaving,
                              fmt::format("--set geometry.interleaving=\\\"{}\\\" "
                                          "-w RR:io_size=4096,count=2000",
                                          interleaving));
    const std::string csv = testing::read_file(out / "io.csv");
    if (first.empty())
      first = csv;
    else
      EXPECT_EQ(csv, first) << interleaving;
  }
}

// Agrawal et al. §2.2: one die with 8 reads outstanding serves array read +
// transfer per page without a cache register, the transfer alone with one.
TEST(FlashSchedulerRun, OneDieReadsAtTheRatesOfSection22) {
  const auto dir = testing::temp_dir_for_this_test("scheduler-run-");
  const flash::Timing timing;  // tiny's timing is the baseline's (Table 1)
  const double transfer_ns = (4096 + 128) * (timing.bus_ps_per_byte / 1000.0);
  for (const bool cache : {false, true}) {
    const auto out = sim_tiny(
        dir, cache ? "cache" : "plain",
        fmt::format("--set geometry.channels=1 --set geometry.dies_per_package=1 "
                    "--set timing.cache_register={} -w RR:io_size=4096,count=4000,queue_depth=8",
                    cache));
    const double iops = summary_of(out)["experiments"][0]["runs"][0]["iops"].get<double>();
    const double expected = 1e9 / (cache ? transfer_ns : timing.read_ns + transfer_ns);
    EXPECT_NEAR(iops, expected, expected * 0.005) << cache;
  }
}

}  // namespace
}  // namespace ssdlab
