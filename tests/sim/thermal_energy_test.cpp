// The flash's energy by operation kind ([power], flash/nand_power.h) and
// the controller's thermal throttle ([controller.thermal],
// sim/controller/thermal_throttle.h): energy is V x I x time per kind in
// every run's summary; the temperature follows the power at its time
// constant; the throttle paces host data at its rate from throttle_c until
// below release_c; the keys' errors; the throttle's state in checkpoints.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "config_fixture.h"
#include "flash_support.h"
#include "run_support.h"
#include "sim/config/config.h"
#include "sim/controller/ssd.h"
#include "sim/controller/thermal_throttle.h"
#include "state_support.h"
#include "test_support.h"

namespace ssdlab {
namespace {

using sim::ThermalConfig;
using sim::ThermalThrottle;
using testing::ConfigTest;
using ::testing::HasSubstr;
using testing::idle_flash;

// 1 nJ per host byte, so that 1 MB per ms is 1 W.
ThermalConfig thermal(double time_constant_s, double throttle_c, double release_c) {
  ThermalConfig t;
  t.enabled = true;
  t.idle_c = 30;
  t.resistance_c_per_w = 10;
  t.time_constant_s = time_constant_s;
  t.throttle_c = throttle_c;
  t.release_c = release_c;
  t.throttle_bytes_per_s = 1e6;  // 1,000 ns per byte
  t.controller_nj_per_byte = 1;
  return t;
}

constexpr TimeNs kMs = 1'000'000;

TEST(ThermalThrottle, TheTemperatureApproachesIdlePlusRTimesPowerAtItsTimeConstant) {
  ThermalThrottle part(thermal(1.0, 100, 98), {}, &idle_flash());
  for (TimeNs t = 0; t < 1000 * kMs; t += kMs) EXPECT_EQ(part.pass(t, 1'000'000), t);
  part.count_time(1000 * kMs, 1000 * kMs);
  // 1 W toward 30 + 10 x 1 = 40 degrees, 100 steps of 10 ms at tau = 1 s:
  // 40 - 10 x 0.99^100 (the exact solution, 40 - 10 / e, is 36.32).
  EXPECT_NEAR(part.temperature_c(), 40 - 10 * std::pow(0.99, 100), 1e-9);
  EXPECT_FALSE(part.throttled());
  // Idle, it cools back to 30.
  part.count_time(100'000 * kMs, 99'000 * kMs);
  EXPECT_NEAR(part.temperature_c(), 30, 1e-6);
}

TEST(ThermalThrottle, PacesHostDataFromThrottleCUntilBelowReleaseC) {
  // tau = 50 ms: 20% of the way per step. At 1 W toward 40: 35.904 after 4
  // steps (40 - 10 x 0.8^4), past 35.
  ThermalThrottle part(thermal(0.05, 35, 33), {}, &idle_flash());
  TimeNs t = 0, done = 0;
  for (; !part.throttled(); t += kMs) done = part.pass(t, 1'000'000);
  // The pass at 40 ms saw the 4th step: throttled, its megabyte takes 1 s
  // at 1 MB/s; the passes before went at once.
  EXPECT_EQ(t, 41 * kMs);
  EXPECT_EQ(done, 40 * kMs + 1000 * kMs);
  EXPECT_NEAR(part.temperature_c(), 40 - 10 * std::pow(0.8, 4), 1e-9);
  // Behind it, 1,000 bytes take 1 ms each, one after another.
  EXPECT_EQ(part.pass(t, 1000), done + kMs);
  EXPECT_EQ(part.pass(t + 1, 1000), done + 2 * kMs);
  // No more data: the megabyte's heat for one step (0.1 W), then it cools
  // toward 30 by 20% a step and lets go below 33 (at 80 ms: 32.52).
  TimeNs released = t;
  while (part.throttled()) {
    released += kMs;
    part.pass(released, 0);
  }
  EXPECT_EQ(released, 80 * kMs);
  EXPECT_LT(part.temperature_c(), 33);
  EXPECT_GT(part.temperature_c(), 32.5);
  // Released, data is no longer paced, but what was queued goes first.
  EXPECT_EQ(part.pass(released, 1000), done + 2 * kMs);
  EXPECT_EQ(part.pass(done + 5 * kMs, 1000), done + 5 * kMs);
  part.count_time(done + 10 * kMs, done + 10 * kMs);
  EXPECT_EQ(part.counters().throttles, 1u);
  EXPECT_EQ(part.counters().throttled_ns, released - 40 * kMs);
  EXPECT_EQ(part.counters().available_ns, done + 10 * kMs);
}

TEST(ThermalThrottle, AHeavyLevelPacesAtItsOwnRateAboveHeavyC) {
  // 2 W toward 50 (tau 50 ms: 20% a step): past 35 (light) after 2 steps
  // (37.2), past 42 (heavy) after 5 (43.4: 50 - 20 x 0.8^5).
  ThermalConfig config = thermal(0.05, 35, 33);
  config.heavy_c = 42;
  config.heavy_bytes_per_s = 0.5e6;  // 2,000 ns per byte
  ThermalThrottle part(config, {}, &idle_flash());
  TimeNs t = 0;
  for (; part.level() < 2; t += kMs) {
    part.pass(t, 2'000'000);
    if (t == 25 * kMs) EXPECT_EQ(part.level(), 1);  // light from 20 ms
  }
  EXPECT_EQ(t, 51 * kMs);  // heavy at the 50 ms step
  // Data behind the megabytes queued at the light rate from 20 ms, at 2 ms
  // per 1,000 bytes.
  const TimeNs queued = part.pass(t, 0);
  EXPECT_EQ(part.pass(t, 1000), queued + 2 * kMs);
  // Cooling: heavy ends below 40 (42 less the light level's 2), light below 33.
  TimeNs when = t;
  while (part.level() == 2) part.pass(when += kMs, 0);
  EXPECT_LT(part.temperature_c(), 40);
  EXPECT_GE(part.temperature_c(), 33);
  EXPECT_EQ(part.level(), 1);
  while (part.throttled()) part.pass(when += kMs, 0);
  part.count_time(when, when);
  EXPECT_EQ(part.counters().throttles, 1u);
  EXPECT_EQ(part.counters().throttled_ns, when - 20 * kMs);
  EXPECT_GT(part.counters().heavy_ns, 0);
  EXPECT_LT(part.counters().heavy_ns, part.counters().throttled_ns);
}

TEST(FlashEnergy, IsVoltageTimesCurrentTimesTheFlashTimeOfEachKind) {
  const auto dir = testing::temp_dir_for_this_test("energy-");
  // A random write of the tiny device: cleaning copy-backs and erases too.
  const auto device = [&](const std::string& name, std::vector<std::string> sets) {
    testing::run_tiny(dir, name, testing::sim_options("RW:count=20000", std::move(sets)));
    return testing::summary_of(dir / name)["experiments"][0]["runs"][0]["device"];
  };
  const auto d = device("default", {});
  // 3.3 V x 10 mA = 33 mW: 6.6 uJ per 200 us program, 49.5 uJ per 1500 us
  // erase, 0.825 uJ per 25 us read (here the copy-backs' reads).
  const double pages = d["flash_pages_written"], erases = d["erases"];
  const double moves = pages - d["host_pages_written"].get<double>();
  EXPECT_GT(erases, 0);
  EXPECT_NEAR(d["energy_program_uj"].get<double>(), pages * 6.6, 1e-3);
  EXPECT_NEAR(d["energy_erase_uj"].get<double>(), erases * 49.5, 1e-3);
  EXPECT_NEAR(d["energy_read_uj"].get<double>(), moves * 0.825, 1e-3);
  EXPECT_NEAR(d["energy_transfer_uj"].get<double>(), d["bus_busy_us"].get<double>() * 0.033, 1e-3);
  EXPECT_NEAR(d["energy_flash_uj"].get<double>(),
              d["energy_program_uj"].get<double>() + d["energy_erase_uj"].get<double>() +
                  d["energy_read_uj"].get<double>() + d["energy_transfer_uj"].get<double>(),
              1e-3);
  // A two-plane program draws the current of both planes: joined writes
  // (interleaving over planes) take the energy of their pages.
  const auto joined = device("joined", {"geometry.interleaving=\"planes\""});
  EXPECT_GT(joined["two_plane_commands"].get<double>(), 0);
  EXPECT_NEAR(joined["energy_program_uj"].get<double>(),
              joined["flash_pages_written"].get<double>() * 6.6, 1e-3);
  // [power] sets the currents: twice the program current, twice its energy.
  const auto doubled = device("doubled", {"power.program_ma=20", "power.vcc_v=3.3"});
  EXPECT_NEAR(doubled["energy_program_uj"].get<double>(), pages * 13.2, 1e-3);
  EXPECT_EQ(doubled["energy_erase_uj"], d["energy_erase_uj"]);
}

TEST(ThermalRun, SustainedWritesThrottleAndRunSlowerThanWithoutIt) {
  const auto dir = testing::temp_dir_for_this_test("thermal-");
  // The tiny device writes some 80 MB/s (its two buses); at 10 nJ per byte
  // its controller alone dissipates 0.8 W, 16 degrees over 30 at 20 C/W.
  const std::vector<std::string> hot = {
      "controller.thermal.idle_c=30",           "controller.thermal.resistance_c_per_w=20",
      "controller.thermal.time_constant_s=0.2", "controller.thermal.throttle_c=40",
      "controller.thermal.throttle_mb_s=10",    "controller.thermal.controller_nj_per_byte=10"};
  const auto span_us = [&](const std::string& name, const std::vector<std::string>& sets) {
    testing::run_tiny(dir, name,
                      testing::sim_options("SW:io_size=64KiB,count=4000,queue_depth=8", sets));
    return testing::summary_of(dir / name)["simulated_us"].get<double>();
  };
  const double free_us = span_us("free", {});
  const double hot_us = span_us("hot", hot);
  const auto device = testing::summary_of(dir / "hot")["experiments"][0]["runs"][0]["device"];
  EXPECT_GE(device["thermal_throttles"].get<int>(), 1);
  const double throttled_us = device["thermal_throttled_us"];
  EXPECT_GT(throttled_us, 0);
  // Throttled, host data moves at 10 MB/s, slower than the flash's 80:
  // the run takes longer by at least the throttled time's lost share.
  EXPECT_GT(hot_us, free_us + 0.5 * throttled_us);
  // The same keys with a threshold the drive never reaches: no throttling.
  std::vector<std::string> cool = hot;
  cool[3] = "controller.thermal.throttle_c=150";
  span_us("cool", cool);
  const auto cool_device = testing::summary_of(dir / "cool")["experiments"][0]["runs"][0]["device"];
  EXPECT_EQ(cool_device["thermal_throttles"], 0);
  EXPECT_EQ(cool_device["thermal_throttled_us"], 0.0);
}

TEST_F(ConfigTest, ThermalAndPowerKeysReadEchoAndNameTheirErrors) {
  const auto config = sim::load_config(Write(R"([controller.thermal]
idle_c = 33
resistance_c_per_w = 10
time_constant_s = 60
throttle_c = 79
throttle_mb_s = 900
heavy_c = 85
heavy_mb_s = 300

[power]
program_ma = 25
)"));
  const ThermalConfig& t = config.controller.thermal;
  EXPECT_TRUE(t.on());
  EXPECT_DOUBLE_EQ(t.release_c, 77);  // throttle_c - 2
  EXPECT_DOUBLE_EQ(t.throttle_bytes_per_s, 900e6);
  EXPECT_DOUBLE_EQ(config.power.program_ma, 25);
  EXPECT_DOUBLE_EQ(config.power.read_ma, 10);
  const nlohmann::json echo = sim::to_json(config);
  EXPECT_EQ(echo["controller"]["thermal"]["throttle_mb_s"], 900.0);
  EXPECT_EQ(echo["controller"]["thermal"]["heavy_mb_s"], 300.0);
  EXPECT_DOUBLE_EQ(t.heavy_bytes_per_s, 300e6);
  EXPECT_EQ(echo["power"]["program_ma"], 25.0);
  nlohmann::json again = sim::to_json(sim::config_from_json(echo, "echo"));
  again["source"] = echo["source"];
  EXPECT_EQ(again, echo);
  const nlohmann::json plain = sim::to_json(sim::load_config(Write("[geometry]\n")));
  EXPECT_FALSE(plain["controller"].contains("thermal"));
  EXPECT_FALSE(plain.contains("power"));
  // `ssdlab config` says both: the currents always, the throttle when on.
  EXPECT_THAT(testing::config_text("tiny"),
              HasSubstr("power       NAND at 3.3 V: read 10 mA, program 10 mA, erase 10 mA, "
                        "transfers 10 mA (datasheet defaults)"));
  EXPECT_THAT(testing::config_text("tiny", {"controller.thermal.idle_c=33",
                                            "controller.thermal.resistance_c_per_w=10",
                                            "controller.thermal.time_constant_s=60",
                                            "controller.thermal.throttle_c=79",
                                            "controller.thermal.throttle_mb_s=900"}),
              HasSubstr("thermal     33 °C idle, 10 °C/W, time constant 60 s; at 79 °C host data "
                        "at 900 MB/s until below 77 °C"));
  EXPECT_THAT(
      testing::config_text(
          "tiny", {"controller.thermal.idle_c=33", "controller.thermal.resistance_c_per_w=10",
                   "controller.thermal.time_constant_s=60", "controller.thermal.throttle_c=79",
                   "controller.thermal.throttle_mb_s=900", "controller.thermal.heavy_c=85",
                   "controller.thermal.heavy_mb_s=300"}),
      HasSubstr("heavy level at 85 °C: host data at 300 MB/s until below 83 °C"));

  const auto error = [this](const std::string& text) { return ErrorOf(Write(text)); };
  const std::string needs =
      "[controller.thermal]\nidle_c = 30\nresistance_c_per_w = 5\n"
      "time_constant_s = 10\nthrottle_mb_s = 100\n";
  EXPECT_THAT(error(needs),
              HasSubstr("controller.thermal.throttle_c: a [controller.thermal] table needs "
                        "throttle_c"));
  EXPECT_THAT(error(needs + "throttle_c = 30\n"),
              HasSubstr("controller.thermal.throttle_c: 30 is out of range: allowed above 30"));
  EXPECT_THAT(error(needs + "throttle_c = 70\nrelease_c = 70\n"),
              HasSubstr("controller.thermal.release_c: must be below throttle_c (70)"));
  EXPECT_THAT(error(needs + "throttle_c = 31\n"),
              HasSubstr("controller.thermal.release_c: the default release_c, throttle_c - 2 = "
                        "29, is not above idle_c (30): set release_c"));
  const std::string light = needs + "throttle_c = 70\n";
  EXPECT_THAT(error(light + "heavy_c = 80\n"),
              HasSubstr("controller.thermal.heavy_mb_s: a heavy level (controller.thermal.heavy_c) "
                        "needs its rate, heavy_mb_s"));
  EXPECT_THAT(error(light + "heavy_mb_s = 50\n"),
              HasSubstr("controller.thermal.heavy_c: heavy_mb_s needs the heavy level's "
                        "temperature, heavy_c"));
  EXPECT_THAT(error(light + "heavy_c = 70\nheavy_mb_s = 50\n"),
              HasSubstr("controller.thermal.heavy_c: 70 is out of range: allowed above 70"));
  EXPECT_THAT(error(light + "heavy_c = 80\nheavy_mb_s = 100\n"),
              HasSubstr("controller.thermal.heavy_mb_s: must be below throttle_mb_s (100)"));
  EXPECT_THAT(error("[power]\nvcc_v = 0\n"),
              HasSubstr("power.vcc_v: 0 is out of range: allowed above 0"));
  EXPECT_THAT(error("[power]\nread_ma = -1\n"),
              HasSubstr("power.read_ma: -1 is out of range: allowed from 0"));
}

using testing::saved_bytes;

using testing::load_bytes;

const std::vector<std::string> kThermal = {
    "controller.thermal.idle_c=30",         "controller.thermal.resistance_c_per_w=10",
    "controller.thermal.time_constant_s=1", "controller.thermal.throttle_c=90",
    "controller.thermal.throttle_mb_s=100", "controller.thermal.controller_nj_per_byte=5"};

TEST(ThermalThrottleState, RoundTripsAndLoadsWithoutIt) {
  const sim::DeviceConfig config = sim::load_config(testing::preset("tiny"), kThermal);
  sim::Ssd original(config);
  sim::ControllerLimits& limits = *original.limits();
  for (TimeNs t = 0; t < 500 * kMs; t += kMs) limits.move(t, 100'000);
  limits.count_time_to(500 * kMs);
  const double hot = limits.thermal()->temperature_c();
  EXPECT_GT(hot, 31);
  const std::string state = saved_bytes(original);
  sim::Ssd loaded(config);
  load_bytes(loaded, state);
  EXPECT_EQ(saved_bytes(loaded), state);
  EXPECT_EQ(loaded.limits()->thermal()->temperature_c(), hot);
  // Saved without the throttle: it starts at idle; and with it into a
  // device without: the section's throttle dropped.
  const sim::DeviceConfig plain = sim::load_config(testing::preset("tiny"));
  const std::string old_state = saved_bytes(sim::Ssd(plain));
  sim::Ssd newer(config);
  load_bytes(newer, old_state);
  EXPECT_EQ(newer.limits()->thermal()->temperature_c(), 30);
  sim::Ssd without(plain);
  load_bytes(without, state);
  EXPECT_EQ(saved_bytes(without), old_state);
}

}  // namespace
}  // namespace ssdlab
