// Flash timing against Agrawal et al. Table 3, derived from the timing
// parameters rather than hard-coded, and the interleaving rules of §2.2.
#include <gtest/gtest.h>

#include <cmath>

#include "flash/timeline.h"
#include "sim/engine/simulator.h"
#include "sim/controller/ssd.h"
#include "test_support.h"
#include "workloads/plan.h"

namespace ssdlab {
namespace {

using flash::Command;
using flash::Op;

sim::RunResult run_inline(sim::Ssd& ssd, const std::string& workload) {
  const auto plan = workloads::parse_inline(workload);
  sim::Simulator simulator(ssd, nullptr);
  const auto& spec = plan.experiments.front();
  if (!workloads::is_write(spec.pattern)) ssd.prefill(0, ssd.logical_bytes());
  return simulator.run(spec, 0, 1);
}

// Table 3: 4 KB at queue depth 1, no cleaning: read 130 us, write 309 us.
TEST(Table3, QueueDepthOneLatenciesFollowFromTheTimingParameters) {
  const auto config = testing::load_preset("agrawal-baseline");
  const auto& g = config.geometry;
  const auto& t = config.timing;
  // (page + OOB) bytes x ns/byte on the bus, plus the array operation.
  const double transfer_ns = (g.page_size + g.oob_size) * (t.bus_ps_per_byte / 1000.0);
  const double expected_read_us = (t.read_ns + transfer_ns) / 1000.0;
  const double expected_write_us = (transfer_ns + t.program_ns) / 1000.0;

  for (const char* pattern : {"RR", "SR"}) {
    sim::Ssd ssd(config);
    const auto result = run_inline(ssd, std::string(pattern) + ":io_size=4096,count=2000");
    EXPECT_NEAR(result.stats.mean_ns / 1000.0, expected_read_us, 1e-3) << pattern;
    EXPECT_NEAR(result.stats.mean_ns / 1000.0, 130.0, 130.0 * 0.02) << pattern;
  }
  for (const char* pattern : {"RW", "SW"}) {
    sim::Ssd ssd(config);
    const auto result = run_inline(ssd, std::string(pattern) + ":io_size=4096,count=2000");
    EXPECT_NEAR(result.stats.mean_ns / 1000.0, expected_write_us, 1e-3) << pattern;
    EXPECT_NEAR(result.stats.mean_ns / 1000.0, 309.0, 309.0 * 0.02) << pattern;
  }
}

// Table 3: 61,255 IO/s for reads with one outstanding 4 KB read per package.
TEST(Table3, EightOutstandingReadsGiveOneReadPerPackageAtATime) {
  const auto config = testing::load_preset("agrawal-baseline");
  sim::Ssd ssd(config);
  const auto result = run_inline(ssd, "SR:io_size=4096,count=20000,queue_depth=8");
  const double per_package_iops =
      1e9 / static_cast<double>(config.timing.page_read_latency(config.geometry));
  const double expected = per_package_iops * config.geometry.packages();
  EXPECT_NEAR(result.stats.iops, expected, expected * 0.001);
  EXPECT_NEAR(result.stats.iops, 61255.0, 61255.0 * 0.02);
}

// Deeper queues let the two dies of a package overlap their array reads, so
// throughput rises towards the bus limit (one page transfer per package).
TEST(Table3, DeeperQueuesOverlapDiesAndRaiseReadThroughput) {
  const auto config = testing::load_preset("agrawal-baseline");
  sim::Ssd shallow(config), deep(config);
  const double at_8 = run_inline(shallow, "SR:io_size=4096,count=20000,queue_depth=8").stats.iops;
  const double at_32 = run_inline(deep, "SR:io_size=4096,count=20000,queue_depth=32").stats.iops;
  const double bus_limit = 1e9 /
                           static_cast<double>(config.timing.page_transfer_ns(config.geometry)) *
                           config.geometry.packages();
  EXPECT_GT(at_32, at_8 * 1.1);
  EXPECT_LE(at_32, bus_limit * 1.0001);
  EXPECT_GT(at_32, bus_limit * 0.95);
}

class TimelineTest : public ::testing::Test {
 protected:
  TimelineTest() : config_(testing::load_preset("agrawal-baseline")) {}

  // First page of block `block_in_plane` in `plane_in_die` of die 0 / die 1 of package 0.
  flash::Ppn page(std::uint32_t die, std::uint32_t plane_in_die,
                  std::uint32_t page_in_block = 0) const {
    const auto& g = config_.geometry;
    const std::uint32_t plane = die * g.planes_per_die + plane_in_die;
    return g.first_page(plane * g.blocks_per_plane) + page_in_block;
  }
  static Command make(Op op, flash::Ppn ppn, flash::Ppn ppn2 = flash::kNoPage) {
    Command c;
    c.op = op;
    c.ppn = ppn;
    c.ppn2 = ppn2;
    return c;
  }

  sim::DeviceConfig config_;
};

TEST_F(TimelineTest, TwoDiesOfOnePackageOverlapTheirArrayOperations) {
  const auto& t = config_.timing;
  const TimeNs xfer = t.page_transfer_ns(config_.geometry);
  flash::FlashTimeline timeline(config_.geometry, t);
  const TimeNs first = timeline.schedule(make(Op::kProgram, page(0, 0)), 0);
  const TimeNs second = timeline.schedule(make(Op::kProgram, page(1, 0)), 0);
  EXPECT_EQ(first, xfer + t.program_ns);
  // Die 1's transfer waits for the shared bus, but its program overlaps die 0's.
  EXPECT_EQ(second, 2 * xfer + t.program_ns);
  EXPECT_LT(second, 2 * (xfer + t.program_ns));

  flash::FlashTimeline reads(config_.geometry, t);
  const TimeNs read0 = reads.schedule(make(Op::kRead, page(0, 0)), 0);
  const TimeNs read1 = reads.schedule(make(Op::kRead, page(1, 0)), 0);
  EXPECT_EQ(read0, t.read_ns + xfer);
  EXPECT_EQ(read1, t.read_ns + 2 * xfer);  // both array reads at once, transfers in turn
}

TEST_F(TimelineTest, OneDieRunsOneOperationAtATime) {
  const auto& t = config_.timing;
  const TimeNs xfer = t.page_transfer_ns(config_.geometry);
  flash::FlashTimeline timeline(config_.geometry, t);
  timeline.schedule(make(Op::kProgram, page(0, 0)), 0);
  const TimeNs second = timeline.schedule(make(Op::kProgram, page(0, 2)), 0);
  EXPECT_EQ(second, 2 * (xfer + t.program_ns));
}

TEST_F(TimelineTest, TwoPlanesOfAnAllowedPairProgramInParallel) {
  const auto& t = config_.timing;
  const TimeNs xfer = t.page_transfer_ns(config_.geometry);
  const Command pair = make(Op::kProgram, page(0, 0), page(0, 1));
  ASSERT_EQ(flash::check_legal(config_.geometry, pair, true), "");
  flash::FlashTimeline timeline(config_.geometry, t);
  // Two transfers, one array program for both planes.
  EXPECT_EQ(timeline.schedule(pair, 0), 2 * xfer + t.program_ns);
  EXPECT_EQ(timeline.stats().two_plane_commands, 1u);
}

TEST_F(TimelineTest, TwoPlaneCommandsAreIllegalOutsideTheAllowedPairs) {
  const auto& g = config_.geometry;
  EXPECT_NE(flash::check_legal(g, make(Op::kProgram, page(0, 1), page(0, 2)), true), "");
  EXPECT_NE(flash::check_legal(g, make(Op::kProgram, page(0, 0), page(1, 1)), true), "");
  EXPECT_NE(flash::check_legal(g, make(Op::kProgram, page(0, 0), page(0, 1, 3)), true), "");
  EXPECT_EQ(flash::check_legal(g, make(Op::kRead, page(0, 2, 5), page(0, 3, 5)), true), "");
}

TEST_F(TimelineTest, CopyBackStaysInsideOnePlaneAndUsesNoBus) {
  const auto& g = config_.geometry;
  const auto& t = config_.timing;
  Command copy = make(Op::kCopyBack, page(0, 0, 1));
  copy.src = page(0, 0, 0);
  EXPECT_EQ(flash::check_legal(g, copy, true), "");
  EXPECT_NE(flash::check_legal(g, copy, false), "");
  Command across = copy;
  across.ppn = page(0, 1, 1);
  EXPECT_NE(flash::check_legal(g, across, true), "");

  flash::FlashTimeline timeline(g, t);
  EXPECT_EQ(timeline.schedule(copy, 0), t.read_ns + t.program_ns);
  EXPECT_EQ(timeline.bus_free_at(0), 0);
  Command move = make(Op::kMove, page(1, 0));
  move.src = page(0, 1);
  flash::FlashTimeline moves(g, t);
  const TimeNs xfer = t.page_transfer_ns(g);
  EXPECT_EQ(moves.schedule(move, 0), t.read_ns + 2 * xfer + t.program_ns);
}

TEST_F(TimelineTest, ReadsOfDifferentPackagesDoNotShareABus) {
  const auto& g = config_.geometry;
  const auto& t = config_.timing;
  flash::FlashTimeline timeline(g, t);
  const flash::Ppn other_package =
      g.first_page(g.dies_per_package * g.planes_per_die * g.blocks_per_plane);
  ASSERT_EQ(g.package_of_die(g.die_of(other_package)), 1u);
  EXPECT_EQ(timeline.schedule(make(Op::kRead, page(0, 0)), 0), t.page_read_latency(g));
  EXPECT_EQ(timeline.schedule(make(Op::kRead, other_package), 0), t.page_read_latency(g));
}

TEST_F(TimelineTest, CommandCyclesOccupyTheBus) {
  auto t = config_.timing;
  t.command_ns = 1000;
  flash::FlashTimeline timeline(config_.geometry, t);
  EXPECT_EQ(timeline.schedule(make(Op::kErase, page(0, 0)), 0), 1000 + t.erase_ns);
  EXPECT_EQ(timeline.bus_free_at(0), 1000);
}

// A bus phase ready while the bus is reserved for later goes into the gap
// before it (flash/bus_timeline.h): die 0's read holds the bus for its
// command cycles and, after the array read, its transfer out; die 1's erase,
// submitted after the read, has its command cycles in between and starts its
// array erase then, not after the read's transfer.
TEST_F(TimelineTest, CommandCyclesGoIntoTheGapBeforeAReadsTransfer) {
  auto t = config_.timing;
  t.command_ns = 1000;
  flash::FlashTimeline timeline(config_.geometry, t);
  const TimeNs xfer = t.page_transfer_ns(config_.geometry);
  ASSERT_GT(t.read_ns, t.command_ns);  // the gap holds the command cycles
  EXPECT_EQ(timeline.schedule(make(Op::kRead, page(0, 0)), 0), 1000 + t.read_ns + xfer);
  EXPECT_EQ(timeline.schedule(make(Op::kErase, page(1, 0)), 0), 2000 + t.erase_ns);
  EXPECT_EQ(timeline.bus_free_at(0), 1000 + t.read_ns + xfer);
}

// FlashTimeline::unloaded_ns: a command alone on an idle device takes what
// schedule() gives it from time 0, and that is the sum of its phases.
TEST(UnloadedTime, EachCommandsPhasesBackToBackAsScheduledOnAnIdleDevice) {
  auto config = testing::load_preset("agrawal-baseline");
  config.timing.command_ns = 300;  // command cycles counted too
  const auto& g = config.geometry;
  const auto& t = config.timing;
  const TimeNs transfer = t.page_transfer_ns(g);
  const flash::Ppn page = 5 * g.pages_per_block;
  const flash::Ppn other_die = page + g.pages_per_block * g.blocks_per_plane * g.planes_per_die;
  struct Case {
    Command command;
    TimeNs expected;
  };
  Command two_plane = flash::page_command(Op::kProgram, page, 1);
  two_plane.ppn2 = page + g.pages_per_block * g.blocks_per_plane;  // the next plane
  Command with_data = flash::page_command(Op::kCopyBack, page + 1, 1, 0, page);
  with_data.host_data = true;
  const Case cases[] = {
      {flash::page_command(Op::kRead, page, 1), t.command_ns + t.read_ns + transfer},
      {flash::page_command(Op::kProgram, page, 1), t.command_ns + transfer + t.program_ns},
      {two_plane, t.command_ns + 2 * transfer + t.program_ns},
      {flash::page_command(Op::kErase, page, flash::kNoLpn), t.command_ns + t.erase_ns},
      {flash::page_command(Op::kCopyBack, page + 1, 1, 0, page),
       t.command_ns + t.read_ns + t.program_ns},
      {with_data, t.command_ns + t.read_ns + transfer + t.program_ns},
      {flash::page_command(Op::kMove, other_die, 1, 0, page),
       t.page_read_latency(g) + t.page_program_latency(g)},
  };
  for (const Case& c : cases) {
    flash::FlashTimeline timeline(g, t);
    EXPECT_EQ(timeline.unloaded_ns(c.command), c.expected) << static_cast<int>(c.command.op);
    EXPECT_EQ(timeline.schedule(c.command, 0), c.expected) << static_cast<int>(c.command.op);
    EXPECT_EQ(timeline.stats().cleaning_flash_ns, 0);  // not cleaning
    Command cleaning = c.command;
    cleaning.cleaning = true;
    timeline.schedule(cleaning, 0);
    EXPECT_EQ(timeline.stats().cleaning_flash_ns, c.expected);
  }
}

}  // namespace
}  // namespace ssdlab
