// Cell types in the device config (geometry.cell_type, [timing.cell],
// [timing.slc_mode]): defaults, errors, --set overrides, the echo read back,
// the summary's cell counters, and a run on a TLC device end to end.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "config_fixture.h"
#include "run_support.h"
#include "sim/config/config.h"
#include "sim/controller/ssd.h"
#include "sim/engine/simulator.h"
#include "sim/report/device_snapshot.h"
#include "sim/results/device_counters.h"
#include "test_support.h"
#include "workloads/plan.h"

namespace ssdlab {
namespace {

using flash::CellType;
using ::testing::HasSubstr;
using testing::ConfigTest;

constexpr const char* kTlc = R"([geometry]
pages_per_block = 48
cell_type = "tlc"
)";

TEST_F(ConfigTest, TlcTakesItsPublishedDefaults) {
  const auto config = sim::load_config(Write(kTlc));
  EXPECT_EQ(config.geometry.cell_type, CellType::kTlc);
  EXPECT_EQ(config.geometry.pe_cycles, 3000u);
  const flash::CellTiming& c = config.timing.cell;
  EXPECT_EQ(c.program, flash::ProgramScheme::kOneShot);
  EXPECT_EQ(c.read_ns[2], 106'000);
  EXPECT_EQ(c.program_ns[0], 0);
  EXPECT_EQ(c.program_ns[2], 1'500'000);
  EXPECT_EQ(c.slc_read_ns, 25'000);
}

TEST_F(ConfigTest, CellKeysAreRead) {
  const auto config = sim::load_config(Write(std::string(kTlc) + R"(pe_cycles = 5000
[timing.cell]
read_us = [50, 60, 70]
program = "multi-pass"
program_us = [500, 1000, 2000]
erase_us = 4000
[timing.slc_mode]
read_us = 20
)"));
  const flash::CellTiming& c = config.timing.cell;
  EXPECT_EQ(config.geometry.pe_cycles, 5000u);
  EXPECT_EQ(c.program, flash::ProgramScheme::kMultiPass);
  EXPECT_EQ(c.read_ns[1], 60'000);
  EXPECT_EQ(c.program_ns[1], 1'000'000);
  EXPECT_EQ(c.erase_ns, 4'000'000);
  EXPECT_EQ(c.slc_read_ns, 20'000);
  EXPECT_EQ(c.slc_erase_ns, 4'000'000);  // the block's own erase unless set
}

TEST_F(ConfigTest, ReadTimesNeedOnePerPageType) {
  const std::string error =
      ErrorOf(Write(std::string(kTlc) + "[timing.cell]\nread_us = [50, 60]\n"));
  EXPECT_THAT(error, HasSubstr("timing.cell.read_us: has 2 entries; a tlc cell has 3 page types "
                               "(lower, middle, upper)"));
}

TEST_F(ConfigTest, CellErrorsNameTheKey) {
  EXPECT_THAT(ErrorOf(Write("[timing.cell]\nerase_us = 3000\n")),
              HasSubstr("timing.cell: only for cells of several bits"));
  EXPECT_THAT(ErrorOf(Write("[timing.slc_mode]\nread_us = 20\n")),
              HasSubstr("timing.slc_mode: only for cells of several bits"));
  EXPECT_THAT(ErrorOf(Write("[geometry]\ncell_type = \"tlc\"\n")),
              HasSubstr("geometry.pages_per_block: 64 is not a multiple of 3"));
  EXPECT_THAT(ErrorOf(Write("[geometry]\ncell_type = \"plc\"\n")),
              HasSubstr("geometry.cell_type: 'plc' is not a cell type"));
  EXPECT_THAT(ErrorOf(Write(std::string(kTlc) + "[timing]\nread_us = 25\n")),
              HasSubstr("timing.read_us: a tlc cell takes its array times from [timing.cell]"));
  EXPECT_THAT(ErrorOf(Write(std::string(kTlc) + "[timing.cell]\nprogram_us = [1, 2, 3]\n")),
              HasSubstr("timing.cell.program_us: one-shot programs a wordline at once"));
  EXPECT_THAT(ErrorOf(Write(std::string(kTlc) + "[timing.cell]\nread_usec = 3\n")),
              HasSubstr("unknown key 'timing.cell.read_usec'"));
}

TEST_F(ConfigTest, SetOverridesCellArrays) {
  const auto config = sim::load_config(
      Write(kTlc), {"timing.cell.read_us=[40, 50, 60]", "timing.slc_mode.program_us=300"});
  EXPECT_EQ(config.timing.cell.read_ns[0], 40'000);
  EXPECT_EQ(config.timing.cell.slc_program_ns, 300'000);
  EXPECT_THAT(ErrorOf(Write(kTlc), {"timing.cell.read_us=[40]"}),
              HasSubstr("--set timing.cell.read_us=[40]: timing.cell.read_us: has 1 entry"));
}

TEST_F(ConfigTest, CellConfigEchoReadsBack) {
  const auto config = sim::load_config(
      Write(std::string(kTlc) + "[timing.cell]\nprogram = \"multi-pass\"\nerase_us = 3500\n"));
  const nlohmann::json echo = sim::to_json(config);
  EXPECT_EQ(echo["geometry"]["cell_type"], "tlc");
  EXPECT_FALSE(echo["timing"].contains("read_us"));
  const auto back = sim::config_from_json(echo, "echo");
  EXPECT_EQ(back.geometry.cell_type, CellType::kTlc);
  EXPECT_EQ(back.timing.cell.program_ns, config.timing.cell.program_ns);
  EXPECT_EQ(back.timing.cell.erase_ns, 3'500'000);
  nlohmann::json again = sim::to_json(back);
  again["source"] = echo["source"];
  EXPECT_EQ(again, echo);
  // An SLC device's echo has no cell keys.
  const nlohmann::json slc = sim::to_json(sim::load_config(testing::preset("tiny")));
  EXPECT_FALSE(slc["geometry"].contains("cell_type"));
  EXPECT_FALSE(slc["timing"].contains("cell"));
}

TEST(CellCounters, RoundTripThroughSummaryJson) {
  sim::DeviceCounters counters;
  counters.page_size = 4096;
  counters.cell = sim::CellCounters{{{"lower", 3}, {"middle", 2}, {"upper", 1}}, 4, 5, 6};
  nlohmann::json json;
  sim::to_json(json, counters);
  EXPECT_EQ(json["reads_per_page_type"]["middle"], 2);
  EXPECT_EQ(json["wordline_programs"], 6);
  EXPECT_EQ(sim::device_counters_from_json(json).cell, counters.cell);
  sim::DeviceCounters slc;
  sim::to_json(json, slc);
  EXPECT_FALSE(json.contains("reads_per_page_type"));
  EXPECT_FALSE(sim::device_counters_from_json(json).cell.has_value());
}

// (Through a write buffer, which gathers whole wordlines: without one,
// each write pays a wordline program of its own, one_shot_wordline_test.cpp.)
TEST(CellRun, TlcWritesPayOneWordlineProgramPerThreePages) {
  const auto config =
      sim::load_config(testing::preset("tiny-tlc"), {"controller.write_buffer=\"1MiB\""});
  sim::Ssd ssd(config);
  sim::Simulator simulator(ssd, nullptr);
  const auto plan = workloads::parse_inline("SW:io_size=4096,count=384");
  simulator.run(plan.experiments.front(), 0, 1);
  ssd.idle(1'000'000'000, 2'000'000'000);
  const sim::DeviceCounters counters = sim::device_counters_of(ssd);
  ASSERT_TRUE(counters.cell.has_value());
  EXPECT_EQ(counters.cell->reads_per_page_type.size(), 3u);
  // 384 pages written in order over the 8 planes: 16 wordlines on each.
  EXPECT_EQ(counters.cell->wordline_programs, 128u);
  EXPECT_EQ(counters.cell->slc_mode_programs, 0u);
}

TEST(CellRun, SsdlabSimOnATlcPresetReportsCellCounters) {
  const auto dir = testing::temp_dir_for_this_test("cell-");
  auto options = testing::sim_options("RR:io_size=4096,count=50");
  options.precondition = "seq";
  options.io_log = false;
  options.teaching.timeline = (dir / "timeline.json").string();
  const auto out = testing::run_preset("tiny-tlc", dir, "tlc", options);
  const nlohmann::json summary = testing::summary_of(out);
  EXPECT_EQ(summary["config"]["geometry"]["cell_type"], "tlc");
  const nlohmann::json& device = summary["experiments"][0]["runs"][0]["device"];
  std::uint64_t reads = 0;
  for (const auto& [type, count] : device["reads_per_page_type"].items())
    reads += count.get<std::uint64_t>();
  EXPECT_EQ(reads, 50u);
  // The teaching view names each array read with its page type.
  EXPECT_THAT(testing::read_file(dir / "timeline.json"), HasSubstr("\"READ upper\""));
}

}  // namespace
}  // namespace ssdlab
