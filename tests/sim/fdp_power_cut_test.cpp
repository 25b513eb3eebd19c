// Power cuts with host-guided placement (docs/fdp.md): the page-mapped FTL
// and DFTL mount again with every partly written block given back to its
// handle from the tag its pages' OOB carries, lose no acknowledged write,
// and keep a persistently isolated handle's data apart across the mounts.
#include <gtest/gtest.h>

#include <optional>
#include <span>
#include <sstream>
#include <string>

#include "power_cut_support.h"
#include "sim/config/config.h"
#include "sim/controller/ssd.h"
#include "test_support.h"

namespace ssdlab::sim {
namespace {

using testing_power::CutTotals;
using testing_power::run_with_cuts;

// "FTL isolation", on the tiny preset with two handles: the first 2 MiB of
// the logical space on handle 1 ([[placement]]), the rest on handle 0.
class FdpCuts : public ::testing::TestWithParam<std::string> {};

TEST_P(FdpCuts, RecoversEveryAcknowledgedWriteAndEachBlocksHandle) {
  std::istringstream words(GetParam());
  std::string ftl, isolation;
  words >> ftl >> isolation;
  Ssd ssd(load_config(testing::preset("tiny"),
                      {"ftl.type=\"" + ftl + "\"", "ftl.placement=\"fdp\"", "ftl.fdp_handles=2",
                       "ftl.fdp_isolation=\"" + isolation + "\"",
                       "ftl.placement_map=[{offset=0, size=\"2MiB\", handle=1}]"}));
  ssd.enable_power_cuts();
  ssd.prefill(0, ssd.logical_bytes());
  const CutTotals totals = run_with_cuts(ssd, "RW:io_size=8192,count=6000,queue_depth=4", 40, 5);
  EXPECT_EQ(totals.cuts, 40u);
  EXPECT_EQ(totals.recovered, 40u);
  EXPECT_EQ(totals.checked, 40 * ssd.ftl().logical_pages());
  EXPECT_NO_THROW(ssd.ftl().check_invariants());
  const auto fdp = ssd.ftl().part_records().fdp;
  ASSERT_TRUE(fdp.has_value());
  EXPECT_GT(fdp->handles[1].host_pages, 0u);
  EXPECT_GT(ssd.ftl().stats().blocks_cleaned, 0u);
  if (isolation != "persistently") return;
  // Every block holds one range's data only (2 MiB = 512 logical pages).
  EXPECT_EQ(testing::blocks_mixing(ssd.ftl().nand(), ssd.config().geometry, 512), 0u);
}

// Reclaim Unit Handle Updates among the cuts (issue 56 item 1): a block an
// update closed is full on flash, so a mount seals it again rather than
// giving it back to its handle, and no acknowledged write is lost; also
// with one-shot TLC wordlines (tiny-tlc), whose open one the update completes.
TEST(FdpCutsWithUpdates, LoseNothingAndKeepClosedUnitsClosed) {
  for (const char* preset : {"tiny", "tiny-tlc"}) {
    Ssd ssd(load_config(testing::preset(preset),
                        {"ftl.placement=\"fdp\"", "ftl.fdp_handles=2",
                         "ftl.placement_map=[{offset=0, size=\"2MiB\", handle=1}]"}));
    ssd.enable_power_cuts();
    ssd.prefill(0, ssd.logical_bytes());
    const CutTotals totals =
        run_with_cuts(ssd, "RW:io_size=8192,count=6000,queue_depth=4,ruh_update_every=40", 30, 7);
    EXPECT_EQ(totals.recovered, 30u) << preset;
    EXPECT_EQ(totals.checked, 30 * ssd.ftl().logical_pages()) << preset;
    EXPECT_NO_THROW(ssd.ftl().check_invariants());
    const auto fdp = ssd.ftl().part_records().fdp;
    ASSERT_TRUE(fdp.has_value());
    EXPECT_GT(fdp->ruh_updates, 100u) << preset;
    EXPECT_GT(fdp->events[0].count, 0u) << preset;
  }
}

// Cleaning by whole reclaim units (ftl.fdp_reclaim = "unit"): a mount
// makes each block a unit of its own, and cleaning goes on by units after it.
TEST(FdpCutsByUnits, LoseNothingAndCleanByUnitsAfterTheMounts) {
  for (const char* type : {"page-mapped", "dftl"}) {
    Ssd ssd(load_config(
        testing::preset("tiny"),
        {std::string("ftl.type=\"") + type + "\"", "ftl.placement=\"fdp\"", "ftl.fdp_handles=2",
         "ftl.fdp_reclaim=\"unit\"", "ftl.placement_map=[{offset=0, size=\"2MiB\", handle=1}]"}));
    ssd.enable_power_cuts();
    ssd.prefill(0, ssd.logical_bytes());
    const CutTotals totals = run_with_cuts(ssd, "RW:io_size=8192,count=6000,queue_depth=4", 30, 11);
    EXPECT_EQ(totals.recovered, 30u) << type;
    EXPECT_EQ(totals.checked, 30 * ssd.ftl().logical_pages()) << type;
    EXPECT_NO_THROW(ssd.ftl().check_invariants());
    EXPECT_GT(ssd.ftl().part_records().fdp->reclaim_units_cleaned, 100u) << type;
  }
}

// With an SLC cache beside placement: a mount gives the cache's blocks
// back with each page's handle (the tag in its OOB area), so that folding
// after the mount still moves each page into its own handle's blocks.
TEST(FdpCutsWithAnSlcCache, LoseNothingAndKeepTheHandlesApart) {
  Ssd ssd(load_config(
      testing::preset("tiny-tlc"),
      {"ftl.placement=\"fdp\"", "ftl.fdp_handles=2", "ftl.fdp_isolation=\"persistently\"",
       "ftl.placement_map=[{offset=0, size=\"2MiB\", handle=1}]", "slc_cache.mode=\"dynamic\"",
       "slc_cache.size_gib=0.004", "slc_cache.when_full=\"fold\""}));
  ssd.enable_power_cuts();
  ssd.prefill(0, ssd.logical_bytes());
  const CutTotals totals = run_with_cuts(ssd, "RW:io_size=8192,count=6000,queue_depth=4", 30, 9);
  EXPECT_EQ(totals.recovered, 30u);
  EXPECT_EQ(totals.checked, 30 * ssd.ftl().logical_pages());
  EXPECT_NO_THROW(ssd.ftl().check_invariants());
  EXPECT_GT(ssd.ftl().part_records().slc_cache->host_pages_absorbed, 1000u);
  EXPECT_GT(ssd.ftl().part_records().fdp->handles[1].pages_folded, 0u);
  // (The cache's own blocks take both handles: blocks_mixing passes them.)
  EXPECT_EQ(testing::blocks_mixing(ssd.ftl().nand(), ssd.config().geometry, 512), 0u);
}

// Random 8 KiB writes, each with its own placement identifier from the
// source (as a trace's placement column gives it), not from the stream.
class TaggedWrites final : public IoSource {
 public:
  TaggedWrites(std::uint64_t count, std::uint64_t bytes, std::uint8_t placement)
      : left_(count), pages_(bytes / 8192), placement_(placement) {}
  std::optional<SourceIo> next() override {
    if (left_ == 0) return std::nullopt;
    --left_;
    SourceIo io;
    io.offset = (left_ * 2654435761u % pages_) * 8192;
    io.size = 8192;
    io.mode = IoMode::kWrite;
    io.placement = placement_;
    return io;
  }

 private:
  std::uint64_t left_, pages_;
  std::uint8_t placement_;
};

// A write the power cut interrupts goes again as the host sent it: with the
// placement identifier its source gave it. (They went again without it,
// to handle 0, when a completion kept only offset, size and mode.)
TEST(FdpCutsResubmit, WritesInFlightKeepTheirSourcesPlacement) {
  Ssd ssd(load_config(testing::preset("tiny"), {"ftl.placement=\"fdp\"", "ftl.fdp_handles=2"}));
  ssd.enable_power_cuts();
  Simulator simulator(ssd, nullptr);
  constexpr std::uint64_t kWrites = 6000;
  simulator.plan_power_cuts(parse_power_cuts({"random:20"}, kWrites, 3));
  TaggedWrites writes(kWrites, ssd.logical_bytes(), 1);
  const HostStream stream{&writes, 0, 0, /*slots=*/4};
  const RunGroup group{"tagged", 0, kWrites};
  simulator.run(std::span(&stream, 1), std::span(&group, 1));
  std::uint64_t resubmitted = 0;
  for (const PowerCutReport& cut : simulator.power_cuts()) {
    EXPECT_TRUE(cut.recovered());
    resubmitted += cut.requests_resubmitted;
  }
  EXPECT_GT(resubmitted, 0u);
  const auto fdp = ssd.ftl().part_records().fdp;
  ASSERT_TRUE(fdp.has_value());
  EXPECT_GT(fdp->handles[1].host_pages, 0u);
  EXPECT_EQ(fdp->handles[0].host_pages, 0u);
}

INSTANTIATE_TEST_SUITE_P(PowerCut, FdpCuts,
                         ::testing::Values("page-mapped persistently", "page-mapped initially",
                                           "dftl persistently"),
                         ssdlab::testing::WordsParamName());

}  // namespace
}  // namespace ssdlab::sim
