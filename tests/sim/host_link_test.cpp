// The host link ([host.link]) and firmware time (host.firmware_us): the
// link's rates per generation and width against hand-computed values, its
// two FIFO directions, and the config keys (read, echoed only where set, read
// back, one error per bad value naming the key).
#include "sim/controller/host_link.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "config_fixture.h"
#include "sim/config/config.h"
#include "sim/config/host_link_config.h"

namespace ssdlab {
namespace {

using testing::ConfigTest;
using ::testing::HasSubstr;

sim::HostLinkConfig link(std::uint32_t generation, std::uint32_t lanes) {
  sim::HostLinkConfig config;
  config.generation = generation;
  config.lanes = lanes;
  return config;
}

// Hand-computed: GT/s x encoding / 8 bits x lanes; payload x 256 / (256 + 24);
// the command's 140 bytes at the raw rate, rounded up.
TEST(HostLinkRates, RawPayloadAndCommandTimePerGenerationAndWidth) {
  struct Case {
    std::uint32_t generation, lanes;
    double raw_mb_s;
    std::int64_t fs_per_byte;
    TimeNs command_ns;
  };
  const Case cases[] = {
      {1, 1, 250.0, 4'375'000, 560},          // 2.5 GT/s x 8/10 = 2 Gb/s
      {2, 4, 2000.0, 546'875, 70},            // 5 GT/s x 8/10 x 4 lanes
      {3, 1, 984.615384615, 1'110'840, 143},  // 8 GT/s x 128/130; 142.19 ns
      {4, 8, 15753.846153846, 69'427, 9},     // 16 GT/s x 128/130 x 8; 8.89 ns
      {5, 16, 63015.384615385, 17'357, 3},    // 32 GT/s x 128/130 x 16; 2.22 ns
  };
  for (const Case& c : cases) {
    const auto config = link(c.generation, c.lanes);
    EXPECT_NEAR(sim::link_raw_bytes_per_s(config) / 1e6, c.raw_mb_s, 1e-6) << c.generation;
    EXPECT_NEAR(sim::link_payload_bytes_per_s(config) / 1e6, c.raw_mb_s * 256 / 280, 1e-6);
    EXPECT_EQ(sim::link_payload_fs_per_byte(config), c.fs_per_byte) << c.generation;
    EXPECT_EQ(sim::link_command_ns(config), c.command_ns) << c.generation;
  }
}

TEST(HostLinkRates, OverridesReplaceEfficiencyAndCommandTime) {
  auto config = link(1, 1);
  config.efficiency = 0.5;
  config.command_ns = 0;
  EXPECT_EQ(sim::link_payload_fs_per_byte(config), 8'000'000);  // 125 MB/s
  EXPECT_EQ(sim::HostLink(config).transfer_ns(1000), 8000);
}

TEST(HostLink, EachDirectionIsAFifoOfItsOwn) {
  sim::HostLink host_link(link(1, 1));  // 4.375 ns per byte, 560 ns per command
  EXPECT_EQ(host_link.transfer_ns(4096), 560 + 17'920);
  EXPECT_EQ(host_link.transfer_ns(1), 560 + 5);  // rounded up to the nanosecond
  EXPECT_EQ(host_link.to_device(0, 4096), 18'480);
  // Asked for at 100 ns: waits for the first transfer's end.
  EXPECT_EQ(host_link.to_device(100, 4096), 36'960);
  // The other direction is free.
  EXPECT_EQ(host_link.to_host(100, 0), 660);
  // Idle in between: starts when asked.
  EXPECT_EQ(host_link.to_device(50'000, 0), 50'560);
  EXPECT_EQ(host_link.busy_to_device_ns(), 2 * 18'480 + 560);
  EXPECT_EQ(host_link.busy_to_host_ns(), 560);
  host_link.reset();
  EXPECT_EQ(host_link.to_device(10, 0), 570);
}

TEST_F(ConfigTest, HostLinkKeysAreReadEchoedAndReadBack) {
  const auto config = sim::load_config(Write(R"([host]
firmware_us = 2.5

[host.link]
generation = 4
lanes = 2
efficiency = 0.85
command_overhead_ns = 100
)"));
  const sim::ControllerConfig& c = config.controller;
  EXPECT_EQ(c.firmware_ns, 2500);
  EXPECT_EQ(c.link.generation, 4u);
  EXPECT_EQ(c.link.lanes, 2u);
  EXPECT_DOUBLE_EQ(c.link.efficiency, 0.85);
  EXPECT_EQ(c.link.command_ns, 100);
  const nlohmann::json echo = sim::to_json(config);
  EXPECT_EQ(echo["host"]["link"]["generation"], 4);
  EXPECT_EQ(echo["host"]["firmware_us"], 2.5);
  const auto back = sim::config_from_json(echo, "echo");
  nlohmann::json again = sim::to_json(back);
  again["source"] = echo["source"];
  EXPECT_EQ(again, echo);
  // --set reaches the sub-table too.
  const auto set =
      sim::load_config(Write("[geometry]\n"), {"host.link.generation=3", "host.link.lanes=8"});
  EXPECT_EQ(set.controller.link.generation, 3u);
  EXPECT_EQ(set.controller.link.lanes, 8u);
  EXPECT_EQ(set.controller.link.command_ns, -1);  // derived
}

TEST_F(ConfigTest, WithoutHostLinkTheEchoIsAsBefore) {
  const auto config = sim::load_config(Write("[geometry]\n"));
  EXPECT_FALSE(config.controller.link.on());
  EXPECT_EQ(config.controller.firmware_ns, 0);
  const nlohmann::json host = sim::to_json(config)["host"];
  EXPECT_EQ(host,
            (nlohmann::json{{"sector_size", 512}, {"queue_depth", 0}, {"scheduling", "fifo"}}));
}

TEST_F(ConfigTest, HostLinkErrorsNameTheKey) {
  const auto error = [this](const std::string& text) { return ErrorOf(Write(text)); };
  EXPECT_THAT(error("[host.link]\ngeneration = 6\nlanes = 4\n"),
              HasSubstr("host.link.generation: 6 is out of range: allowed 1 to 5"));
  EXPECT_THAT(error("[host.link]\ngeneration = 3\nlanes = 3\n"),
              HasSubstr("host.link.lanes: 3 is not a PCIe link width: allowed 1, 2, 4, 8 or 16"));
  EXPECT_THAT(error("[host.link]\ngeneration = 3\nlanes = 32\n"),
              HasSubstr("host.link.lanes: 32 is out of range: allowed 1 to 16"));
  EXPECT_THAT(error("[host.link]\nlanes = 4\n"),
              HasSubstr("host.link.generation: a [host.link] table needs a generation"));
  EXPECT_THAT(error("[host.link]\ngeneration = 2\n"),
              HasSubstr("host.link.lanes: a [host.link] table needs lanes"));
  EXPECT_THAT(error("[host.link]\ngeneration = 2\nlanes = 1\nefficiency = 0\n"),
              HasSubstr("host.link.efficiency: 0 is out of range: allowed above 0 to 1"));
  EXPECT_THAT(error("[host.link]\ngeneration = 2\nlanes = 1\nspeed = 1\n"),
              HasSubstr("unknown key 'host.link.speed'"));
  EXPECT_THAT(error("[host]\nfirmware_us = -1\n"),
              HasSubstr("host.firmware_us: -1 is out of range: allowed from 0 to 1000000"));
}

}  // namespace
}  // namespace ssdlab
