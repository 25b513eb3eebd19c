// The controller keys ([host] queue_depth, scheduling; [controller] write
// buffer and background cleaning): presets load, bad values name the file,
// line and key.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "common/error.h"
#include "run_support.h"
#include "sim/config/config.h"
#include "test_support.h"

namespace ssdlab {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string error_of(const std::string& path, const std::vector<std::string>& overrides) {
  try {
    sim::load_config(path, overrides);
  } catch (const Error& error) {
    return error.what();
  }
  ADD_FAILURE() << "loaded without an error";
  return "";
}

TEST(ControllerConfig, DefaultsSwitchTheControllerModelOff) {
  const auto config = testing::load_preset("agrawal-baseline");
  EXPECT_EQ(config.controller.queue_depth, 0u);
  EXPECT_EQ(config.controller.scheduling, sim::Scheduling::kFifo);
  EXPECT_EQ(config.controller.write_buffer_bytes, 0u);
  EXPECT_FALSE(config.controller.preempt_background_cleaning);
}

TEST(ControllerConfig, PresetsLoadTheirControllerKeys) {
  const auto buffer = testing::load_preset("agrawal-write-buffer");
  EXPECT_EQ(buffer.controller.write_buffer_bytes, 8u << 20);
  EXPECT_FALSE(buffer.controller.write_through);
  const auto background = testing::load_preset("agrawal-background-cleaning");
  EXPECT_TRUE(background.controller.preempt_background_cleaning);
  EXPECT_GT(background.ftl.clean_high_water, background.ftl.clean_low_water);
  const auto queue = testing::load_preset("agrawal-reads-first");
  EXPECT_EQ(queue.controller.scheduling, sim::Scheduling::kReadsFirst);
  EXPECT_GT(queue.controller.queue_depth, 0u);
}

TEST(ControllerConfig, OverridesSetEveryKey) {
  const auto config = sim::load_config(
      testing::preset("tiny"),
      {"host.queue_depth=4", "host.scheduling=reads-first", "controller.write_buffer=\"1MiB\"",
       "controller.write_buffer_policy=write-through", "controller.write_buffer_high_water=0.8",
       "controller.write_buffer_low_water=0.2", "controller.write_buffer_ns_per_byte=1.5",
       "controller.background_cleaning_preempt=true"});
  const auto& c = config.controller;
  EXPECT_EQ(c.queue_depth, 4u);
  EXPECT_EQ(c.scheduling, sim::Scheduling::kReadsFirst);
  EXPECT_EQ(c.write_buffer_bytes, 1u << 20);
  EXPECT_TRUE(c.write_through);
  EXPECT_DOUBLE_EQ(c.flush_high_water, 0.8);
  EXPECT_DOUBLE_EQ(c.flush_low_water, 0.2);
  EXPECT_EQ(c.buffer_ps_per_byte, 1500);
  EXPECT_TRUE(c.preempt_background_cleaning);
}

TEST(ControllerConfig, BadValuesNameTheKeyAndWhatIsAllowed) {
  const std::string tiny = testing::preset("tiny");
  EXPECT_THAT(error_of(tiny, {"host.scheduling=lifo"}),
              AllOf(StartsWith("--set host.scheduling=lifo: host.scheduling: "),
                    HasSubstr("fifo, reads-first")));
  EXPECT_THAT(error_of(tiny, {"host.queue_depth=-1"}), HasSubstr("out of range"));
  EXPECT_THAT(error_of(tiny, {"controller.write_buffer=5000"}),
              HasSubstr("not a whole number of 4096-byte logical pages"));
  EXPECT_THAT(error_of(tiny, {"controller.write_buffer_policy=write-around"}),
              HasSubstr("write-back, write-through"));
  EXPECT_THAT(error_of(tiny, {"controller.write_buffer_high_water=0.5",
                              "controller.write_buffer_low_water=0.6"}),
              AllOf(StartsWith("--set controller.write_buffer_low_water=0.6: "),
                    HasSubstr("must be below write_buffer_high_water 0.5")));
  EXPECT_THAT(error_of(tiny, {"controller.write_buffer_high_water=0"}), HasSubstr("out of range"));
  EXPECT_THAT(error_of(tiny, {"controller.background_cleaning_preempt=1"}),
              HasSubstr("expected true or false"));
  EXPECT_THAT(error_of(tiny, {"controller.buffer=1"}),
              AllOf(HasSubstr("unknown key 'controller.buffer'"), HasSubstr("write_buffer")));
}

TEST(ControllerConfig, BadValueInAFileNamesItsLine) {
  const auto dir = testing::temp_dir("controller-config");
  const auto path =
      testing::write_file(dir / "device.toml",
                          "[device]\nname = \"x\"\n\n[controller]\n"
                          "write_buffer = \"8MiB\"\nwrite_buffer_policy = \"lazy\"\n");
  EXPECT_THAT(error_of(path.string(), {}),
              StartsWith(path.string() + ":6: controller.write_buffer_policy: 'lazy'"));
}

TEST(ControllerCli, TraceReplayQueuesRequestsAtTheHost) {
  // Four writes of different pages arrive together; a host queue of depth 1
  // serves them one after another, so the k-th waits for the k before it.
  const auto dir = testing::temp_dir("controller-replay");
  std::string lines;
  for (int k = 0; k < 4; ++k)
    lines += fmt::format("128166372003061629,hm,0,Write,{},4096,26\n", k * 4096);
  const auto trace = testing::write_file(dir / "t.csv", lines);
  testing::run_tiny(dir, "out",
                    testing::sim_options("trace:" + trace.string(), {"host.queue_depth=1"}));
  const auto rows = testing::csv_rows(testing::read_file(dir / "out" / "io.csv"));
  ASSERT_EQ(rows.size(), 4u);
  const double first = std::stod(rows[0][5]);
  for (int k = 1; k < 4; ++k) EXPECT_DOUBLE_EQ(std::stod(rows[k][5]), (k + 1) * first) << k;
}

TEST(ControllerCli, PrintsTheCleaningSplitAndTheBufferCounters) {
  const auto dir = testing::temp_dir("controller-print");
  auto options = testing::sim_options("RW:count=2000", {"controller.write_buffer=65536"});
  options.precondition = "random";
  std::string printed;
  testing::run_tiny(dir, "out", options, &printed);
  EXPECT_THAT(printed, HasSubstr("cleaning in the runs: foreground "));
  EXPECT_THAT(printed, HasSubstr("write buffer in the runs: 2000 pages written"));
}

}  // namespace
}  // namespace ssdlab
