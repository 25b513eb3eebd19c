// `ssdlab calibrate`: fitting the model's timing to measured response times.
// Measurements made by the model itself with known timing must give that
// timing back, from any starting point.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "run_support.h"
#include "sim/config/config.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
namespace support = ssdlab::testing;
using ::testing::HasSubstr;

class CalibrateTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = support::temp_dir_for_this_test("calibrate-"); }
  fs::path dir_;
};

TEST_F(CalibrateTest, RecoversTheTimingThatProducedTheMeasurements) {
  // Unloaded reads and sequential writes of whole pages on a fresh device:
  // the cost model of calibrate holds exactly there.
  const fs::path plan = support::write_file(dir_ / "plan.toml",
                                            "[[benchmark]]\n"
                                            "name = \"granularity\"\n"
                                            "patterns = [\"SR\", \"SW\"]\n"
                                            "values = [\"4KiB\", \"16KiB\", \"64KiB\"]\n"
                                            "count = 8\n"
                                            "runs = 1\n"
                                            "run_pause_us = 0\n");
  auto measured = support::sim_options(plan.string());  // the model measures itself
  measured.precondition = "none";
  support::run_tiny(dir_, "measured", measured);
  const auto fit = support::run_ssdlab(
      "calibrate " + support::shell_quote(dir_ / "measured") + " -c " +
      support::shell_quote(support::preset("tiny")) +
      " --set timing.read_us=100 --set timing.program_us=50 --set timing.bus_ns_per_byte=5 -o " +
      support::shell_quote(dir_ / "fitted.toml"));
  ASSERT_EQ(fit.exit_code, 0) << fit.output;
  EXPECT_THAT(fit.output, HasSubstr("RMS relative error 0.0%"));
  const auto fitted = ssdlab::sim::load_config((dir_ / "fitted.toml").string());
  EXPECT_NEAR(fitted.timing.read_ns, 25'000, 10);
  EXPECT_NEAR(fitted.timing.program_ns, 200'000, 10);
  EXPECT_NEAR(fitted.timing.bus_ps_per_byte, 25'000, 10);
  // Everything else is the base's.
  const auto base = support::load_preset("tiny");
  EXPECT_EQ(fitted.geometry.channels, base.geometry.channels);
  EXPECT_EQ(fitted.ftl.type, base.ftl.type);
}

// The guide's loop (docs/guide-real-devices.md) on the model itself: the
// calibrate plan (uFLIP granularity, 512 B to 256 KiB, and random 4 KiB
// writes) simulated on the baseline. Its sub-page writes are
// read-modify-writes (436 us), and its large I/Os put several pages on one
// die; fitted as if each cost command + array + rounds x transfer, they
// gave read 20.8, program 233.8 (or 247.3) and bus 26.0 for 25, 200 and 25.
TEST_F(CalibrateTest, TheGuidesLoopOnTheModelGivesTheBaselineTimingBack) {
  const fs::path plan = fs::path(SSDLAB_SOURCE_DIR) / "workloads/plans/calibrate.toml";
  const std::string base = support::shell_quote(support::preset("agrawal-baseline"));
  const auto sim = support::run_ssdlab("sim -q -c " + base + " -w " + support::shell_quote(plan) +
                                       " -o " + support::shell_quote(dir_ / "model"));
  ASSERT_EQ(sim.exit_code, 0) << sim.output;
  const auto fit = support::run_ssdlab("calibrate " + support::shell_quote(dir_ / "model") +
                                       " -c " + base + " -o " +
                                       support::shell_quote(dir_ / "fitted.toml"));
  ASSERT_EQ(fit.exit_code, 0) << fit.output;
  EXPECT_THAT(fit.output, HasSubstr("RMS relative error 0.0%")) << fit.output;
  const auto fitted = ssdlab::sim::load_config((dir_ / "fitted.toml").string());
  EXPECT_EQ(fitted.timing.read_ns, 25'000) << fit.output;
  EXPECT_EQ(fitted.timing.program_ns, 200'000) << fit.output;
  EXPECT_EQ(fitted.timing.bus_ps_per_byte, 25'000) << fit.output;
}

TEST_F(CalibrateTest, NeedsReadsAndSequentialWrites) {
  support::run_tiny(dir_, "measured", support::sim_options("RR:count=20"));
  const auto fit = support::run_ssdlab("calibrate " + support::shell_quote(dir_ / "measured") +
                                       " -c " + support::shell_quote(support::preset("tiny")) +
                                       " -o " + support::shell_quote(dir_ / "fitted.toml"));
  EXPECT_EQ(fit.exit_code, 1);
  EXPECT_THAT(fit.output, HasSubstr("calibration needs queue-depth-1 reads (SR or RR) and "
                                    "writes (SW or RW)"));
  EXPECT_FALSE(fs::exists(dir_ / "fitted.toml"));
}

TEST_F(CalibrateTest, FolderWithoutSummaryIsAnError) {
  fs::create_directories(dir_ / "empty");
  const auto fit = support::run_ssdlab("calibrate " + support::shell_quote(dir_ / "empty") +
                                       " -c " + support::shell_quote(support::preset("tiny")) +
                                       " -o " + support::shell_quote(dir_ / "fitted.toml"));
  EXPECT_EQ(fit.exit_code, 1);
  EXPECT_EQ(fit.output, "ssdlab: " + (dir_ / "empty").string() +
                            ": no summary.json (is it an ssdlab output folder?)\n");
}

}  // namespace
