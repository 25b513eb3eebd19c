// The synchronous shared-bus gang (flash::Gang::kSharedBusSync), the gang of
// Agrawal et al.'s Table 4 as DiskSim models it (ssdmodel/ssd_gang.c): at
// queue depth 1 its 4 KiB writes and reads cost what DiskSim's gang costs
// with Table 1's timing, computed here from the preset's timing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "flash/timeline.h"
#include "run_support.h"
#include "sim/controller/read_units.h"
#include "sim/controller/ssd.h"
#include "test_support.h"

namespace ssdlab {
namespace {

namespace support = testing;
using flash::Op;
using ::testing::HasSubstr;

constexpr TimeNs kApart = 100'000'000;  // between requests: the gang is idle again

// One request on a gang page that holds data, alone on an idle device.
TimeNs alone(sim::Ssd& ssd, std::uint64_t offset, std::uint32_t size, IoMode mode, int nth) {
  const TimeNs start = nth * kApart;
  return *ssd.start({offset, size, mode}, start) - start;
}

TEST(SharedBusSyncGang, IsOneLockstepUnitWhosePageCrossesTheOneBusMemberByMember) {
  const auto config = support::load_preset("agrawal-gang8-shared-bus-sync");
  const auto& g = config.geometry;
  const auto member = support::load_preset("agrawal-baseline").geometry;
  EXPECT_EQ(g.channels, 1u);
  EXPECT_EQ(g.packages(), 1u);  // one gang unit
  EXPECT_EQ(g.members(), 8u);
  EXPECT_EQ(g.lanes(), 1u);     // one bus, not eight data paths
  EXPECT_EQ(g.physical_packages(), 8u);
  EXPECT_EQ(g.page_size, 8 * member.page_size);  // §4: "8-wide (32KB)"
  EXPECT_EQ(g.capacity_bytes(), member.capacity_bytes());
  EXPECT_EQ(g.interleaving, flash::Interleaving::kNone);  // one queued element
  const auto& t = config.timing;
  EXPECT_EQ(t.read_unit_transfer_ns(g), t.page_transfer_ns(member));
  EXPECT_EQ(t.page_transfer_ns(g), 8 * t.page_transfer_ns(member));
  // As written, the gang is the bus's eight packages of 4 KiB pages.
  const flash::Geometry written = flash::as_written(g);
  EXPECT_EQ(written.packages_per_channel, 8u);
  EXPECT_EQ(written.page_size, 4096u);
}

// DiskSim, ssd_gang.c:336-388: a write of less than the gang page is a 25 us
// register read, the N member pages over the one bus, one 200 us program.
TEST(SharedBusSyncGang, A4KiBWriteCostsDiskSimsGangWriteAtQueueDepth1) {
  for (const auto& [preset, members, expected_ns] :
       {std::tuple{"agrawal-gang8-shared-bus-sync", 8u, TimeNs{1'069'800}},
        std::tuple{"agrawal-gang16-shared-bus-sync", 16u, TimeNs{1'914'600}}}) {
    SCOPED_TRACE(preset);
    const auto config = support::load_preset(preset);
    const auto& g = config.geometry;
    const auto& t = config.timing;
    ASSERT_EQ(g.members(), members);
    const TimeNs write = t.command_ns + t.read_ns + members * t.read_unit_transfer_ns(g) + t.program_ns;
    EXPECT_EQ(write, expected_ns);  // Table 1's timing: 25 + N x 105.6 + 200 us
    sim::Ssd ssd(config, {.verify = true});
    ssd.prefill(0, 4 * g.page_size);
    EXPECT_EQ(alone(ssd, 0, 4096, IoMode::kWrite, 1), write);
    EXPECT_EQ(alone(ssd, g.page_size + 8192, 4096, IoMode::kWrite, 2), write);
    // Several member pages of one gang page: the same one gang-page write.
    EXPECT_EQ(alone(ssd, 2 * g.page_size, 3 * 4096, IoMode::kWrite, 3), write);
    // The whole gang page: no register read.
    EXPECT_EQ(alone(ssd, 3 * g.page_size, g.page_size, IoMode::kWrite, 4),
              t.command_ns + members * t.read_unit_transfer_ns(g) + t.program_ns);
    // Nothing was read out over the bus: the old data stayed in the registers.
    EXPECT_EQ(ssd.core().timeline().stats().commands[static_cast<std::size_t>(Op::kRead)], 0u);
    EXPECT_EQ(ssd.core().timeline().stats().commands[static_cast<std::size_t>(Op::kCopyBack)], 3u);
  }
}

// DiskSim, ssd_gang.c:194-240: a read transfers only the pages asked for.
TEST(SharedBusSyncGang, AReadMovesOnlyTheMemberPagesAskedFor) {
  for (const char* preset : {"agrawal-gang8-shared-bus-sync", "agrawal-gang16-shared-bus-sync"}) {
    SCOPED_TRACE(preset);
    const auto config = support::load_preset(preset);
    const auto& g = config.geometry;
    const auto& t = config.timing;
    const TimeNs member = t.read_unit_transfer_ns(g);
    EXPECT_EQ(t.command_ns + t.read_ns + member, 130'600);  // Table 3's 130 us
    sim::Ssd ssd(config, {.verify = true});
    ssd.prefill(0, 2 * g.page_size);
    EXPECT_EQ(alone(ssd, 0, 4096, IoMode::kRead, 1), 130'600);
    EXPECT_EQ(alone(ssd, 5 * 4096, 4096, IoMode::kRead, 2), 130'600);
    EXPECT_EQ(alone(ssd, 512, 1024, IoMode::kRead, 3), 130'600);  // part of one member page
    // 4 KiB across two member pages: both cross the bus.
    EXPECT_EQ(alone(ssd, 2048, 4096, IoMode::kRead, 4), t.read_ns + 2 * member);
    EXPECT_EQ(alone(ssd, 0, 3 * 4096, IoMode::kRead, 5), t.read_ns + 3 * member);
    EXPECT_EQ(alone(ssd, 0, g.page_size, IoMode::kRead, 6), t.read_ns + g.members() * member);
  }
  // Across two gang pages of one gang: two lockstep reads, one after the
  // other (without two-plane reads, which DiskSim's gang does not form).
  auto config = support::load_preset("agrawal-gang8-shared-bus-sync");
  config.ftl.two_plane = false;
  sim::Ssd ssd(config, {.verify = true});
  ssd.prefill(0, 2 * config.geometry.page_size);
  EXPECT_EQ(alone(ssd, config.geometry.page_size - 4096, 8192, IoMode::kRead, 1),
            2 * 130'600);
}

// One queued element (ssd_gang.c:247-260): its dies take turns, and a
// cleaning erase holds the whole gang (ssd_gang.c:8-58).
TEST(SharedBusSyncGang, TheGangServesOneCommandAtATime) {
  const auto config = support::load_preset("agrawal-gang8-shared-bus-sync");
  const auto& g = config.geometry;
  const auto& t = config.timing;
  flash::FlashTimeline timeline(g, t);
  const flash::Ppn die0 = g.first_page(0);
  const flash::Ppn die1 = g.first_page(g.planes_per_die * g.blocks_per_plane);
  ASSERT_EQ(g.die_of(die1), 1u);
  flash::Command erase = flash::page_command(Op::kErase, die0, flash::kNoLpn);
  erase.cleaning = true;
  EXPECT_EQ(timeline.schedule(erase, 0), t.erase_ns);
  flash::Command read = flash::page_command(Op::kRead, die1, 0);
  read.read_units = 1;
  EXPECT_EQ(timeline.schedule(read, 0), t.erase_ns + t.read_ns + t.read_unit_transfer_ns(g));
  // With die interleaving (not DiskSim's gang), the other die's read overlaps.
  auto interleaved = config;
  interleaved.geometry.interleaving = flash::Interleaving::kDies;
  flash::FlashTimeline dies(interleaved.geometry, t);
  dies.schedule(erase, 0);
  EXPECT_EQ(dies.schedule(read, 0), t.read_ns + t.read_unit_transfer_ns(g));
}

TEST(SharedBusSyncGang, ReadMembersCoverTheRequestsBytesOfEachLogicalPage) {
  const auto g = support::load_preset("agrawal-gang8-shared-bus-sync").geometry;
  const std::uint64_t page = g.page_size;  // 32 KiB, 8 members of 4 KiB
  flash::CommandList commands{flash::page_command(Op::kRead, 0, 0),
                              flash::page_command(Op::kRead, 1, 1),
                              flash::page_command(Op::kRead, 2, 2)};
  commands[2].ppn2 = 3;  // a two-plane read of logical pages 2 and 3
  commands[2].lpn2 = 3;
  flash::Command cleaning = flash::page_command(Op::kRead, 4, 1);
  cleaning.cleaning = true;
  commands.push_back(cleaning);
  // From the last 4 KiB of page 0 to the first 12 KiB of page 3.
  sim::select_read_units(g.members(), page, page - 4096, 2 * page + 4096 + 12288, commands);
  EXPECT_EQ(commands[0].read_units, 1u);
  EXPECT_EQ(commands[1].read_units, 8u);
  EXPECT_EQ(commands[2].read_units, 8u + 3u);
  EXPECT_EQ(commands[3].read_units, 0u);  // cleaning moves whole pages
  EXPECT_EQ(flash::read_units_moved(commands[3], g.members()), 8u);
}

TEST(SharedBusSyncGang, ConfigPrintsTheGangAndItsUnloadedCosts) {
  const std::string printed = support::config_text("agrawal-gang16-shared-bus-sync");
  EXPECT_THAT(printed, HasSubstr("1 channels x 16 packages"));
  EXPECT_THAT(printed, HasSubstr("shared-bus-sync: 1 gang of 16 packages in lockstep"));
  EXPECT_THAT(printed, HasSubstr("gang page 64 KiB = 16 x 4 KiB"));
  EXPECT_THAT(printed, HasSubstr("one member page 130.600 us"));
  EXPECT_THAT(printed, HasSubstr("write of part of a gang page 1914.600 us"));
  EXPECT_THAT(printed, HasSubstr("interleaving none"));
}

}  // namespace
}  // namespace ssdlab
