// Ganging (Agrawal et al. §3.3, Figures 4 and 5; §4 Table 4, Figure 7): the
// timing of operations on shared-bus and shared-control gangs, derived from
// the timing parameters as timing_test.cpp does for Table 3.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "flash/timeline.h"
#include "run_support.h"
#include "sim/controller/ssd.h"
#include "sim/engine/simulator.h"
#include "test_support.h"
#include "workloads/plan.h"

namespace ssdlab {
namespace {

namespace support = testing;
using flash::Command;
using flash::Op;
using ::testing::HasSubstr;

// First page of plane 0 of die 0 of `package` (flat numbering).
flash::Ppn first_page_of_package(const flash::Geometry& g, std::uint32_t package) {
  const std::uint32_t plane = package * g.dies_per_package * g.planes_per_die;
  return g.first_page(plane * g.blocks_per_plane);
}

// Completion times of one `op` on each package, all ready at time 0.
std::vector<TimeNs> one_op_per_package(const sim::DeviceConfig& config, Op op) {
  flash::FlashTimeline timeline(config.geometry, config.timing);
  std::vector<TimeNs> done;
  for (std::uint32_t package = 0; package < config.geometry.packages(); ++package)
    done.push_back(timeline.schedule(
        flash::page_command(op, first_page_of_package(config.geometry, package), 0), 0));
  return done;
}

TEST(SharedBusGang, PageTransfersOfItsPackagesTakeTurnsOnTheBus) {
  const auto config = support::load_preset("agrawal-gang8-shared-bus");
  const auto& g = config.geometry;
  const auto& t = config.timing;
  ASSERT_EQ(g.channels, 1u);
  ASSERT_EQ(g.packages(), 8u);
  const TimeNs transfer = t.page_transfer_ns(g);
  const auto programs = one_op_per_package(config, Op::kProgram);
  const auto reads = one_op_per_package(config, Op::kRead);
  for (std::uint32_t k = 0; k < programs.size(); ++k) {
    // Program k's data waits for the k transfers before it; the arrays overlap.
    EXPECT_EQ(programs[k], t.command_ns + (k + 1) * transfer + t.program_ns) << k;
    // Reads: the array reads overlap, the transfers out take turns.
    EXPECT_EQ(reads[k], t.read_ns + (k + 1) * transfer) << k;
  }
  // The same eight programs on the ungangged baseline all overlap.
  for (const TimeNs done :
       one_op_per_package(support::load_preset("agrawal-baseline"), Op::kProgram))
    EXPECT_EQ(done, t.page_program_latency(g));
}

TEST(SharedBusGang, ArrayOperationsOfItsPackagesOverlap) {
  // §3.3: "block erasure can be performed on one element while reads or
  // writes are proceeding on others".
  const auto config = support::load_preset("agrawal-gang16-shared-bus");
  ASSERT_EQ(config.geometry.packages(), 16u);
  for (const TimeNs done : one_op_per_package(config, Op::kErase))
    EXPECT_EQ(done, config.timing.command_ns + config.timing.erase_ns);
}

TEST(SharedControlAsyncGang, MembersOverlapAndOnlyTheirCommandCyclesTakeTurns) {
  const auto config = support::load_preset("agrawal-gang8-shared-control-async");
  const auto& g = config.geometry;
  const auto& t = config.timing;
  ASSERT_GT(t.command_ns, 0);
  ASSERT_EQ(g.control_buses(), 1u);
  const TimeNs transfer = t.page_transfer_ns(g);
  const auto programs = one_op_per_package(config, Op::kProgram);
  const auto reads = one_op_per_package(config, Op::kRead);
  for (std::uint32_t k = 0; k < programs.size(); ++k) {
    EXPECT_EQ(programs[k], (k + 1) * t.command_ns + transfer + t.program_ns) << k;
    EXPECT_EQ(reads[k], (k + 1) * t.command_ns + t.read_ns + transfer) << k;
  }
  // Overlap: all eight finish well within two unloaded programs.
  EXPECT_LT(programs.back(), 2 * t.page_program_latency(g));
  // With no gang every package issues its own command cycles at once.
  auto baseline = support::load_preset("agrawal-baseline");
  baseline.timing.command_ns = t.command_ns;
  for (const TimeNs done : one_op_per_package(baseline, Op::kProgram))
    EXPECT_EQ(done, t.command_ns + transfer + t.program_ns);
}

TEST(SharedControlAsyncGang, ControlBusBusyTimeIsOneCommandPerOperation) {
  const auto config = support::load_preset("agrawal-gang8-shared-control-async");
  flash::FlashTimeline timeline(config.geometry, config.timing);
  for (std::uint32_t package = 0; package < 8; ++package)
    timeline.schedule(
        flash::page_command(Op::kRead, first_page_of_package(config.geometry, package), 0), 0);
  EXPECT_EQ(timeline.stats().control_busy_ns, 8 * config.timing.command_ns);
  // The data buses carry only data.
  EXPECT_EQ(timeline.stats().bus_busy_ns, 8 * config.timing.page_transfer_ns(config.geometry));
}

TEST(SharedControlSyncGang, IsOneLockstepUnitWithTheGangPage) {
  const auto config = support::load_preset("agrawal-gang8-shared-control-sync");
  const auto& g = config.geometry;
  const auto member = support::load_preset("agrawal-baseline").geometry;
  EXPECT_EQ(g.channels, 1u);
  EXPECT_EQ(g.lanes(), 8u);
  EXPECT_EQ(g.physical_packages(), 8u);
  EXPECT_EQ(g.page_size, 8 * member.page_size);  // §4: 8 x 4 KB = 32 KB
  EXPECT_EQ(g.capacity_bytes(), member.capacity_bytes());
  EXPECT_EQ(config.ftl.logical_page_size, g.page_size);
  // The gang page crosses eight data paths at once: one member page's time.
  EXPECT_EQ(config.timing.page_transfer_ns(g), config.timing.page_transfer_ns(member));
}

TEST(SharedControlSyncGang, OperationsSpanTheWholeGangInLockstep) {
  const auto config = support::load_preset("agrawal-gang8-shared-control-sync");
  const auto& g = config.geometry;
  const auto& t = config.timing;
  const TimeNs transfer = t.page_transfer_ns(g);
  flash::FlashTimeline timeline(g, t);
  // Two programs on the unit's two dies: the second's data waits for the
  // first's on the members' data paths, which all carry the first.
  const flash::Ppn die0 = g.first_page(0);
  const flash::Ppn die1 = g.first_page(g.planes_per_die * g.blocks_per_plane);
  ASSERT_EQ(g.die_of(die1), 1u);
  EXPECT_EQ(timeline.schedule(flash::page_command(Op::kProgram, die0, 0), 0),
            t.command_ns + transfer + t.program_ns);
  EXPECT_EQ(timeline.schedule(flash::page_command(Op::kProgram, die1, 1), 0),
            2 * (t.command_ns + transfer) + t.program_ns);
}

// §4: "We use intra-plane copy-back to implement read-modify-write for
// writes of less than a page in synchronous ganging."
TEST(SharedControlSyncGang, SubPageWriteIsACopyBackWithTheHostsData) {
  const auto config = support::load_preset("agrawal-gang8-shared-control-sync");
  const auto& g = config.geometry;
  const auto& t = config.timing;
  sim::Ssd ssd(config, {.verify = true});
  ssd.prefill(0, g.page_size);
  // A whole gang page: one lockstep program.
  EXPECT_EQ(*ssd.start({0, g.page_size, IoMode::kWrite}, 0), t.page_program_latency(g));
  // 4 KB of it: the old gang page is read inside its planes, the member that
  // holds those 4 KB gets the new data over its data path, all program.
  const TimeNs start = 10'000'000;
  EXPECT_EQ(*ssd.start({0, 4096, IoMode::kWrite}, start) - start,
            t.command_ns + t.read_ns + t.page_transfer_ns(g) + t.program_ns);
  EXPECT_EQ(ssd.ftl().stats().rmw_pages_read, 1u);
  const auto& commands = ssd.core().timeline().stats().commands;
  EXPECT_EQ(commands[static_cast<std::size_t>(Op::kRead)], 0u);  // nothing read out
  EXPECT_EQ(commands[static_cast<std::size_t>(Op::kCopyBack)], 1u);
  // The merged page holds the new version: reading it back verifies.
  EXPECT_NO_THROW(*ssd.start({0, g.page_size, IoMode::kRead}, 2 * start));
}

TEST(SharedControlSyncGang, WithoutCopyBackTheReadModifyWriteGoesThroughTheController) {
  auto config = support::load_preset("agrawal-gang8-shared-control-sync");
  config.ftl.copy_back = false;
  const auto& g = config.geometry;
  const auto& t = config.timing;
  sim::Ssd ssd(config, {.verify = true});
  ssd.prefill(0, g.page_size);
  EXPECT_EQ(*ssd.start({0, 4096, IoMode::kWrite}, 0), t.page_read_latency(g) + t.page_program_latency(g));
}

TEST(SharedControlSyncGang, OnlyACopyBackMergesHostData) {
  const auto g = support::load_preset("agrawal-gang8-shared-control-sync").geometry;
  Command program = flash::page_command(Op::kProgram, 0, 0);
  program.host_data = true;
  EXPECT_THAT(flash::check_legal(g, program, true), HasSubstr("only a COPYBACK merges host data"));
  Command merge = flash::page_command(Op::kCopyBack, 1, 0, 0, 0);
  merge.host_data = true;
  EXPECT_EQ(flash::check_legal(g, merge, true), "");
}

// Figure 7: the synchronous gang's big logical page limits concurrent
// operations, so on small writes it underperforms the asynchronous gang.
TEST(SharedControlGangs, SynchronousUnderperformsAsynchronousOnSmallWrites) {
  auto mean_write_us = [](const std::string& preset) {
    // A small device, so that the run is short (same organisation), full.
    const auto config = sim::load_config(support::preset(preset), {"geometry.blocks_per_plane=64"});
    sim::Ssd ssd(config);
    ssd.prefill(0, ssd.logical_bytes());
    const auto plan = workloads::parse_inline("RW:io_size=4096,count=4000,queue_depth=8");
    sim::Simulator simulator(ssd, nullptr);
    return simulator.run(plan.experiments.front(), 0, 1).stats.mean_ns / 1000.0;
  };
  const double sync_us = mean_write_us("agrawal-gang8-shared-control-sync");
  const double async_us = mean_write_us("agrawal-gang8-shared-control-async");
  EXPECT_GT(sync_us, 1.5 * async_us) << sync_us << " vs " << async_us;
}

TEST(SharedControlAsyncGang, CheckpointKeepsTheControlBusTimelines) {
  const auto config = support::load_preset("agrawal-gang8-shared-control-async");
  flash::FlashTimeline saved(config.geometry, config.timing);
  for (std::uint32_t package = 0; package < 8; ++package)
    saved.schedule(
        flash::page_command(Op::kProgram, first_page_of_package(config.geometry, package), 0), 0);
  std::ostringstream bytes;
  StateWriter out(&bytes);
  saved.save_state(out);
  std::istringstream in_bytes(bytes.str());
  StateReader in(in_bytes);
  flash::FlashTimeline loaded(config.geometry, config.timing);
  loaded.load_state(in);
  EXPECT_EQ(loaded.control_free_at(0), 8 * config.timing.command_ns);
  EXPECT_EQ(loaded.stats().control_busy_ns, saved.stats().control_busy_ns);
}

class GangCli : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = support::temp_dir_for_this_test("gang-"); }
  std::filesystem::path dir_;
};

// Every gang preset keeps every write (a small device, so cleaning runs).
TEST_F(GangCli, VerifyRunsPassOnEveryPreset) {
  for (const char* preset :
       {"agrawal-gang8-shared-bus", "agrawal-gang16-shared-bus", "agrawal-gang8-shared-bus-sync",
        "agrawal-gang16-shared-bus-sync", "agrawal-gang8-shared-control-async",
        "agrawal-gang8-shared-control-sync"}) {
    const auto out = dir_ / preset;
    auto options =
        support::sim_options("RW:io_size=4096,count=20000,queue_depth=8,mix_pattern=RR,mix_ratio=4",
                             {"geometry.blocks_per_plane=16"});
    options.verify = true;
    options.check_every = 5000;
    options.precondition = "random";
    ASSERT_NO_THROW(support::run_preset(preset, dir_, preset, options)) << preset;
    const auto summary = support::read_file(out / "summary.json");
    EXPECT_THAT(summary, HasSubstr("\"blocks_cleaned\"")) << preset;
    EXPECT_THAT(summary, ::testing::Not(HasSubstr("\"blocks_cleaned\": 0,"))) << preset;
    if (const auto check = support::check_output(out)) {
      EXPECT_EQ(check->exit_code, 0) << preset << "\n" << check->output;
    }
  }
}

// Table 4's trend (docs/model.md, "A Table 4-style comparison"): the same 16
// packages on 16 buses, as two 8-gangs on 2 buses and as one 16-gang on 1 bus,
// under a queued 4:1 mix of random writes and reads with cleaning throughout.
// Ganging changes only the buses, so the three do the same cleaning, and
// fewer buses serialise more transfers: the mean response rises. A small
// device (1 GiB) keeps it cheap; the order holds there as at full size.
TEST_F(GangCli, AtEqualPackageCountFewerBusesRespondSlowerUnderLoad) {
  struct Organisation {
    const char* preset;
    const char* channels;  // 16 packages in each
  };
  const Organisation organisations[] = {{"agrawal-baseline", "16"},
                                        {"agrawal-gang8-shared-bus", "2"},
                                        {"agrawal-gang16-shared-bus", "1"}};
  std::vector<nlohmann::json> runs;
  for (const Organisation& o : organisations) {
    const auto out = dir_ / o.preset;
    auto options = support::sim_options(
        "RW:io_size=4096,count=8000,queue_depth=8,mix_pattern=RR,mix_ratio=4",
        {std::string("geometry.channels=") + o.channels, "geometry.blocks_per_plane=32"});
    options.precondition = "random";
    options.io_log = false;
    ASSERT_NO_THROW(support::run_preset(o.preset, dir_, o.preset, options)) << o.preset;
    const auto summary = nlohmann::json::parse(support::read_file(out / "summary.json"));
    const auto& geometry = summary["config"]["geometry"];
    ASSERT_EQ(geometry["channels"].get<int>() * geometry["packages_per_channel"].get<int>(), 16)
        << o.preset;
    runs.push_back(summary["experiments"][0]["runs"][0]);
  }
  EXPECT_GT(runs[0]["device"]["blocks_cleaned"].get<double>(), 0);
  for (std::size_t i = 1; i < runs.size(); ++i) {
    EXPECT_EQ(runs[i]["device"]["pages_moved"], runs[0]["device"]["pages_moved"])
        << organisations[i].preset;
    EXPECT_GT(runs[i]["mean_us"].get<double>(), runs[i - 1]["mean_us"].get<double>())
        << organisations[i].preset << " after " << organisations[i - 1].preset;
  }
}

TEST_F(GangCli, ConfigPrintsTheOrganisation) {
  EXPECT_THAT(support::config_text("agrawal-gang8-shared-bus"),
              HasSubstr("shared-bus: 1 gang of 8 packages"));
  const std::string sync = support::config_text("agrawal-gang8-shared-control-sync");
  EXPECT_THAT(sync, HasSubstr("8 channels x 1 packages"));
  EXPECT_THAT(sync, HasSubstr("gang page 32 KiB = 8 x 4 KiB"));
  EXPECT_THAT(support::config_text("agrawal-gang8-shared-control-async"),
              HasSubstr("8 data buses, 1 shared control bus"));
}

TEST_F(GangCli, TimelineHasAControlBusTrackForAnAsynchronousGang) {
  const auto json = dir_ / "t.json";
  auto options = support::sim_options(
      "RW:count=20,queue_depth=4",
      {"geometry.gang=shared-control-async", "geometry.gang_size=2", "timing.command_ns=175"});
  options.teaching.timeline = json.string();
  support::run_tiny(dir_, "out", options);
  const auto text = support::read_file(json);
  EXPECT_THAT(text, HasSubstr("\"Control bus 0\""));
  // Its command cycles are on the control bus's process (after the 2 channels).
  EXPECT_THAT(text, HasSubstr("\"name\":\"CMD\",\"cat\":\"host\",\"pid\":4,\"tid\":1,"));
}

// A checkpoint of an asynchronous gang keeps its control bus: a run split by
// one writes the same rows as the run that went on.
TEST_F(GangCli, CheckpointSplitRunWritesTheSameRows) {
  const std::string first =
      "[[experiment]]\nname = \"a\"\npattern = \"RW\"\ncount = 3000\n"
      "queue_depth = 8\n";
  const std::string second =
      "[[experiment]]\nname = \"b\"\npattern = \"RW\"\ncount = 2000\n"
      "queue_depth = 8\nmix_pattern = \"RR\"\nmix_ratio = 3\n";
  const auto both = support::write_file(dir_ / "both.toml", first + "\n" + second);
  const auto part1 = support::write_file(dir_ / "first.toml", first);
  const auto part2 = support::write_file(dir_ / "second.toml", second);
  // A run of `workload` on the asynchronous gang.
  auto gang = [](const std::filesystem::path& workload) {
    return support::sim_options(workload.string(),
                                {"geometry.gang=shared-control-async", "geometry.gang_size=2",
                                 "timing.command_ns=175", "ftl.cleaning_blocks_writes=false"});
  };
  auto rows = [&](const std::string& out) {
    const std::string text = support::read_file(dir_ / out / "io.csv");
    return text.substr(text.find('\n') + 1);
  };
  const std::string ckpt = (dir_ / "mid.ckpt").string();
  auto whole = gang(both);
  whole.precondition = "random";
  support::run_tiny(dir_, "whole", whole);
  auto saved = gang(part1);
  saved.precondition = "random";
  saved.save_state = ckpt;
  support::run_tiny(dir_, "p1", saved);
  auto loaded = gang(part2);
  loaded.load_state = ckpt;
  support::run_tiny(dir_, "p2", loaded);
  ASSERT_FALSE(rows("p2").empty());
  EXPECT_EQ(rows("p1") + rows("p2"), rows("whole"));
  // Another organisation is another device: the checkpoint does not load.
  auto other = support::sim_options(part2.string());
  other.load_state = ckpt;
  EXPECT_THAT(support::error_of([&] { support::run_tiny(dir_, "other", other); }),
              HasSubstr("gang"));
}

}  // namespace
}  // namespace ssdlab
