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
  // Blocks holding valid pages of both the hot range and the cold one.
  std::uint32_t mixed_blocks() const {
    const flash::NandArray& nand = ftl->nand();
    const Lpn hot = static_cast<Lpn>(ftl->logical_pages() / 8);
    std::uint32_t mixed = 0;
    for (flash::BlockId block = 0; block < config.geometry.blocks(); ++block) {
      std::set<bool> kinds;
      for (std::uint32_t page = 0; page < config.geometry.pages_per_block; ++page) {
        const flash::Ppn ppn = config.geometry.first_page(block) + page;
        if (nand.is_valid(ppn)) kinds.insert(nand.lpn_at(ppn) < hot);
      }
      mixed += kinds.size() == 2 ? 1 : 0;
    }
    return mixed;
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
  const records::FdpCounters stats = *device.ftl->fdp_stats();
  EXPECT_EQ(stats.handles[0].host_pages, 1u);
  EXPECT_EQ(stats.handles[1].host_pages, 1u);
  EXPECT_EQ(stats.handle_changes, 1u);
}

TEST(FdpTest, AnIdPastTheLastHandleIsHandleZeroAndCounted) {
  Device device(fdp_config(Isolation::kInitially));
  device.write(0, 7);
  const records::FdpCounters stats = *device.ftl->fdp_stats();
  EXPECT_EQ(stats.invalid_placement_ids, 1u);
  EXPECT_EQ(stats.handles[0].host_pages, 1u);
}

TEST(FdpTest, APlacementRangeNamesTheHandleOfWritesWithoutAnId) {
  sim::DeviceConfig config = fdp_config(Isolation::kInitially);
  config.ftl.placement.ranges.push_back({0, 8 * 4096, 1});
  Device device(config);
  device.write(3, 0);
  device.write(100, 0);
  EXPECT_EQ(device.ftl->fdp_stats()->handles[1].host_pages, 1u);
  EXPECT_EQ(device.ftl->fdp_stats()->handles[0].host_pages, 1u);
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
  EXPECT_GT(initially.ftl->fdp_stats()->shared_cleaning_blocks, 0u);
  EXPECT_EQ(persistent.ftl->fdp_stats()->shared_cleaning_blocks, 0u);
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

TEST(FdpTest, ACheckpointCarriesTheHandles) {
  const sim::DeviceConfig config = fdp_config(Isolation::kPersistently);
  Device original(config);
  original.two_lifetimes(5000, true);
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
  EXPECT_EQ(*restored.ftl->fdp_stats(), *original.ftl->fdp_stats());
  Rng a(9), b(9);
  const auto pages = original.ftl->logical_pages();
  for (int i = 0; i < 3000; ++i) {
    const auto handle = static_cast<std::uint8_t>(i % 3 == 0);
    CommandList out_a, out_b;
    PageRange ra{static_cast<Lpn>(a.uniform(pages)), 1}, rb{static_cast<Lpn>(b.uniform(pages)), 1};
    ra.placement = rb.placement = handle;
    original.ftl->write(ra, out_a);
    restored.ftl->write(rb, out_b);
    ASSERT_EQ(out_a.size(), out_b.size()) << "request " << i;
    for (std::size_t c = 0; c < out_a.size(); ++c) ASSERT_EQ(out_a[c].ppn, out_b[c].ppn);
  }
  EXPECT_EQ(*restored.ftl->fdp_stats(), *original.ftl->fdp_stats());
}

}  // namespace
}  // namespace ssdlab::ftl
