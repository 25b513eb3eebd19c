// The zoned FTL (ftl/zoned.h, docs/zns.md): the zone state machine and its
// refusals as ZNS 1.1 gives them, the open and active limits, reset and
// finish and their flash commands, appends, the layout over zone_width dies,
// a mount after a power cut (write pointers found on flash), and the
// checkpoint.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "common/state_io.h"
#include "ftl/ftl.h"
#include "ftl/verifier.h"
#include "ftl/zoned.h"
#include "test_support.h"

namespace ssdlab::ftl {
namespace {

// tiny: 2 channels x 2 dies x 2 planes x 32 blocks of 16 4-KiB pages.
struct Zoned {
  explicit Zoned(ZonedKeys keys = {}, double overprovisioning = 0.0) {
    config = testing::load_preset("tiny");
    config.ftl.type = "zoned";
    config.ftl.overprovisioning = overprovisioning;
    config.ftl.keys.emplace<ZonedKeys>(keys);
    ftl = make_ftl({config.geometry, config.ftl, 1});
    zones = ftl->zoned();
  }
  // A write of `count` pages at `first` if the zone admits it.
  ZoneStatus write(Lpn first, std::uint32_t count) {
    const ZoneStatus status = zones->admit_write(first, count);
    if (status == ZoneStatus::kSuccess) {
      CommandList out;
      ftl->write({first, count}, out);
    }
    return status;
  }
  std::uint64_t zone_start(std::uint64_t zone) const { return zone * zones->zone_pages(); }
  std::uint64_t refused(ZoneStatus status) const {
    for (std::size_t i = 0; i < kZoneErrors.size(); ++i)
      if (kZoneErrors[i] == status) return zones->zone_counters().refusals[i].count;
    return 0;
  }
  sim::DeviceConfig config;
  std::unique_ptr<Ftl> ftl;
  ZonedDevice* zones = nullptr;
};

TEST(Zoned, ZonesAreBlockRowsOverTheirDies) {
  Zoned all;  // zone_width 0: every die, one block per plane
  EXPECT_EQ(all.zones->zone_pages(), 4u * 2 * 16);  // 4 dies x 2 planes x 16 pages
  EXPECT_EQ(all.zones->zones(), 32u);
  Zoned narrow(ZonedKeys{.zone_width = 2});
  EXPECT_EQ(narrow.zones->zone_pages(), 2u * 2 * 16);
  EXPECT_EQ(narrow.zones->zones(), 64u);  // two die groups of 32 block rows
  // A zone's consecutive pages go round its planes: the first 4 pages of a
  // 2-die zone land on 2 dies, two planes each.
  ASSERT_EQ(narrow.write(0, 4), ZoneStatus::kSuccess);
  std::set<std::uint32_t> dies, planes;
  for (Lpn lpn = 0; lpn < 4; ++lpn) {
    dies.insert(narrow.config.geometry.die_of(narrow.ftl->locate(lpn)));
    planes.insert(narrow.config.geometry.plane_of(narrow.ftl->locate(lpn)));
  }
  EXPECT_EQ(dies.size(), 2u);
  EXPECT_EQ(planes.size(), 4u);
  // The next zone is on the other die group.
  ASSERT_EQ(narrow.write(narrow.zone_start(1), 1), ZoneStatus::kSuccess);
  EXPECT_EQ(dies.count(narrow.config.geometry.die_of(narrow.ftl->locate(narrow.zone_start(1)))),
            0u);
}

TEST(Zoned, WritesOnlyAtTheWritePointerAndWithinTheCapacity) {
  Zoned z(ZonedKeys{.zone_capacity = 100 * 4096});
  EXPECT_EQ(z.zones->capacity_pages(), 100u);
  EXPECT_EQ(z.write(1, 1), ZoneStatus::kInvalidWrite);  // not at the write pointer (0)
  EXPECT_EQ(z.write(0, 8), ZoneStatus::kSuccess);
  EXPECT_EQ(z.zones->zone(0).state, ZoneState::kImplicitlyOpen);
  EXPECT_EQ(z.zones->zone(0).write_pointer, 8u);
  EXPECT_EQ(z.write(4, 1), ZoneStatus::kInvalidWrite);  // behind it
  EXPECT_EQ(z.write(8, 93), ZoneStatus::kBoundaryError);  // past the capacity
  EXPECT_EQ(z.write(8, 92), ZoneStatus::kSuccess);
  EXPECT_EQ(z.zones->zone(0).state, ZoneState::kFull);
  EXPECT_EQ(z.write(100, 1), ZoneStatus::kZoneFull);
  EXPECT_EQ(z.refused(ZoneStatus::kInvalidWrite), 2u);
  EXPECT_EQ(z.refused(ZoneStatus::kBoundaryError), 1u);
  EXPECT_EQ(z.refused(ZoneStatus::kZoneFull), 1u);
  // Pages past the capacity exist (reads) but hold nothing.
  EXPECT_TRUE(z.ftl->is_mapped(99));
  EXPECT_FALSE(z.ftl->is_mapped(100));
  z.ftl->check_invariants();
}

TEST(Zoned, TheOpenLimitClosesTheOldestImplicitlyOpenZone) {
  Zoned z(ZonedKeys{.max_open_zones = 2, .max_active_zones = 3});
  ASSERT_EQ(z.write(z.zone_start(0), 1), ZoneStatus::kSuccess);
  ASSERT_EQ(z.write(z.zone_start(1), 1), ZoneStatus::kSuccess);
  // A third zone opens: the first one opened is closed for it (ZNS §2.1.1.4).
  ASSERT_EQ(z.write(z.zone_start(2), 1), ZoneStatus::kSuccess);
  EXPECT_EQ(z.zones->zone(0).state, ZoneState::kClosed);
  EXPECT_EQ(z.zones->zone_counters().implicit_closes, 1u);
  // Three zones are active (two open, one closed): a fourth is refused.
  EXPECT_EQ(z.write(z.zone_start(3), 1), ZoneStatus::kTooManyActive);
  // Explicitly open zones are never closed for another.
  Zoned e(ZonedKeys{.max_open_zones = 2});
  EXPECT_EQ(e.zones->open(0), ZoneStatus::kSuccess);
  EXPECT_EQ(e.zones->open(1), ZoneStatus::kSuccess);
  EXPECT_EQ(e.zones->open(2), ZoneStatus::kTooManyOpen);
  EXPECT_EQ(e.write(e.zone_start(2), 1), ZoneStatus::kTooManyOpen);
  // A close frees the open resource.
  EXPECT_EQ(e.zones->close(0), ZoneStatus::kSuccess);
  EXPECT_EQ(e.write(e.zone_start(2), 1), ZoneStatus::kSuccess);
  EXPECT_EQ(e.zones->close(5), ZoneStatus::kInvalidTransition);  // empty: nothing to close
  e.ftl->check_invariants();
}

// ZNS 1.1 §3.4.3.1.1: Close Zone takes an open zone to Closed whatever its
// write pointer (QEMU and FEMU alike); ZBC's rule, a zone closed at its
// start is Empty, is not the NVMe one. The closed zone keeps its active
// resource until a reset empties it.
TEST(Zoned, AZoneClosedBeforeItsFirstWriteIsClosedAndStaysActive) {
  Zoned z(ZonedKeys{.max_active_zones = 1});
  ASSERT_EQ(z.zones->open(0), ZoneStatus::kSuccess);
  EXPECT_EQ(z.zones->close(0), ZoneStatus::kSuccess);
  EXPECT_EQ(z.zones->zone(0).state, ZoneState::kClosed);
  EXPECT_EQ(z.zones->zone(0).write_pointer, 0u);
  EXPECT_EQ(z.write(z.zone_start(1), 1), ZoneStatus::kTooManyActive);
  EXPECT_EQ(z.write(z.zone_start(0), 1), ZoneStatus::kSuccess);  // it opens again, implicitly
  CommandList out;
  ASSERT_EQ(z.zones->close(0), ZoneStatus::kSuccess);
  ASSERT_EQ(z.zones->reset(0, out), ZoneStatus::kSuccess);
  EXPECT_EQ(z.zones->zone(0).state, ZoneState::kEmpty);
  EXPECT_EQ(z.write(z.zone_start(1), 1), ZoneStatus::kSuccess);
  z.ftl->check_invariants();
}

TEST(Zoned, ResetErasesTheWrittenBlocksAndFinishMarksOrPads) {
  Zoned z(ZonedKeys{.zone_width = 2});
  const std::uint64_t pages = z.zones->zone_pages();  // 64: 4 planes x 16
  ASSERT_EQ(z.write(0, 6), ZoneStatus::kSuccess);     // 6 pages: 4 planes' first blocks touched
  CommandList out;
  EXPECT_EQ(z.zones->reset(0, out), ZoneStatus::kSuccess);
  // One erase per written block, the two planes of a die joined (issue 54,
  // G9: one multi-plane erase rule, as the scheduler joins cleaning's).
  EXPECT_EQ(out.size(), 2u);
  for (const flash::Command& c : out) {
    EXPECT_EQ(c.op, flash::Op::kErase);
    EXPECT_TRUE(c.two_plane());
  }
  EXPECT_EQ(z.zones->zone(0).state, ZoneState::kEmpty);
  EXPECT_FALSE(z.ftl->is_mapped(0));
  out.clear();
  EXPECT_EQ(z.zones->reset(0, out), ZoneStatus::kSuccess);  // empty: nothing to erase
  EXPECT_TRUE(out.empty());
  // Finish that marks: no flash; that pads: the rest of the capacity programmed.
  ASSERT_EQ(z.write(0, 10), ZoneStatus::kSuccess);
  EXPECT_EQ(z.zones->finish(0, out), ZoneStatus::kSuccess);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(z.zones->zone(0).state, ZoneState::kFull);
  EXPECT_EQ(z.write(10, 1), ZoneStatus::kZoneFull);
  Zoned pad(ZonedKeys{.zone_width = 2, .finish = ZoneFinish::kPad});
  ASSERT_EQ(pad.write(0, 10), ZoneStatus::kSuccess);
  EXPECT_EQ(pad.zones->finish(0, out), ZoneStatus::kSuccess);
  std::uint64_t programmed = 0;
  for (const flash::Command& c : out) programmed += c.two_plane() ? 2 : 1;
  EXPECT_EQ(programmed, pages - 10);
  EXPECT_EQ(pad.zones->zone_counters().finish_padding_pages, pages - 10);
  // An empty zone finishes with nothing to pad (a ZN540: 13.5 us, against
  // 908 ms once a block of it is written; docs/zns.md, "Finish").
  out.clear();
  EXPECT_EQ(pad.zones->finish(1, out), ZoneStatus::kSuccess);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(pad.zones->zone(1).state, ZoneState::kFull);
  EXPECT_EQ(pad.zones->zone_counters().finish_padding_pages, pages - 10);
  pad.ftl->check_invariants();
}

TEST(Zoned, AnAppendGetsTheWritePointer) {
  Zoned z;
  Lpn first = 0;
  ASSERT_EQ(z.zones->admit_append(3, 4, first), ZoneStatus::kSuccess);
  EXPECT_EQ(first, z.zone_start(3));
  ASSERT_EQ(z.zones->admit_append(3, 2, first), ZoneStatus::kSuccess);
  EXPECT_EQ(first, z.zone_start(3) + 4);
  EXPECT_EQ(z.zones->zone_counters().appends, 2u);
  EXPECT_EQ(z.zones->admit_append(3, static_cast<std::uint32_t>(z.zones->zone_pages()), first),
            ZoneStatus::kBoundaryError);
}

TEST(Zoned, AWornBlockIsReplacedFromTheSpareAndWithoutOneTheZoneGoesOffline) {
  Zoned z(ZonedKeys{}, /*overprovisioning=*/0.05);  // 30 of 32 blocks per plane in zones
  z.config.geometry.pe_cycles = 2;
  z.ftl = make_ftl({z.config.geometry, z.config.ftl, 1});
  z.zones = z.ftl->zoned();
  const std::uint64_t pages = z.zones->zone_pages();
  CommandList out;
  for (int cycle = 0; cycle < 2; ++cycle) {
    ASSERT_EQ(z.write(0, static_cast<std::uint32_t>(pages)), ZoneStatus::kSuccess);
    ASSERT_EQ(z.zones->reset(0, out), ZoneStatus::kSuccess);
  }
  EXPECT_EQ(z.zones->zone_counters().blocks_replaced, 8u);  // each of its 8 blocks, once
  EXPECT_EQ(z.zones->zone(0).state, ZoneState::kEmpty);
  for (int cycle = 0; cycle < 4; ++cycle) {
    ASSERT_EQ(z.write(0, static_cast<std::uint32_t>(pages)), ZoneStatus::kSuccess);
    ASSERT_EQ(z.zones->reset(0, out), ZoneStatus::kSuccess);
    if (z.zones->zone(0).state == ZoneState::kOffline) break;
  }
  EXPECT_EQ(z.zones->zone(0).state, ZoneState::kOffline);
  EXPECT_EQ(z.write(0, 1), ZoneStatus::kZoneOffline);
  EXPECT_EQ(z.zones->check_read(0, 1), ZoneStatus::kZoneOffline);
  z.ftl->check_invariants();
}

TEST(Zoned, AMountFindsTheWritePointersOnFlash) {
  Zoned z(ZonedKeys{.zone_width = 2});
  flash::NandArray& nand = *z.ftl->flash_for_power_cut();
  nand.record_sequence_numbers();
  ASSERT_EQ(z.write(0, 37), ZoneStatus::kSuccess);
  ASSERT_EQ(z.write(z.zone_start(1), 64), ZoneStatus::kSuccess);
  ASSERT_EQ(z.zones->open(2), ZoneStatus::kSuccess);
  ASSERT_EQ(z.write(z.zone_start(3), 5), ZoneStatus::kSuccess);
  CommandList out;
  ASSERT_EQ(z.zones->reset(3, out), ZoneStatus::kSuccess);
  RecoveryReport report;
  out.clear();
  z.ftl->recover(RecoveryPolicy::kSequenceNumbers, out, report);
  EXPECT_EQ(z.zones->zone(0).write_pointer, 37u);
  EXPECT_EQ(z.zones->zone(0).state, ZoneState::kClosed);  // open zones close at a reset
  EXPECT_EQ(z.zones->zone(1).state, ZoneState::kFull);
  EXPECT_EQ(z.zones->zone(2).state, ZoneState::kEmpty);
  EXPECT_EQ(z.zones->zone(3).state, ZoneState::kEmpty);
  for (Lpn lpn = 0; lpn < 37; ++lpn) EXPECT_TRUE(z.ftl->is_mapped(lpn)) << lpn;
  EXPECT_FALSE(z.ftl->is_mapped(37));
  EXPECT_GT(report.pages_read, 0u);
  z.ftl->check_invariants();
  // Writing goes on at the recovered write pointer.
  EXPECT_EQ(z.write(37, 1), ZoneStatus::kSuccess);
}

TEST(Zoned, ACheckpointLoadsToTheSameState) {
  Zoned a(ZonedKeys{.zone_width = 2, .max_open_zones = 2});
  ASSERT_EQ(a.write(0, 20), ZoneStatus::kSuccess);
  ASSERT_EQ(a.write(a.zone_start(1), 3), ZoneStatus::kSuccess);
  ASSERT_EQ(a.write(a.zone_start(2), 3), ZoneStatus::kSuccess);  // closes zone 0
  CommandList out;
  ASSERT_EQ(a.zones->finish(1, out), ZoneStatus::kSuccess);
  std::stringstream saved;
  {
    StateWriter writer(&saved);
    a.ftl->save_state(writer);
  }
  const std::string bytes = saved.str();
  Zoned b(ZonedKeys{.zone_width = 2, .max_open_zones = 2});
  {
    StateReader reader(saved);
    b.ftl->load_state(reader);
  }
  b.ftl->check_invariants();
  for (std::uint64_t zone = 0; zone < 3; ++zone) {
    EXPECT_EQ(b.zones->zone(zone).state, a.zones->zone(zone).state);
    EXPECT_EQ(b.zones->zone(zone).write_pointer, a.zones->zone(zone).write_pointer);
  }
  EXPECT_EQ(b.zones->zone_counters(), a.zones->zone_counters());
  std::stringstream again;
  {
    StateWriter writer(&again);
    b.ftl->save_state(writer);
  }
  EXPECT_EQ(again.str(), bytes);
}

}  // namespace
}  // namespace ssdlab::ftl
