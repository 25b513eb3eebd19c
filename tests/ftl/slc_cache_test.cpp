// The SLC cache of the page-mapped FTL (ftl/page_mapped/page_mapped_slc_cache.h): host
// writes in SLC-mode blocks while the cache has room, then native cells or
// foreground folding (when_full), the static part out of the capacity, the
// dynamic part shrinking as the logical space fills, idle folding, the
// checkpoint, and every read returning the latest write throughout.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "common/error.h"
#include "common/rng.h"
#include "ftl/ftl.h"
#include "ftl/verifier.h"
#include "test_support.h"

namespace ssdlab::ftl {
namespace {

using flash::Op;

// The tiny preset in TLC cells: 8 planes of 32 blocks of 48 pages (16 in
// SLC mode), two allocation pools; `gib` of SLC cache.
sim::DeviceConfig tlc_config(SlcCacheMode mode, double gib,
                             SlcWhenFull when_full = SlcWhenFull::kNative) {
  sim::DeviceConfig config = testing::load_preset("tiny");
  config.geometry.cell_type = flash::CellType::kTlc;
  config.geometry.pages_per_block = 48;
  config.ftl.slc_cache.mode = mode;
  config.ftl.slc_cache.size_gib = gib;
  config.ftl.slc_cache.when_full = when_full;
  config.ftl.slc_cache.bits_per_cell = 3;
  return config;
}

// 64 KiB per SLC block: 4 MiB is 64 blocks, 32 per pool.
constexpr double kFourMib = 4.0 / 1024;

struct Device {
  explicit Device(const sim::DeviceConfig& c, const std::string& type = "page-mapped")
      : config(with_type(c, type)),
        ftl(make_ftl({config.geometry, config.ftl, 7})),
        verifier(config.geometry, ftl->logical_pages(), config.ftl.copy_back) {}
  static sim::DeviceConfig with_type(sim::DeviceConfig c, const std::string& type) {
    c.ftl.type = type;
    return c;
  }
  CommandList write(Lpn first, std::uint32_t count = 1) {
    CommandList out;
    const PageRange range{first, count, false, false};
    ftl->write(range, out);
    verifier.host_write(range, out);
    return out;
  }
  void read_all() {
    CommandList out;
    const PageRange range{0, static_cast<std::uint32_t>(ftl->logical_pages()), false, false};
    ftl->read(range, out);
    verifier.host_read(range, out);
  }
  bool in_slc(const CommandList& out) const {
    for (const auto& command : out)
      if (command.op == Op::kProgram && !command.cleaning)
        return ftl->nand().is_slc(config.geometry.block_of(command.ppn));
    return false;
  }
  records::SlcCacheCounters stats() const { return *ftl->part_records().slc_cache; }

  sim::DeviceConfig config;
  std::unique_ptr<Ftl> ftl;
  Verifier verifier;
};

TEST(SlcCacheTest, HostWritesGoToSlcBlocksWhileTheCacheHasRoom) {
  Device device(tlc_config(SlcCacheMode::kDynamic, kFourMib));
  const CommandList out = device.write(0, 4);
  EXPECT_TRUE(device.in_slc(out));
  const records::SlcCacheCounters stats = device.stats();
  EXPECT_EQ(stats.host_pages_absorbed, 4u);
  EXPECT_EQ(stats.host_pages_bypassed, 0u);
  EXPECT_EQ(stats.pages_per_block, 16u);
  EXPECT_EQ(stats.capacity_blocks, 64u);
  EXPECT_GE(stats.blocks_in_use, 2u);  // one per pool at least
  device.ftl->check_invariants();
}

TEST(SlcCacheTest, AFullCacheSendsWritesToNativeCells) {
  // A static cache of 4 blocks per pool (256 KiB): 64 pages per pool.
  Device device(tlc_config(SlcCacheMode::kStatic, 0.5 / 1024));
  for (Lpn lpn = 0; lpn < 128; ++lpn) EXPECT_TRUE(device.in_slc(device.write(lpn))) << lpn;
  EXPECT_FALSE(device.in_slc(device.write(128)));
  const records::SlcCacheCounters stats = device.stats();
  EXPECT_EQ(stats.host_pages_absorbed, 128u);
  EXPECT_EQ(stats.host_pages_bypassed, 1u);
  EXPECT_EQ(stats.blocks_in_use, 8u);
  device.ftl->check_invariants();
  device.read_all();
}

TEST(SlcCacheTest, AStaticCacheComesOutOfTheSpareArea) {
  // 30% spare (77 blocks), of which cleaning keeps 5% of the blocks (13).
  const auto with_spare = [](sim::DeviceConfig c) {
    c.ftl.overprovisioning = 0.3;
    return c;
  };
  // A small static part fits in the spare: the capacity stays the drive's.
  const Device plain(with_spare(tlc_config(SlcCacheMode::kNone, 0)));
  const Device small(with_spare(tlc_config(SlcCacheMode::kStatic, 0.5 / 1024)));  // 8 blocks
  EXPECT_EQ(small.ftl->logical_pages(), plain.ftl->logical_pages());
  // One larger than the spare: the capacity gives way, by at most its blocks.
  const Device cached(with_spare(tlc_config(SlcCacheMode::kStatic, kFourMib)));  // 64 blocks
  const auto less = static_cast<double>(plain.ftl->logical_pages() - cached.ftl->logical_pages());
  EXPECT_GT(less, 0);
  EXPECT_LE(less, 64 * 48 + 2);
}

TEST(SlcCacheTest, WaitingForFoldingKeepsWritesInSlcAndFoldsTheOldestBlock) {
  Device device(tlc_config(SlcCacheMode::kStatic, 0.5 / 1024, SlcWhenFull::kFold));
  for (Lpn lpn = 0; lpn < 128; ++lpn) device.write(lpn);
  const CommandList out = device.write(128);
  EXPECT_TRUE(device.in_slc(out));
  std::size_t moves = 0, erases = 0;
  for (const auto& command : out) {
    if (!command.cleaning) continue;
    moves += command.op == Op::kCopyBack || command.op == Op::kMove;
    erases += command.op == Op::kErase;
  }
  EXPECT_EQ(moves, 16u);  // the oldest block of the pool: 16 valid pages
  EXPECT_EQ(erases, 1u);
  const records::SlcCacheCounters stats = device.stats();
  EXPECT_EQ(stats.blocks_folded, 1u);
  EXPECT_EQ(stats.foreground_folds, 1u);
  EXPECT_EQ(stats.pages_folded, 16u);
  device.ftl->check_invariants();
  device.read_all();
}

TEST(SlcCacheTest, IdleFoldingEmptiesSealedBlocks) {
  Device device(tlc_config(SlcCacheMode::kDynamic, kFourMib));
  // 100 pages per pool, 25 per plane: one sealed block per plane.
  for (Lpn lpn = 0; lpn < 200; ++lpn) device.write(lpn);
  ASSERT_TRUE(device.ftl->wants_background_cleaning(0, true));
  const std::uint64_t before = device.stats().blocks_in_use;
  while (device.ftl->wants_background_cleaning(0, true)) {
    CommandList out;
    device.ftl->clean_in_background(0, out);
    device.verifier.background(out);
  }
  EXPECT_EQ(device.stats().blocks_in_use, before - 4);  // pool 0's four
  EXPECT_EQ(device.stats().pages_folded, 64u);
  EXPECT_EQ(device.stats().foreground_folds, 0u);
  device.ftl->check_invariants();
  device.read_all();
}

TEST(SlcCacheTest, AnIdleFoldRoundTakesOneSealedBlockOnEachPlane) {
  Device device(tlc_config(SlcCacheMode::kDynamic, kFourMib));
  // 200 pages per pool, 50 per plane: three sealed blocks on each plane.
  for (Lpn lpn = 0; lpn < 400; ++lpn) device.write(lpn);
  const std::uint64_t before = device.stats().blocks_in_use;
  CommandList out;
  device.ftl->clean_in_background(0, out);
  device.verifier.background(out);
  std::vector<std::uint32_t> erased_planes;
  for (const auto& command : out)
    if (command.op == Op::kErase) erased_planes.push_back(device.config.geometry.plane_of(command.ppn));
  std::sort(erased_planes.begin(), erased_planes.end());
  EXPECT_EQ(erased_planes.size(), 4u);  // pool 0's four planes, one block each
  EXPECT_TRUE(std::adjacent_find(erased_planes.begin(), erased_planes.end()) == erased_planes.end());
  EXPECT_EQ(device.stats().blocks_in_use, before - 4);
  device.ftl->check_invariants();
  device.read_all();
}

TEST(SlcCacheTest, TheDynamicCacheShrinksAsTheLogicalSpaceFillsAndNoWriteIsLost) {
  Device device(tlc_config(SlcCacheMode::kDynamic, 1.0));  // far more than the device
  const auto pages = static_cast<Lpn>(device.ftl->logical_pages());
  for (Lpn lpn = 0; lpn < pages; ++lpn) device.write(lpn);
  const records::SlcCacheCounters full = device.stats();
  EXPECT_GT(full.peak_blocks, full.blocks_in_use);
  EXPECT_GT(full.blocks_folded, 0u);
  device.ftl->check_invariants();
  Rng rng(3);
  for (int i = 0; i < 20000; ++i) {
    device.write(static_cast<Lpn>(rng.uniform(pages)));
    if (i % 5000 == 0) device.ftl->check_invariants();
  }
  device.ftl->check_invariants();
  device.read_all();
  EXPECT_GT(device.stats().host_pages_absorbed, 0u);
}

TEST(SlcCacheTest, DftlHasTheCacheToo) {
  Device device(tlc_config(SlcCacheMode::kDynamic, kFourMib), "dftl");
  Rng rng(5);
  const auto pages = static_cast<Lpn>(device.ftl->logical_pages());
  for (int i = 0; i < 30000; ++i) device.write(static_cast<Lpn>(rng.uniform(pages)));
  EXPECT_GT(device.stats().host_pages_absorbed, 0u);
  device.ftl->check_invariants();
  device.read_all();
}

TEST(SlcCacheTest, TheCheckpointCarriesTheCache) {
  Device device(tlc_config(SlcCacheMode::kDynamic, kFourMib));
  for (Lpn lpn = 0; lpn < 300; ++lpn) device.write(lpn % 200);
  std::stringstream state;
  {
    StateWriter out(&state);
    device.ftl->save_state(out);
  }
  Device copy(device.config);
  StateReader in(state);
  copy.ftl->load_state(in);
  EXPECT_EQ(copy.stats(), device.stats());
  copy.ftl->check_invariants();
  for (Lpn lpn = 0; lpn < 50; ++lpn) {
    CommandList a, b;
    device.ftl->write({lpn, 1, false, false}, a);
    copy.ftl->write({lpn, 1, false, false}, b);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].ppn, b[i].ppn);
  }
}

TEST(SlcCacheTest, OnlyCellsOfSeveralBitsHaveACache) {
  sim::DeviceConfig config = tlc_config(SlcCacheMode::kDynamic, kFourMib);
  config.ftl.slc_cache.bits_per_cell = 1;
  EXPECT_THROW(Device{config}, Error);
}

}  // namespace
}  // namespace ssdlab::ftl
