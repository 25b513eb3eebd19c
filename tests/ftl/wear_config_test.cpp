// Wear leveling's configuration (ftl.wear_leveling, wear_order, the ages) and
// its end of the command line: end of life and --until-expired stop a run
// with a message and a summary. The leveler and the FTLs' wear are tested in
// wear_leveling_test.cpp.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "common/error.h"
#include "ftl/wear_leveler.h"
#include "run_support.h"
#include "sim/config/config.h"
#include "test_support.h"

namespace ssdlab {
namespace {

using ftl::WearMode;

TEST(WearConfig, BadModeNamesFileLineAndKey) {
  const auto dir = testing::temp_dir_for_this_test("wear");
  std::string text = testing::read_file(testing::preset("tiny"));
  text.replace(text.find("[ftl]\n"), 6, "[ftl]\nwear_leveling = \"sometimes\"\n");
  const auto path = testing::write_file(dir / "bad.toml", text);
  try {
    sim::load_config(path.string());
    FAIL() << "accepted a bad mode";
  } catch (const Error& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("bad.toml:"), std::string::npos) << what;
    EXPECT_NE(what.find("ftl.wear_leveling"), std::string::npos) << what;
    EXPECT_NE(what.find("rate-limit"), std::string::npos) << what;
  }
}

TEST(WearConfig, BlockBasedFtlsRefuseMigrationNamingFileAndKey) {
  const auto dir = testing::temp_dir_for_this_test("wear");
  for (const char* type : {"block-mapped", "bast", "fast"}) {
    std::string text = testing::read_file(testing::preset("tiny"));
    text.replace(text.find("type = \"page-mapped\""), 20,
                 fmt::format("type = \"{}\"\nwear_leveling = \"migration\"", type));
    const auto path = testing::write_file(dir / "hybrid.toml", text);
    try {
      sim::load_config(path.string());
      ADD_FAILURE() << type << " accepted migration";
    } catch (const Error& error) {
      const std::string what = error.what();
      EXPECT_NE(what.find("hybrid.toml:"), std::string::npos) << what;
      EXPECT_NE(what.find("ftl.wear_leveling"), std::string::npos) << what;
      EXPECT_NE(what.find(type), std::string::npos) << what;
    }
    // Rate-limiting is what they do: accepted.
    EXPECT_EQ(sim::load_config(testing::preset("tiny"),
                               {std::string("ftl.type=") + type, "ftl.wear_leveling=rate-limit"})
                  .ftl.wear.mode,
              WearMode::kRateLimit);
  }
}

TEST(WearConfig, OrderDefaultsToThePapersAndRejectsUnknownNames) {
  EXPECT_EQ(sim::load_config(testing::preset("tiny")).ftl.wear.order,
            ftl::WearOrder::kMigrationFirst);
  EXPECT_EQ(
      sim::load_config(testing::preset("tiny"), {"ftl.wear_order=rate-limit-first"}).ftl.wear.order,
      ftl::WearOrder::kRateLimitFirst);
  try {
    sim::load_config(testing::preset("tiny"), {"ftl.wear_order=greedy-first"});
    FAIL() << "accepted a bad order";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("ftl.wear_order"), std::string::npos) << error.what();
  }
}

TEST(WearConfig, MigrationMustStartBeforeRateLimiting) {
  EXPECT_THROW(sim::load_config(testing::preset("tiny"),
                                {"ftl.wear_leveling=migration", "ftl.wear_retirement_age=0.7"}),
               Error);
  const auto ok = sim::load_config(testing::preset("tiny"), {"ftl.wear_leveling=migration"});
  EXPECT_EQ(ok.ftl.wear.mode, WearMode::kMigration);
  EXPECT_DOUBLE_EQ(ok.ftl.wear.age_variance, 0.2);
  EXPECT_DOUBLE_EQ(ok.ftl.wear.retirement_age, 0.85);
}

using testing::summary_of;

TEST(WearCli, EndOfLifeStopsTheRunWithAMessageAndASummary) {
  const auto dir = testing::temp_dir_for_this_test("wear");
  auto options = testing::sim_options("RW:io_size=4096,count=1000000,target_size=2MiB",
                                      {"geometry.pe_cycles=8", "ftl.overprovisioning=0.3"});
  options.precondition = "seq";
  options.io_log = false;
  std::string printed;
  const auto out = testing::run_tiny(dir, "run", options, &printed);
  EXPECT_NE(printed.find("DEVICE END OF LIFE"), std::string::npos) << printed;
  const auto summary = summary_of(out);
  EXPECT_TRUE(summary["lifetime"]["end_of_life"].get<bool>());
  EXPECT_GT(summary["wear"]["blocks_expired"].get<int>(), 0);
  const auto& run = summary["experiments"][0]["runs"][0];
  EXPECT_LT(run["count"].get<std::uint64_t>(), 1000000u);
  EXPECT_TRUE(run.contains("stopped"));
}

TEST(WearCli, UntilExpiredStopsALifetimeRunEarly) {
  const auto dir = testing::temp_dir_for_this_test("wear");
  auto options = testing::sim_options(
      "RW:io_size=4096,count=1000000,target_size=2MiB",
      {"geometry.pe_cycles=20", "ftl.overprovisioning=0.3", "ftl.wear_leveling=migration"});
  options.precondition = "seq";
  options.until_expired = 2;
  options.io_log = false;
  std::string printed;
  const auto out = testing::run_tiny(dir, "run", options, &printed);
  EXPECT_NE(printed.find("lifetime run stopped"), std::string::npos) << printed;
  const auto summary = summary_of(out);
  EXPECT_FALSE(summary["lifetime"]["end_of_life"].get<bool>());
  EXPECT_GE(summary["wear"]["blocks_expired"].get<int>(), 2);
  EXPECT_LE(summary["wear"]["blocks_expired"].get<int>(), 4);  // the few I/Os in flight
  EXPECT_GT(summary["wear"]["migrations"].get<int>(), 0);
  EXPECT_EQ(summary["config"]["ftl"]["wear_leveling"], "migration");
}

}  // namespace
}  // namespace ssdlab
