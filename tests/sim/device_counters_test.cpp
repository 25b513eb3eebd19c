// What DeviceCounters reports beside its page counts (issue 21, audit):
// write amplification by bytes as well as by pages, and Table 5's cleaning
// time per cleaned block as serial flash time as well as wall time. Every
// expectation follows from the config's parameters.
#include "sim/results/device_counters.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/rng.h"
#include "run_support.h"
#include "sim/controller/ssd.h"
#include "sim/report/device_snapshot.h"
#include "test_support.h"

namespace ssdlab {
namespace {

// `count` writes of `size` bytes at random `size`-aligned offsets, one at a
// time (queue depth 1).
void random_writes(sim::Ssd& ssd, std::uint32_t size, std::uint64_t count, std::uint64_t seed) {
  Rng rng(seed);
  const std::uint64_t slots = ssd.logical_bytes() / size;
  TimeNs now = 0;
  for (std::uint64_t i = 0; i < count; ++i)
    now = *ssd.start({rng.uniform(slots) * size, size, IoMode::kWrite}, now);
}

TEST(WriteAmplification, SubPageWritesCountWholePagesByPagesAndHostBytesByBytes) {
  const auto config = testing::load_preset("tiny");
  const std::uint32_t io = config.sector_size;  // 512 B
  const std::uint32_t page = config.geometry.page_size;
  sim::Ssd ssd(config, {.verify = true});
  // Far fewer writes than free pages: no cleaning, each write programs the
  // one whole flash page it touches.
  random_writes(ssd, io, 200, 3);
  const auto c = sim::device_counters_of(ssd);
  ASSERT_EQ(c.ftl.blocks_cleaned, 0u);
  EXPECT_DOUBLE_EQ(c.write_amplification(), 1.0);
  EXPECT_EQ(c.host_bytes_written, 200u * io);
  EXPECT_EQ(c.flash_bytes_written(), c.ftl.flash_pages_written * page);
  EXPECT_DOUBLE_EQ(c.write_amplification_bytes(), static_cast<double>(page) / io);
}

TEST(WriteAmplification, WithCleaningBytesAreThePageFigureTimesPageOverWriteSize) {
  const auto config = testing::load_preset("tiny");
  const std::uint32_t io = config.sector_size;
  sim::Ssd ssd(config);
  ssd.prefill(0, ssd.logical_bytes());
  const auto before = sim::device_counters_of(ssd);
  random_writes(ssd, io, 20000, 5);
  const auto run = sim::device_counters_of(ssd) - before;
  ASSERT_GT(run.ftl.blocks_cleaned, 0u);
  ASSERT_GT(run.write_amplification(), 1.0);
  // Every write touches exactly one page: host bytes are io / page of the
  // host-touched pages' bytes.
  EXPECT_NEAR(run.write_amplification_bytes(),
              run.write_amplification() * config.geometry.page_size / io, 1e-9);
}

// The unloaded time of each kind of cleaning command, from Table 1's timing.
struct CommandCosts {
  TimeNs copy_back, move, erase;
};
CommandCosts costs_of(const sim::DeviceConfig& config) {
  const auto& t = config.timing;
  const auto& g = config.geometry;
  return {t.command_ns + t.read_ns + t.program_ns,
          t.page_read_latency(g) + t.page_program_latency(g), t.command_ns + t.erase_ns};
}

TEST(CleaningTime, SerialFlashTimeSumsEveryCleaningCommandsUnloadedTime) {
  for (const bool copy_back : {true, false}) {
    auto config = testing::load_preset("tiny");
    config.ftl.copy_back = copy_back;
    config.ftl.two_plane = false;  // one command per moved page
    sim::Ssd ssd(config);
    ssd.prefill(0, ssd.logical_bytes());
    const auto before = sim::device_counters_of(ssd);
    random_writes(ssd, 4096, 8000, 7);
    const auto run = sim::device_counters_of(ssd) - before;
    ASSERT_GT(run.ftl.blocks_cleaned, 0u);
    EXPECT_GT(copy_back ? run.ftl.copy_backs : run.ftl.inter_plane_moves, 0u);
    const CommandCosts cost = costs_of(config);
    // Without wear leveling every erase is a cleaned victim's.
    EXPECT_EQ(run.ftl.erases, run.ftl.blocks_cleaned);
    const TimeNs expected = static_cast<TimeNs>(run.ftl.copy_backs) * cost.copy_back +
                            static_cast<TimeNs>(run.ftl.inter_plane_moves) * cost.move +
                            static_cast<TimeNs>(run.ftl.erases) * cost.erase;
    EXPECT_EQ(run.cleaning_flash_ns, expected) << "copy_back " << copy_back;
    const double blocks = static_cast<double>(run.ftl.blocks_cleaned);
    EXPECT_DOUBLE_EQ(run.cleaning_flash_time_per_block_us(),
                     static_cast<double>(expected) / 1000.0 / blocks);
    EXPECT_DOUBLE_EQ(run.cleaning_time_per_block_us(),
                     static_cast<double>(run.cleaning_ns) / 1000.0 / blocks);
  }
}

TEST(DeviceCountersCli, SummaryAndPrintoutGiveBothWriteAmplificationsAndCleaningTimes) {
  const auto dir = testing::temp_dir_for_this_test("counters");
  const auto config = testing::load_preset("tiny");
  auto options = testing::sim_options("RW:io_size=512,count=6000");
  options.precondition = "seq";
  options.io_log = false;
  std::string printed;
  const auto out = testing::run_tiny(dir, "run", options, &printed);
  EXPECT_NE(printed.find("by bytes (flash bytes / host bytes)"), std::string::npos) << printed;
  EXPECT_NE(printed.find("WA_bytes"), std::string::npos) << printed;
  EXPECT_NE(printed.find("us of serial flash time"), std::string::npos) << printed;
  const auto summary = testing::summary_of(out);
  const auto& device = summary["experiments"][0]["runs"][0]["device"];
  const double ratio = static_cast<double>(config.geometry.page_size) / 512.0;
  ASSERT_GT(device["blocks_cleaned"].get<std::uint64_t>(), 0u);
  EXPECT_EQ(device["host_bytes_written"].get<std::uint64_t>(), 6000u * 512u);
  EXPECT_NEAR(device["write_amplification_bytes"].get<double>(),
              device["write_amplification"].get<double>() * ratio, 1e-9);
  EXPECT_NEAR(
      device["cleaning_flash_time_per_block_us"].get<double>(),
      device["cleaning_flash_time_us"].get<double>() / device["blocks_cleaned"].get<double>(),
      1e-6);
}

}  // namespace
}  // namespace ssdlab

namespace ssdlab {
namespace {

// A registered part's counters (records/part_record.h) under "parts": a
// difference of snapshots and a sum over runs go key by key, summary.json
// holds them by part name and reads them back; none, no "parts".
TEST(PartCounters, AreSubtractedSummedAndWrittenByPartAndKey) {
  sim::DeviceCounters before, after;
  before.parts["tally"] = {{"requests", 10}, {"lists", 4}};
  after.parts["tally"] = {{"requests", 25}, {"lists", 9}};
  const sim::DeviceCounters run = after - before;
  EXPECT_EQ(run.parts.at("tally"), (records::PartRecord{{"requests", 15}, {"lists", 5}}));
  sim::DeviceCounters sum = run;
  sum += run;
  EXPECT_EQ(sum.parts.at("tally").at("requests"), 30u);
  nlohmann::json json;
  sim::to_json(json, sum);
  EXPECT_EQ(json["parts"]["tally"]["lists"], 10u);
  EXPECT_EQ(sim::device_counters_from_json(json).parts, sum.parts);
  nlohmann::json none;
  sim::to_json(none, sim::DeviceCounters{});
  EXPECT_FALSE(none.contains("parts"));
  EXPECT_TRUE(sim::device_counters_from_json(none).parts.empty());
}

}  // namespace
}  // namespace ssdlab
