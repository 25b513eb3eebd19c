// Host-guided placement in the page-mapped FTL and DFTL (ftl/page_mapped/page_mapped_fdp.h,
// docs/fdp.md): each handle's writes in blocks of its own, cleaning keeping a
// persistently isolated handle's data apart (and an initially isolated one's
// not), a segregated two-lifetime workload's write amplification with and
// without identifiers, the range map, and the checkpoint.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "common/rng.h"
#include "common/state_io.h"
#include "ftl/ftl.h"
#include "ftl/verifier.h"
#include "test_support.h"

namespace ssdlab::ftl {
namespace {

sim::DeviceConfig fdp_config(Isolation isolation, const std::string& type = "page-mapped") {
  sim::DeviceConfig config = testing::load_preset("tiny");
  config.ftl.type = type;
  config.ftl.placement.mode = PlacementMode::kFdp;
  config.ftl.placement.handles = 2;
  config.ftl.placement.isolation = isolation;
  return config;
}

struct Device {
  explicit Device(const sim::DeviceConfig& c)
      : config(c),
        ftl(make_ftl({config.geometry, config.ftl, 7})),
        verifier(config.geometry, ftl->logical_pages(), config.ftl.copy_back) {}
  void write(Lpn lpn, std::uint8_t handle) {
    CommandList out;
    PageRange range{lpn, 1, false, false};
    range.placement = handle;
    ftl->write(range, out);
    verifier.host_write(range, out);
  }
  // Two lifetimes written together: a hot eighth of the space rewritten
  // at random, the rest cold, rewritten in sequence; the hot writes take
  // handle 1 and the cold ones handle 0 when `ids`, else all handle 0.
  void two_lifetimes(std::uint64_t writes, bool ids, std::uint64_t seed = 3) {
    const auto pages = static_cast<Lpn>(ftl->logical_pages());
    const Lpn hot = pages / 8;
    Rng rng(seed);
    Lpn cold = hot;
    for (Lpn lpn = 0; lpn < pages; ++lpn) write(lpn, ids && lpn < hot ? 1 : 0);
    for (std::uint64_t i = 0; i < writes; ++i) {
      if (i % 4 != 3) {
        write(static_cast<Lpn>(rng.uniform(hot)), ids ? 1 : 0);
      } else {
        write(cold, 0);
        if (++cold == pages) cold = hot;
      }
    }
  }
  double write_amplification_since(const FtlStats& before) const {
    const FtlStats& s = ftl->stats();
    return double(s.flash_pages_written - before.flash_pages_written) /
           double(s.host_pages_written - before.host_pages_written);
  }
  // Blocks holding valid pages of both the hot range and the cold one (but
  // SLC cache blocks, which take every handle's writes).
  std::uint32_t mixed_blocks() const {
    return testing::blocks_mixing(ftl->nand(), config.geometry,
                                  static_cast<Lpn>(ftl->logical_pages() / 8));
  }

  sim::DeviceConfig config;
  std::unique_ptr<Ftl> ftl;
  Verifier verifier;
};

TEST(FdpTest, EachHandleWritesBlocksOfItsOwn) {
  Device device(fdp_config(Isolation::kInitially));
  device.write(0, 0);
  device.write(1, 1);
  const flash::NandArray& nand = device.ftl->nand();
  const auto block_of = [&](Lpn lpn) {
    return device.config.geometry.block_of(device.ftl->locate(lpn));
  };
  EXPECT_NE(block_of(0), block_of(1));
  EXPECT_EQ(nand.placement_tag(block_of(0)), 1u);
  EXPECT_EQ(nand.placement_tag(block_of(1)), 2u);
  const records::FdpCounters stats = *device.ftl->part_records().fdp;
  EXPECT_EQ(stats.handles[0].host_pages, 1u);
  EXPECT_EQ(stats.handles[1].host_pages, 1u);
  EXPECT_EQ(stats.handle_changes, 1u);
}

TEST(FdpTest, AnIdPastTheLastHandleIsHandleZeroAndCounted) {
  Device device(fdp_config(Isolation::kInitially));
  device.write(0, 7);
  const records::FdpCounters stats = *device.ftl->part_records().fdp;
  EXPECT_EQ(stats.invalid_placement_ids, 1u);
  EXPECT_EQ(stats.handles[0].host_pages, 1u);
}

// TP4146's Reclaim Unit Handle Update (issue 56 item 1): the handle's
// partly written blocks are sealed as full ones (cleaning may take them, no
// write goes there again), its next write opens new blocks, and the report
// counts the update, a Reclaim Unit Not Fully Written event per reclaim
// group that had data, and the media writes left unused.
TEST(FdpTest, AReclaimUnitHandleUpdateClosesTheHandlesBlocks) {
  Device device(fdp_config(Isolation::kInitially));
  const flash::Geometry& g = device.config.geometry;
  const flash::NandArray& nand = device.ftl->nand();
  const auto block_of = [&](Lpn lpn) { return g.block_of(device.ftl->locate(lpn)); };
  for (Lpn lpn = 0; lpn < 6; ++lpn) device.write(lpn, 1);
  device.write(40, 0);
  std::set<flash::BlockId> open;
  std::set<std::uint32_t> groups;
  for (Lpn lpn = 0; lpn < 6; ++lpn) open.insert(block_of(lpn));
  std::uint64_t unwritten = 0;
  for (const flash::BlockId block : open) {
    unwritten += g.pages_per_block - nand.write_pointer(block);
    groups.insert(g.plane_of_block(block) / 4);  // tiny: 4 planes a package, its group
  }
  const records::FdpCounters before = *device.ftl->part_records().fdp;
  const std::uint64_t ru = 4 * g.pages_per_block * g.page_size;
  EXPECT_EQ(before.reclaim_groups, 2u);
  EXPECT_EQ(before.reclaim_unit_nominal_size, ru);
  ASSERT_EQ(before.handle_status.size(), 4u);  // 2 handles x 2 groups
  std::uint64_t available = 0;
  for (const auto& status : before.handle_status)
    if (status.placement_id == 1) available += status.available_media_writes;
  EXPECT_EQ(available, 2 * ru - 6 * g.page_size);

  CommandList out;
  device.ftl->update_reclaim_unit_handle(1, out);
  EXPECT_TRUE(out.empty());  // no open wordline, no summary page: nothing to program
  for (const flash::BlockId block : open) EXPECT_TRUE(nand.is_full(block)) << block;
  EXPECT_FALSE(nand.is_full(block_of(40)));  // handle 0's block is left alone
  device.write(0, 1);
  EXPECT_EQ(open.count(block_of(0)), 0u);
  EXPECT_EQ(nand.placement_tag(block_of(0)), 2u);
  device.ftl->check_invariants();

  const records::FdpCounters after = *device.ftl->part_records().fdp;
  EXPECT_EQ(after.ruh_updates, 1u);
  EXPECT_EQ(after.ru_unwritten_bytes, unwritten * g.page_size);
  ASSERT_EQ(after.events.size(), 3u);
  EXPECT_EQ(after.events[0].type, 0x00u);
  EXPECT_EQ(after.events[0].name, "Reclaim Unit Not Fully Written");
  EXPECT_EQ(after.events[0].count, groups.size());
  EXPECT_EQ(after.events[1].type, 0x03u);
  EXPECT_EQ(after.events[1].count, 0u);
  EXPECT_EQ(after.events[2].type, 0x80u);
  EXPECT_EQ(after.events[2].name, "Media Reallocated");
  EXPECT_EQ(after.handles[1].blocks_opened, before.handles[1].blocks_opened + 1);
  for (Lpn lpn = 0; lpn < 6; ++lpn) {
    CommandList reads;
    device.ftl->read({lpn, 1}, reads);
    device.verifier.host_read({lpn, 1}, reads);
  }
}

// An update of a handle with nothing written closes nothing; one of an
// invalid identifier is TP4146's Invalid Placement Identifier event.
TEST(FdpTest, AnUpdateOfAnUnwrittenOrInvalidHandleMovesNothing) {
  Device device(fdp_config(Isolation::kInitially));
  device.write(0, 0);
  CommandList out;
  device.ftl->update_reclaim_unit_handle(1, out);
  device.ftl->update_reclaim_unit_handle(9, out);
  EXPECT_TRUE(out.empty());
  const records::FdpCounters stats = *device.ftl->part_records().fdp;
  EXPECT_EQ(stats.ruh_updates, 2u);
  EXPECT_EQ(stats.events[0].count, 0u);
  EXPECT_EQ(stats.events[1].count, 1u);
  EXPECT_EQ(stats.invalid_placement_ids, 1u);
  EXPECT_FALSE(device.ftl->nand().is_full(device.config.geometry.block_of(device.ftl->locate(0))));
}

// One-shot cells (wordline_pages 2 here): the closed block's open wordline
// is completed by a padding program before the rest is left unwritten, so
// that the page written before the update reaches flash.
TEST(FdpTest, AnUpdateCompletesTheOpenWordline) {
  sim::DeviceConfig config = fdp_config(Isolation::kInitially);
  config.ftl.wordline_pages = 2;
  Device device(config);
  device.write(0, 1);
  const flash::BlockId block = config.geometry.block_of(device.ftl->locate(0));
  CommandList out;
  device.ftl->update_reclaim_unit_handle(1, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].op, flash::Op::kProgram);
  EXPECT_EQ(out[0].ppn, config.geometry.first_page(block) + 1);
  EXPECT_EQ(out[0].lpn, flash::kNoLpn);
  EXPECT_TRUE(device.ftl->nand().is_full(block));
  EXPECT_EQ(device.ftl->stats().padding_pages, 1u);
  device.ftl->check_invariants();
}

TEST(FdpTest, APlacementRangeNamesTheHandleOfWritesWithoutAnId) {
  sim::DeviceConfig config = fdp_config(Isolation::kInitially);
  config.ftl.placement.ranges.push_back({0, 8 * 4096, 1});
  Device device(config);
  device.write(3, 0);
  device.write(100, 0);
  EXPECT_EQ(device.ftl->part_records().fdp->handles[1].host_pages, 1u);
  EXPECT_EQ(device.ftl->part_records().fdp->handles[0].host_pages, 1u);
}

TEST(FdpTest, PersistentIsolationNeverMixesLifetimesInitialDoes) {
  Device persistent(fdp_config(Isolation::kPersistently));
  persistent.two_lifetimes(20000, true);
  persistent.ftl->check_invariants();
  EXPECT_GT(persistent.ftl->stats().blocks_cleaned, 100u);
  EXPECT_EQ(persistent.mixed_blocks(), 0u);
  Device initially(fdp_config(Isolation::kInitially));
  initially.two_lifetimes(20000, true);
  EXPECT_GT(initially.mixed_blocks(), 0u);
  EXPECT_GT(initially.ftl->part_records().fdp->shared_cleaning_blocks, 0u);
  EXPECT_EQ(persistent.ftl->part_records().fdp->shared_cleaning_blocks, 0u);
}

TEST(FdpTest, SegregatedLifetimesCutWriteAmplification) {
  for (const char* type : {"page-mapped", "dftl"}) {
    Device with(fdp_config(Isolation::kPersistently, type)),
        without(fdp_config(Isolation::kPersistently, type));
    with.two_lifetimes(10000, true);
    without.two_lifetimes(10000, false);
    const FtlStats with_before = with.ftl->stats(), without_before = without.ftl->stats();
    with.two_lifetimes(30000, true, 5);
    without.two_lifetimes(30000, false, 5);
    EXPECT_LT(with.write_amplification_since(with_before) + 0.3,
              without.write_amplification_since(without_before))
        << type;
    with.ftl->check_invariants();
    without.ftl->check_invariants();
  }
}

// Placement on tiny in TLC cells (48-page blocks, 16 in SLC mode) with a
// dynamic SLC cache of 4 MiB that folds when full.
sim::DeviceConfig fdp_slc_config(Isolation isolation, const std::string& type = "page-mapped") {
  sim::DeviceConfig config = fdp_config(isolation, type);
  config.geometry.cell_type = flash::CellType::kTlc;
  config.geometry.pages_per_block = 48;
  config.ftl.slc_cache.mode = SlcCacheMode::kDynamic;
  config.ftl.slc_cache.size_gib = 4.0 / 1024;
  config.ftl.slc_cache.when_full = SlcWhenFull::kFold;
  config.ftl.slc_cache.bits_per_cell = 3;
  return config;
}

// An SLC cache beside placement (issue 56 item 1: FDP drives have both;
// it was refused): the cache's blocks take every handle's writes, each page
// tagged with its handle, and folding moves each page into its own handle's
// host blocks, so that no native block mixes the two lifetimes and the
// identifiers still cut write amplification.
TEST(FdpTest, AnSlcCacheFoldsEachPageIntoItsHandlesBlocks) {
  for (const char* type : {"page-mapped", "dftl"}) {
    Device with(fdp_slc_config(Isolation::kPersistently, type)),
        without(fdp_slc_config(Isolation::kPersistently, type));
    with.two_lifetimes(10000, true);
    without.two_lifetimes(10000, false);
    const FtlStats with_before = with.ftl->stats(), without_before = without.ftl->stats();
    with.two_lifetimes(30000, true, 5);
    without.two_lifetimes(30000, false, 5);
    with.ftl->check_invariants();
    const records::SlcCacheCounters slc = *with.ftl->part_records().slc_cache;
    EXPECT_GT(slc.host_pages_absorbed, 5000u) << type;
    const records::FdpCounters fdp = *with.ftl->part_records().fdp;
    EXPECT_GT(fdp.handles[0].pages_folded, 1000u) << type;
    EXPECT_GT(fdp.handles[1].pages_folded, 1000u) << type;
    EXPECT_EQ(with.mixed_blocks(), 0u) << type;
    EXPECT_GT(without.mixed_blocks(), 0u) << type;
    EXPECT_LT(with.write_amplification_since(with_before) + 0.3,
              without.write_amplification_since(without_before))
        << type;
    CommandList out;
    const PageRange all{0, static_cast<std::uint32_t>(with.ftl->logical_pages()), false, false};
    with.ftl->read(all, out);
    with.verifier.host_read(all, out);
  }
}

TEST(FdpTest, ACheckpointCarriesTheHandles) {
  for (const bool slc : {false, true}) {
    const sim::DeviceConfig config =
        slc ? fdp_slc_config(Isolation::kPersistently) : fdp_config(Isolation::kPersistently);
    Device original(config);
    original.two_lifetimes(5000, true);
    CommandList updates;
    original.ftl->update_reclaim_unit_handle(1, updates);
    ASSERT_GT(original.ftl->part_records().fdp->ru_unwritten_bytes, 0u);
    std::stringstream bytes;
    {
      StateWriter writer(&bytes);
      original.ftl->save_state(writer);
    }
    Device restored(config);
    {
      StateReader reader(bytes);
      restored.ftl->load_state(reader);
    }
    restored.ftl->check_invariants();
    EXPECT_EQ(*restored.ftl->part_records().fdp, *original.ftl->part_records().fdp);
    Rng a(9), b(9);
    const auto pages = original.ftl->logical_pages();
    for (int i = 0; i < 3000; ++i) {
      const auto handle = static_cast<std::uint8_t>(i % 3 == 0);
      CommandList out_a, out_b;
      PageRange ra{static_cast<Lpn>(a.uniform(pages)), 1},
          rb{static_cast<Lpn>(b.uniform(pages)), 1};
      ra.placement = rb.placement = handle;
      original.ftl->write(ra, out_a);
      restored.ftl->write(rb, out_b);
      ASSERT_EQ(out_a.size(), out_b.size()) << "request " << i;
      for (std::size_t c = 0; c < out_a.size(); ++c) ASSERT_EQ(out_a[c].ppn, out_b[c].ppn);
    }
    EXPECT_EQ(*restored.ftl->part_records().fdp, *original.ftl->part_records().fdp);
  }
}

}  // namespace
}  // namespace ssdlab::ftl
