// The controller's limits ([controller.firmware], [controller.data_path];
// sim/controller/controller_limits.h): the cores' first come, first served
// order over the earliest free core and the data path's transfers against
// hand-computed times; the config keys (read, echoed only where set, read
// back, one error per bad value naming the key); and the part's checkpoint
// section: saved and loaded to the same bytes, an older state without it
// loading into a device with it, and the other way round.
#include "sim/controller/controller_limits.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "config_fixture.h"
#include "flash_support.h"
#include "sim/config/config.h"
#include "sim/controller/ssd.h"
#include "state_support.h"
#include "test_support.h"

namespace ssdlab {
namespace {

using sim::ControllerConfig;
using sim::ControllerLimits;
using testing::ConfigTest;
using ::testing::HasSubstr;
using testing::idle_flash;

ControllerConfig limits(std::uint32_t cores, double bytes_per_s) {
  ControllerConfig c;
  c.firmware.cores = cores;
  c.firmware.read_ns = 1000;
  c.firmware.write_ns = 3000;
  c.firmware.trim_ns = 500;
  c.firmware.zone_management_ns = 700;
  c.data_path.bytes_per_s = bytes_per_s;
  return c;
}

TEST(ControllerLimits, TheEarliestFreeCoreTakesEachCommandInArrivalOrder) {
  ControllerLimits part(limits(2, 0), {}, idle_flash());
  EXPECT_EQ(part.serve(0, IoMode::kWrite), 3000);          // core 0 (ties: the first)
  EXPECT_EQ(part.serve(0, IoMode::kRead), 1000);           // core 1
  EXPECT_EQ(part.serve(0, IoMode::kRead), 2000);           // core 1 again: free at 1000
  EXPECT_EQ(part.serve(100, IoMode::kTrim), 2500);         // core 1, free at 2000
  EXPECT_EQ(part.serve(2600, IoMode::kZoneReset), 3300);   // core 1, free since 2500
  EXPECT_EQ(part.serve(5000, IoMode::kZoneAppend), 8000);  // idle: starts at once
  const auto counts = part.core_counters();
  ASSERT_TRUE(counts);
  EXPECT_EQ(counts->commands, 6u);
  EXPECT_EQ(counts->busy_ns, 3000 + 1000 + 1000 + 500 + 700 + 3000);
  EXPECT_EQ(counts->wait_ns, 0 + 0 + 1000 + 1900 + 0 + 0);
  EXPECT_FALSE(part.data_path_counters());  // no data path
  EXPECT_EQ(part.move(10, 4096), 10);
  part.count_time_to(10'000);
  EXPECT_EQ(part.core_counters()->available_ns, 2 * 10'000);
  part.power_lost();  // a power cut: both free again
  EXPECT_EQ(part.serve(10, IoMode::kRead), 1010);
}

TEST(ControllerLimits, TheDataPathMovesOneTransferAtATime) {
  ControllerLimits part(limits(0, 3e9), {}, idle_flash());  // 333,333 fs per byte
  EXPECT_FALSE(part.cores_on());
  EXPECT_EQ(part.serve(7, IoMode::kRead), 7);
  EXPECT_EQ(part.move(0, 4096), 1366);    // 1365.33 ns, rounded up
  EXPECT_EQ(part.move(100, 4096), 2732);  // behind the first
  EXPECT_EQ(part.move(5000, 0), 5000);    // no bytes: no transfer
  EXPECT_EQ(part.move(5000, 1), 5001);
  const auto counts = part.data_path_counters();
  ASSERT_TRUE(counts);
  EXPECT_EQ(counts->transfers, 3u);
  EXPECT_EQ(counts->bytes, 8193u);
  EXPECT_EQ(counts->busy_ns, 1366 + 1366 + 1);
  EXPECT_EQ(counts->wait_ns, 1266);
}

TEST_F(ConfigTest, ControllerLimitKeysAreReadEchoedAndReadBack) {
  const auto config = sim::load_config(Write(R"([controller.firmware]
cores = 4
read_us = 2.5
write_us = 4
trim_us = 1

[controller.data_path]
bytes_per_s = 2.4e9
)"));
  const ControllerConfig& c = config.controller;
  EXPECT_EQ(c.firmware.cores, 4u);
  EXPECT_EQ(c.firmware.read_ns, 2500);
  EXPECT_EQ(c.firmware.write_ns, 4000);
  EXPECT_EQ(c.firmware.trim_ns, 1000);
  EXPECT_EQ(c.firmware.zone_management_ns, 0);
  EXPECT_DOUBLE_EQ(c.data_path.bytes_per_s, 2.4e9);
  const nlohmann::json echo = sim::to_json(config);
  EXPECT_EQ(echo["controller"]["firmware"]["cores"], 4);
  EXPECT_EQ(echo["controller"]["firmware"]["read_us"], 2.5);
  EXPECT_EQ(echo["controller"]["data_path"]["bytes_per_s"], 2.4e9);
  const auto back = sim::config_from_json(echo, "echo");
  nlohmann::json again = sim::to_json(back);
  again["source"] = echo["source"];
  EXPECT_EQ(again, echo);
  const auto set = sim::load_config(
      Write("[geometry]\n"), {"controller.firmware.cores=2", "controller.firmware.write_us=7"});
  EXPECT_EQ(set.controller.firmware.cores, 2u);
  EXPECT_EQ(set.controller.firmware.write_ns, 7000);
  // Without the tables: nothing echoed.
  const nlohmann::json plain = sim::to_json(sim::load_config(Write("[geometry]\n")));
  EXPECT_FALSE(plain["controller"].contains("firmware"));
  EXPECT_FALSE(plain["controller"].contains("data_path"));
}

TEST_F(ConfigTest, ControllerLimitErrorsNameTheKey) {
  const auto error = [this](const std::string& text) { return ErrorOf(Write(text)); };
  EXPECT_THAT(error("[controller.firmware]\ncores = 0\n"),
              HasSubstr("controller.firmware.cores: 0 is out of range: allowed 1 to 256"));
  EXPECT_THAT(error("[controller.firmware]\ncores = 2\nread_us = -1\n"),
              HasSubstr("controller.firmware.read_us: -1 is out of range: allowed from 0"));
  EXPECT_THAT(error("[controller.firmware]\nwrite_us = 3\n"),
              HasSubstr("controller.firmware.cores: a [controller.firmware] table needs cores"));
  EXPECT_THAT(error("[controller.data_path]\nbytes_per_s = 0\n"),
              HasSubstr("controller.data_path.bytes_per_s: 0 is out of range: allowed above 0"));
  EXPECT_THAT(error("[controller.firmware]\ncores = 2\nflush_us = 3\n"),
              HasSubstr("unknown key 'controller.firmware.flush_us'"));
}

sim::DeviceConfig tiny_with(const std::vector<std::string>& sets) {
  return sim::load_config(testing::preset("tiny"), sets);
}

using testing::saved_bytes;

using testing::load_bytes;

const std::vector<std::string> kLimits = {"controller.firmware.cores=3",
                                          "controller.firmware.read_us=5",
                                          "controller.data_path.bytes_per_s=1e9"};

TEST(ControllerLimitsState, RoundTripsAndLoadsAcrossTheKeys) {
  const sim::DeviceConfig config = tiny_with(kLimits);
  sim::Ssd original(config);
  ControllerLimits& part = *original.limits();
  part.serve(0, IoMode::kRead);
  part.serve(0, IoMode::kRead);
  part.move(0, 4096);
  part.count_time_to(50'000);
  const std::string state = saved_bytes(original);
  sim::Ssd loaded(config);
  load_bytes(loaded, state);
  EXPECT_EQ(saved_bytes(loaded), state);
  EXPECT_EQ(loaded.limits()->core_counters(), part.core_counters());
  EXPECT_EQ(loaded.limits()->serve(0, IoMode::kRead), 5000);    // the third core was free
  EXPECT_EQ(loaded.limits()->serve(0, IoMode::kRead), 10'000);  // the first's busy-until

  // A state saved without the part (an older checkpoint's) loads into a
  // device with it: free cores, counters from 0.
  const sim::DeviceConfig plain = tiny_with({});
  const std::string old_state = saved_bytes(sim::Ssd(plain));
  sim::Ssd newer(config);
  load_bytes(newer, old_state);
  EXPECT_EQ(newer.limits()->core_counters()->commands, 0u);
  // And a state with it loads into a device without (the section dropped),
  // then saves as that device's own.
  sim::Ssd without(plain);
  load_bytes(without, state);
  EXPECT_EQ(saved_bytes(without), old_state);
  // Into fewer cores: the first ones' times.
  sim::Ssd one(tiny_with({"controller.firmware.cores=1", "controller.firmware.read_us=5"}));
  load_bytes(one, state);
  EXPECT_EQ(one.limits()->serve(0, IoMode::kRead), 10'000);
  EXPECT_FALSE(one.limits()->data_path_counters());
}

}  // namespace
}  // namespace ssdlab
