// End to end for the victim policies and DFTL: `ssdlab sim --verify`, run
// in-process, on tiny.toml with each policy and with DFTL (random writes
// after a random precondition, then random reads), the summary's DFTL
// counters, skewed plan keys inline, and random power cuts with nothing lost.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "power_cut_support.h"
#include "run_support.h"
#include "sim/config/config.h"
#include "sim/controller/ssd.h"
#include "test_support.h"

namespace ssdlab::testing {
namespace {

namespace fs = std::filesystem;

const char* const kSetups[] = {"ftl.victim_policy=greedy",
                               "ftl.victim_policy=cost-benefit",
                               "ftl.victim_policy=random",
                               "ftl.victim_policy=fifo",
                               "ftl.victim_policy=d-choices",
                               "ftl.type=dftl",
                               "ftl.type=dftl --set ftl.victim_policy=cost-benefit"};

class EverySetup : public ::testing::TestWithParam<const char*> {};

// The --set overrides of a setup ("A --set B": A and B).
std::vector<std::string> overrides_of(std::string set) {
  std::vector<std::string> overrides;
  for (std::size_t at; (at = set.find(" --set ")) != std::string::npos;) {
    overrides.push_back(set.substr(0, at));
    set = set.substr(at + 7);
  }
  overrides.push_back(set);
  return overrides;
}

// `ssdlab sim` on tiny, verified, with the setup `set`, in-process.
nlohmann::json simulate(const std::string& workload, const std::string& set, const fs::path& out) {
  auto options = sim_options(workload, overrides_of(set));
  options.precondition = "random";
  options.verify = true;
  options.check_every = 100;
  options.io_log = false;
  std::string printed;
  run_tiny(out.parent_path(), out.filename().string(), options, &printed);
  EXPECT_NE(printed.find("all correct"), std::string::npos) << printed;
  return summary_of(out);
}

TEST_P(EverySetup, PassesAVerifiedRun) {
  const fs::path dir = temp_dir_for_this_test("policy-cli-");
  const auto summary = simulate(
      "RW:io_size=8192,count=3000,queue_depth=4,hot_fraction=0.2,"
      "hot_access=0.8",
      GetParam(), dir / "out");
  EXPECT_GT(summary["verification"]["pages_checked"].get<std::uint64_t>(), 0u);
  EXPECT_DOUBLE_EQ(summary["experiments"][0]["hot_cold"]["hot_access"].get<double>(), 0.8);
}

// 40 random power cuts on a full device: every acknowledged write survives.
TEST_P(EverySetup, RecoversFromRandomPowerCuts) {
  sim::Ssd ssd(sim::load_config(preset("tiny"), overrides_of(GetParam())));
  ssd.enable_power_cuts();
  ssd.prefill(0, ssd.logical_bytes());
  const auto totals =
      sim::testing_power::run_with_cuts(ssd, "RW:io_size=12288,count=3000,queue_depth=4", 40, 7);
  EXPECT_EQ(totals.recovered, 40u);
  EXPECT_EQ(totals.checked, 40 * ssd.ftl().logical_pages());
  EXPECT_GT(totals.torn, 0u);
  EXPECT_NO_THROW(ssd.ftl().check_invariants());
}

INSTANTIATE_TEST_SUITE_P(PolicyCli, EverySetup, ::testing::ValuesIn(kSetups));

TEST(DftlCli, SummaryReportsTranslationCountersAndHitRatio) {
  const fs::path dir = temp_dir_for_this_test("dftl-cli-");
  const auto summary = simulate("RW:io_size=4096,count=3000", "ftl.type=dftl", dir / "out");
  const auto& counters = summary["experiments"][0]["runs"][0]["device"];
  ASSERT_TRUE(counters.contains("map_cache_hit_ratio")) << counters.dump();
  const auto hits = counters["map_cache_hits"].get<double>();
  const auto misses = counters["map_cache_misses"].get<double>();
  ASSERT_GT(hits + misses, 0.0);
  EXPECT_DOUBLE_EQ(counters["map_cache_hit_ratio"].get<double>(), hits / (hits + misses));
  EXPECT_GT(counters["translation_pages_written"].get<std::uint64_t>(), 0u);
}

TEST(SkewCli, BadSkewKeysAreRefusedWithTheirNames) {
  const fs::path dir = temp_dir_for_this_test("skew-cli-");
  for (const std::string workload :
       {"RW:count=10,zipf=-1", "RW:count=10,hot_fraction=0.2", "SW:count=10,zipf=0.9",
        "RW:count=10,zipf=0.9,hot_fraction=0.2,hot_access=0.8"}) {
    const auto result =
        in_process([&](std::ostream&) { run_tiny(dir, "out", sim_options(workload)); });
    EXPECT_NE(result.exit_code, 0) << workload;
    EXPECT_TRUE(result.output.find("zipf") != std::string::npos ||
                result.output.find("hot_") != std::string::npos)
        << result.output;
  }
}

}  // namespace
}  // namespace ssdlab::testing
