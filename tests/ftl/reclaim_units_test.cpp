// Reclaim units as the unit of cleaning (ftl/page_mapped/page_mapped_reclaim_units.h,
// ftl.fdp_reclaim = "unit"; docs/fdp.md): membership as slots open blocks,
// the unit greedy and cost-benefit choose, its blocks cleaned in turn, and
// a device that cleans by units passing the verifier and its checkpoint.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "common/rng.h"
#include "common/state_io.h"
#include "ftl/ftl.h"
#include "ftl/page_mapped/page_mapped_reclaim_units.h"
#include "ftl/verifier.h"
#include "test_support.h"

namespace ssdlab::ftl {
namespace {

using page_mapped::ReclaimUnits;

// tiny: 8 planes of 32 blocks, two pools of 4 planes (the packages).
struct Units {
  Units()
      : config(testing::load_preset("tiny")),
        geometry(config.geometry),
        layout(config.geometry, config.ftl.pool),
        units(true, geometry, layout, 8) {}
  flash::BlockId block(std::uint32_t plane, std::uint32_t index) const {
    return plane * config.geometry.blocks_per_plane + index;
  }
  sim::DeviceConfig config;
  flash::FastGeometry geometry;
  PoolLayout layout;
  ReclaimUnits units;
  std::map<flash::BlockId, std::uint32_t> valid;  // the candidates, with their valid pages
  flash::BlockId next(bool cost_benefit = false, std::uint64_t now = 0) {
    return units.next(
        0, [&](flash::BlockId b) { return valid.count(b) > 0; },
        [&](flash::BlockId b) { return valid.at(b); }, 16, cost_benefit, now);
  }
};

TEST(ReclaimUnitsTest, ASlotsBlocksOnEachPlaneFormAUnitAndTheEmptiestIsReclaimedWhole) {
  Units u;
  // Slot 4 opens blocks 0 and 1 on each plane of pool 0 (planes 0-3) in
  // turn: the first round is one unit, the second the next.
  for (std::uint32_t round = 0; round < 2; ++round)
    for (std::uint32_t plane = 0; plane < 4; ++plane)
      u.units.opened(u.block(plane, round), plane, 4);
  // All sealed; the second unit holds fewer valid pages in all, though its
  // plane-0 block holds more than any block of the first.
  for (std::uint32_t plane = 0; plane < 4; ++plane) {
    u.valid[u.block(plane, 0)] = 10;
    u.valid[u.block(plane, 1)] = plane == 0 ? 12 : 2;
  }
  EXPECT_EQ(u.next(), u.block(0, 1));
  u.valid.erase(u.block(0, 1));  // (started: no longer a candidate)
  // The rest of the unit, in turn, before any other choice.
  for (std::uint32_t plane = 1; plane < 4; ++plane) {
    EXPECT_EQ(u.next(), u.block(plane, 1));
    u.valid.erase(u.block(plane, 1));
    u.units.erased(u.block(plane - 1, 1));
  }
  u.units.erased(u.block(3, 1));
  EXPECT_EQ(u.next(), u.block(0, 0));  // then the first unit
  EXPECT_EQ(u.units.cleaned(), 2u);
}

TEST(ReclaimUnitsTest, AUnitWithABlockStillOpenOrFullOfValidDataIsNotChosen) {
  Units u;
  for (std::uint32_t plane = 0; plane < 4; ++plane) u.units.opened(u.block(plane, 0), plane, 4);
  for (std::uint32_t plane = 0; plane < 3; ++plane) u.valid[u.block(plane, 0)] = 0;
  EXPECT_EQ(u.next(), ReclaimUnits::kNoUnitBlock);  // plane 3's block is open
  u.valid[u.block(3, 0)] = 16;
  EXPECT_EQ(u.next(), u.block(0, 0));
  Units full;
  for (std::uint32_t plane = 0; plane < 4; ++plane) {
    full.units.opened(full.block(plane, 0), plane, 4);
    full.valid[full.block(plane, 0)] = 16;
  }
  EXPECT_EQ(full.next(), ReclaimUnits::kNoUnitBlock);
}

// Cost-benefit weighs age: of two units equally full, the one sealed
// longer ago; greedy takes the first found.
TEST(ReclaimUnitsTest, CostBenefitPrefersTheOlderOfEquallyFullUnits) {
  Units u;
  for (std::uint32_t round = 0; round < 2; ++round)
    for (std::uint32_t plane = 0; plane < 4; ++plane) {
      u.units.opened(u.block(plane, round), plane, 4);
      u.valid[u.block(plane, round)] = 8;
      u.units.sealed(u.block(plane, round), round == 0 ? 500 : 100);
    }
  EXPECT_EQ(u.next(true, 1000), u.block(0, 1));
}

// A block opened by another slot, or in another pool, is not of the unit.
TEST(ReclaimUnitsTest, SlotsAndPoolsHaveUnitsOfTheirOwn) {
  Units u;
  u.units.opened(u.block(0, 0), 0, 4);
  u.units.opened(u.block(1, 0), 1, 5);  // another slot
  u.units.opened(u.block(4, 0), 4, 4);  // pool 1
  u.valid[u.block(0, 0)] = 3;
  u.valid[u.block(1, 0)] = 1;
  u.valid[u.block(4, 0)] = 0;
  EXPECT_EQ(u.next(), u.block(1, 0));  // pool 0's emptiest unit: slot 5's
  EXPECT_EQ(u.next(), u.block(1, 0));  // (still a candidate: chosen again)
}

// The device: two lifetimes on tiny with FDP cleaning whole units, and
// with block grain for comparison; the verifier checks every read, the
// invariants hold, and a checkpoint restores the units.
TEST(ReclaimUnitsTest, ADeviceCleaningByUnitsLosesNothingAndCheckpoints) {
  sim::DeviceConfig config = testing::load_preset("tiny");
  config.ftl.placement.mode = PlacementMode::kFdp;
  config.ftl.placement.handles = 2;
  config.ftl.placement.isolation = Isolation::kPersistently;
  config.ftl.placement.reclaim_units = true;
  for (const char* type : {"page-mapped", "dftl"}) {
    config.ftl.type = type;
    auto ftl = make_ftl({config.geometry, config.ftl, 7});
    Verifier verifier(config.geometry, ftl->logical_pages(), config.ftl.copy_back);
    const auto pages = ftl->logical_pages();
    Rng rng(3);
    const auto write = [&](Ftl& f, Lpn lpn) {
      CommandList out;
      PageRange range{lpn, 1, false, false};
      range.placement = lpn < pages / 8 ? 1 : 0;
      f.write(range, out);
      return out;
    };
    for (Lpn lpn = 0; lpn < pages; ++lpn) verifier.host_write({lpn, 1}, write(*ftl, lpn));
    for (int i = 0; i < 30000; ++i) {
      const Lpn lpn = static_cast<Lpn>(i % 4 == 3 ? rng.uniform(pages) : rng.uniform(pages / 8));
      verifier.host_write({lpn, 1}, write(*ftl, lpn));
    }
    ftl->check_invariants();
    const records::FdpCounters fdp = *ftl->part_records().fdp;
    EXPECT_EQ(fdp.reclaim, "unit") << type;
    EXPECT_GT(fdp.reclaim_units_cleaned, 100u) << type;
    EXPECT_GT(ftl->stats().blocks_cleaned, 2 * fdp.reclaim_units_cleaned) << type;
    CommandList reads;
    const PageRange all{0, static_cast<std::uint32_t>(pages), false, false};
    ftl->read(all, reads);
    verifier.host_read(all, reads);

    std::stringstream bytes;
    {
      StateWriter writer(&bytes);
      ftl->save_state(writer);
    }
    auto restored = make_ftl({config.geometry, config.ftl, 7});
    {
      StateReader reader(bytes);
      restored->load_state(reader);
    }
    restored->check_invariants();
    Rng a(9), b(9);
    for (int i = 0; i < 5000; ++i) {
      const CommandList out_a = write(*ftl, static_cast<Lpn>(a.uniform(pages)));
      const CommandList out_b = write(*restored, static_cast<Lpn>(b.uniform(pages)));
      ASSERT_EQ(out_a.size(), out_b.size()) << type << " request " << i;
      for (std::size_t c = 0; c < out_a.size(); ++c) ASSERT_EQ(out_a[c].ppn, out_b[c].ppn);
    }
    EXPECT_EQ(*restored->part_records().fdp, *ftl->part_records().fdp) << type;
  }
}

}  // namespace
}  // namespace ssdlab::ftl
