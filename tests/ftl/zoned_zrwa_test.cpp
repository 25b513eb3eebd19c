// The zoned FTL's zone random write area (NVMe TP 4076; ftl/zoned_zrwa.cpp,
// docs/zns.md): allocated by an explicit open within its resources; writes
// anywhere in the ZRWA and its implicit flush range, over each other; an
// implicit flush commits whole granules, an explicit one up to its SLBA; no
// appends; a reset forgets it, a full zone releases it; the checkpoint
// keeps it.
#include <gtest/gtest.h>

#include <sstream>

#include "common/state_io.h"
#include "ftl/ftl.h"
#include "ftl/zoned.h"
#include "test_support.h"

namespace ssdlab::ftl {
namespace {

using Commit = ZonedDevice::Commit;

// tiny, zones two dies wide (64 pages); a ZRWA of 8 pages flushed in 2.
ZonedKeys zrwa_keys(std::uint32_t max_zrwa_zones = 0) {
  return {.zone_width = 2,
          .zrwa_size = 8 * 4096,
          .zrwa_flush_granularity = 2 * 4096,
          .max_zrwa_zones = max_zrwa_zones};
}

struct Zrwa {
  explicit Zrwa(ZonedKeys keys = zrwa_keys()) {
    config = testing::load_preset("tiny");
    config.ftl.type = "zoned";
    config.ftl.keys.emplace<ZonedKeys>(keys);
    ftl = make_ftl({config.geometry, config.ftl, 1});
    zones = ftl->zoned();
  }
  // A write of `count` pages from page `at` (of the device); its commit
  // written to flash, as the controller writes it.
  ZoneStatus write(Lpn at, std::uint32_t count, Commit& commit) {
    const ZoneStatus status = zones->write_zrwa(at, count, commit);
    if (status == ZoneStatus::kSuccess) program(commit);
    return status;
  }
  void program(const Commit& commit) {
    if (commit.count == 0) return;
    CommandList out;
    ftl->write({commit.first, commit.count}, out);
  }
  std::uint64_t wp(std::uint64_t zone = 0) const { return zones->zone(zone).write_pointer; }
  const records::ZoneCounters& counters() const { return zones->zone_counters(); }
  std::uint64_t refused(ZoneStatus status) const {
    for (std::size_t i = 0; i < kZoneErrors.size(); ++i)
      if (kZoneErrors[i] == status) return counters().refusals[i].count;
    return 0;
  }

  sim::DeviceConfig config;
  std::unique_ptr<Ftl> ftl;
  ZonedDevice* zones = nullptr;
};

TEST(ZonedZrwa, AnExplicitOpenAllocatesOneWithinTheResources) {
  Zrwa z(zrwa_keys(/*max_zrwa_zones=*/1));
  Commit commit;
  EXPECT_EQ(z.zones->open(0), ZoneStatus::kSuccess);
  EXPECT_TRUE(z.zones->has_zrwa(0));
  // No resource left for a second (NOZRWA, 1B7h); the zone stays empty.
  EXPECT_EQ(z.zones->open(1), ZoneStatus::kNoZrwa);
  EXPECT_EQ(z.zones->zone(1).state, ZoneState::kEmpty);
  EXPECT_EQ(z.counters().zrwa_allocations, 1u);
  // A zone written without one (implicitly opened) keeps writing at its
  // write pointer.
  EXPECT_FALSE(z.zones->has_zrwa(2));
  EXPECT_EQ(z.zones->admit_write(2 * 64, 1), ZoneStatus::kSuccess);
  // No appends to a zone with a ZRWA (Invalid Zone Operation, 1B6h).
  Lpn first = 0;
  EXPECT_EQ(z.zones->admit_append(0, 1, first), ZoneStatus::kInvalidZoneOperation);
  EXPECT_EQ(z.refused(ZoneStatus::kInvalidZoneOperation), 1u);
  z.ftl->check_invariants();
}

TEST(ZonedZrwa, WritesLandAnywhereInTheAreaAndAnImplicitFlushCommitsWholeGranules) {
  Zrwa z;
  ASSERT_EQ(z.zones->open(0), ZoneStatus::kSuccess);
  Commit commit;
  // Out of order, and over each other: nothing reaches flash.
  ASSERT_EQ(z.write(5, 2, commit), ZoneStatus::kSuccess);
  ASSERT_EQ(z.write(0, 1, commit), ZoneStatus::kSuccess);
  ASSERT_EQ(z.write(5, 1, commit), ZoneStatus::kSuccess);
  EXPECT_EQ(commit.count, 0u);
  EXPECT_EQ(z.wp(), 0u);
  EXPECT_EQ(z.counters().zrwa_overwritten_pages, 1u);
  EXPECT_FALSE(z.ftl->is_mapped(0));
  // Below the write pointer, or past the implicit flush range: refused.
  EXPECT_EQ(z.write(16, 1, commit), ZoneStatus::kInvalidWrite);
  // A write ending at page 11, 3 past the ZRWA: 2 granules (4 pages) commit.
  ASSERT_EQ(z.write(10, 1, commit), ZoneStatus::kSuccess);
  EXPECT_EQ(commit.first, 0u);
  EXPECT_EQ(commit.count, 4u);
  EXPECT_EQ(z.wp(), 4u);
  EXPECT_EQ(z.counters().zrwa_implicit_flushes, 1u);
  EXPECT_EQ(z.counters().zrwa_unwritten_pages, 3u);  // pages 1, 2, 3 never written
  EXPECT_TRUE(z.ftl->is_mapped(0));
  EXPECT_FALSE(z.ftl->is_mapped(5));                            // still in the ZRWA
  EXPECT_EQ(z.write(3, 1, commit), ZoneStatus::kInvalidWrite);  // below the write pointer now
  z.ftl->check_invariants();
}

TEST(ZonedZrwa, AnExplicitFlushCommitsUpToItsBlockOnAGranule) {
  Zrwa z;
  ASSERT_EQ(z.zones->open(0), ZoneStatus::kSuccess);
  Commit commit;
  ASSERT_EQ(z.write(0, 6, commit), ZoneStatus::kSuccess);
  EXPECT_EQ(z.zones->flush_zrwa(2, commit), ZoneStatus::kInvalidField);   // 3 pages: no granule
  EXPECT_EQ(z.zones->flush_zrwa(8, commit), ZoneStatus::kBoundaryError);  // past the ZRWA
  ASSERT_EQ(z.zones->flush_zrwa(3, commit), ZoneStatus::kSuccess);
  z.program(commit);
  EXPECT_EQ(commit.count, 4u);
  EXPECT_EQ(z.wp(), 4u);
  EXPECT_EQ(z.counters().zrwa_explicit_flushes, 1u);
  // A zone without a ZRWA takes no explicit flush (Invalid Field).
  EXPECT_EQ(z.zones->flush_zrwa(64 + 1, commit), ZoneStatus::kInvalidField);
  // Before a finish the controller commits what the ZRWA holds (pages 4, 5).
  commit = z.zones->commit_zrwa(0);
  z.program(commit);
  EXPECT_EQ(commit.first, 4u);
  EXPECT_EQ(commit.count, 2u);
  CommandList out;
  EXPECT_EQ(z.zones->finish(0, out), ZoneStatus::kSuccess);
  EXPECT_FALSE(z.zones->has_zrwa(0));
  EXPECT_TRUE(z.ftl->is_mapped(5));
  z.ftl->check_invariants();
}

TEST(ZonedZrwa, AResetForgetsItAndAFullZoneReleasesIt) {
  Zrwa z(zrwa_keys(/*max_zrwa_zones=*/1));
  ASSERT_EQ(z.zones->open(0), ZoneStatus::kSuccess);
  Commit commit;
  ASSERT_EQ(z.write(1, 2, commit), ZoneStatus::kSuccess);
  CommandList out;
  ASSERT_EQ(z.zones->reset(0, out), ZoneStatus::kSuccess);
  EXPECT_FALSE(z.zones->has_zrwa(0));
  EXPECT_FALSE(z.ftl->is_mapped(1));
  // The resource is free again; writing the whole zone through its ZRWA
  // fills it and releases the ZRWA.
  ASSERT_EQ(z.zones->open(0), ZoneStatus::kSuccess);
  for (Lpn page = 0; page < 64; ++page) ASSERT_EQ(z.write(page, 1, commit), ZoneStatus::kSuccess);
  ASSERT_EQ(z.zones->flush_zrwa(63, commit), ZoneStatus::kSuccess);
  z.program(commit);
  EXPECT_EQ(z.zones->zone(0).state, ZoneState::kFull);
  EXPECT_FALSE(z.zones->has_zrwa(0));
  EXPECT_EQ(z.zones->open(1), ZoneStatus::kSuccess);
  for (Lpn page = 0; page < 64; ++page) EXPECT_TRUE(z.ftl->is_mapped(page));
  z.ftl->check_invariants();
}

TEST(ZonedZrwa, ACheckpointKeepsWhatTheAreaHolds) {
  Zrwa z;
  ASSERT_EQ(z.zones->open(0), ZoneStatus::kSuccess);
  Commit commit;
  ASSERT_EQ(z.write(3, 2, commit), ZoneStatus::kSuccess);
  std::stringstream stream;
  {
    StateWriter writer(&stream);
    z.ftl->save_state(writer);
  }
  Zrwa loaded;
  {
    StateReader reader(stream);
    loaded.ftl->load_state(reader);
  }
  EXPECT_TRUE(loaded.zones->has_zrwa(0));
  loaded.ftl->check_invariants();
  // The same writes commit the same pages.
  ASSERT_EQ(loaded.zones->flush_zrwa(5, commit), ZoneStatus::kSuccess);
  EXPECT_EQ(commit.count, 6u);
  EXPECT_EQ(loaded.counters().zrwa_unwritten_pages, 4u);
}

}  // namespace
}  // namespace ssdlab::ftl
