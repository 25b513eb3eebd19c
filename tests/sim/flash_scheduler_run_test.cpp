// The flash scheduler in whole runs (flash/scheduler.h through the host
// loop): every FTL verifies with commands queued and reordered; queue depth
// 1 is the same whatever the interleaving; the §2.2 single-die rates. Runs go
// through the library (run_support.h): what is tested is the scheduler.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "flash/timing.h"
#include "run_support.h"
#include "test_support.h"

namespace ssdlab {
namespace {

using testing::run_tiny;
using testing::sim_options;
using testing::summary_of;

TEST(FlashSchedulerRun, EveryFtlVerifiesWithCommandsQueuedJoinedAndReordered) {
  const auto dir = testing::temp_dir_for_this_test("scheduler-run-");
  for (const char* ftl : {"page-mapped", "block-mapped", "bast", "fast", "dftl"}) {
    const std::pair<const char*, std::vector<std::string>> cases[] = {
        {"planes",
         {"geometry.interleaving=\"planes\"", "timing.cache_register=true",
          "controller.dispatch_order=\"read>write>cleaning\""}},
        {"none",
         {"geometry.interleaving=\"none\"", "controller.dispatch_order=\"cleaning>write>read\"",
          "controller.cleaning_wait=\"request\""}},
        {"fewest-queued", {"geometry.interleaving=\"planes\"", "controller.dispatch_order=\"fewest-queued\""}}};
    for (const auto& [name, settings] : cases) {
      auto options = sim_options(
          "RR:io_size=8192,count=3000,queue_depth=8,mix_pattern=RW,mix_ratio=1", settings);
      options.overrides.insert(options.overrides.begin(), fmt::format("ftl.type={}", ftl));
      options.verify = true;
      options.precondition = "seq";
      const auto out = run_tiny(dir, fmt::format("{}-{}", ftl, name), options);
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
    auto options = sim_options("RW:io_size=65536,count=3000,queue_depth=4",
                               {fmt::format("controller.cleaning_wait=\"{}\"", wait)});
    options.precondition = "random";
    const auto out = run_tiny(dir, wait, options);
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

// The personas review (issue 57 item 9): with ftl.two_plane = false and
// plane interleaving, `ssdlab config` said "two-plane off" while the run
// issued two-plane commands; the scheduler's joining is now said beside the
// FTL's key.
TEST(FlashSchedulerRun, TheConfigSaysTheSchedulerJoinsPlanesWhenTheFtlDoesNot) {
  const auto dir = testing::temp_dir_for_this_test("two-plane-off-");
  const std::vector<std::string> keys = {"ftl.two_plane=false", "geometry.interleaving=\"planes\""};
  const auto summary = summary_of(run_tiny(
      dir, "planes", sim_options("RW:io_size=4096,count=2000,queue_depth=16", keys)));
  EXPECT_GT(summary["device"]["two_plane_commands"].get<std::uint64_t>(), 0u);
  const std::string said = testing::config_text("tiny", keys);
  EXPECT_NE(said.find("two-plane   FTL off; the flash scheduler joins queued commands"),
            std::string::npos)
      << said;
  const std::string plain = testing::config_text("tiny", {"ftl.two_plane=false"});
  EXPECT_NE(plain.find("two-plane   FTL off; copy-back"), std::string::npos) << plain;
}

TEST(FlashSchedulerRun, AnUnknownCleaningWaitIsRefusedByName) {
  const std::string error = testing::preset_error("tiny", {"controller.cleaning_wait=\"die\""});
  EXPECT_NE(error.find("controller.cleaning_wait: 'die' is not a cleaning wait"), std::string::npos)
      << error;
}

// A checkpoint saved after a run with commands queued at the dies (queue
// depth 8, cleaning, plane joins, a cache register; and four-plane dies,
// geometry.multi_plane = 4) restarts into the same io.csv rows as the run
// that went on: every run ends with its queues settled, so the state saved
// holds no queued command to lose; the four-plane count carries over.
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
  const std::vector<std::string> pairs = {"geometry.interleaving=\"planes\"",
                                          "timing.cache_register=true"};
  std::vector<std::string> four_planes = pairs;
  four_planes.insert(four_planes.end(),
                     {"geometry.planes_per_die=4", "geometry.blocks_per_plane=16",
                      "geometry.two_plane_pairs=[[0,1],[2,3]]", "geometry.multi_plane=4"});
  for (const auto& device : {pairs, four_planes}) {
    const bool four = device.size() > pairs.size();
    SCOPED_TRACE(four ? "four planes" : "plane pairs");
    const auto at = dir / (four ? "four" : "pairs");
    auto whole_options = sim_options(both.string(), device);
    whole_options.precondition = "random";
    const auto whole = run_tiny(at, "whole", whole_options);
    auto first_options = sim_options(first.string(), device);
    first_options.precondition = "random";
    first_options.save_state = (at / "ckpt").string();
    const auto part1 = run_tiny(at, "part1", first_options);
    auto second_options = sim_options(second.string(), device);
    second_options.verify = true;
    second_options.load_state = (at / "ckpt").string();
    const auto part2 = run_tiny(at, "part2", second_options);
    const auto rows = [](const std::filesystem::path& out) {
      const std::string text = testing::read_file(out / "io.csv");
      return text.substr(text.find('\n') + 1);
    };
    EXPECT_GT(summary_of(whole)["device"]["blocks_cleaned"].get<std::uint64_t>(), 0u);
    ASSERT_FALSE(rows(part2).empty());
    EXPECT_EQ(rows(part1) + rows(part2), rows(whole));
    EXPECT_EQ(summary_of(part2)["simulated_us"], summary_of(whole)["simulated_us"]);
    if (!four) continue;
    const auto joins = [](const std::filesystem::path& out) {
      return summary_of(out)["device"]["four_plane_commands"].get<std::uint64_t>();
    };
    EXPECT_GT(joins(part1), 0u);
    EXPECT_EQ(joins(part2), joins(whole));
  }
}

TEST(FlashSchedulerRun, QueueDepthOneIsTheSameWhateverTheInterleaving) {
  const auto dir = testing::temp_dir_for_this_test("scheduler-run-");
  std::string first;
  for (const char* interleaving : {"none", "dies", "planes"}) {
    const auto out =
        run_tiny(dir, interleaving,
                 sim_options("RR:io_size=4096,count=2000",
                             {fmt::format("geometry.interleaving=\"{}\"", interleaving)}));
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
    const auto out = run_tiny(dir, cache ? "cache" : "plain",
                              sim_options("RR:io_size=4096,count=4000,queue_depth=8",
                                          {"geometry.channels=1", "geometry.dies_per_package=1",
                                           fmt::format("timing.cache_register={}", cache)}));
    const double iops = summary_of(out)["experiments"][0]["runs"][0]["iops"].get<double>();
    const double expected = 1e9 / (cache ? transfer_ns : timing.read_ns + transfer_ns);
    EXPECT_NEAR(iops, expected, expected * 0.005) << cache;
  }
}

}  // namespace
}  // namespace ssdlab
