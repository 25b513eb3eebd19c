// Long verification of the block-based FTLs (CTest label "long"): hundreds of
// thousands of random writes (some partial), reads, trims and sequential
// streams on the tiny device, in several configurations, invariants checked
// every round. Every read must return the latest write.
#include <gtest/gtest.h>

#include "../block_ftl_support.h"

namespace ssdlab {
namespace {

using testing::block_ftl_config;
using testing::verify_block_ftl;

TEST(LongBlockFtlVerification, BlockMapped) {
  auto stats = verify_block_ftl(block_ftl_config("block-mapped"), 20, 20000, 8);
  EXPECT_GT(stats.partial_merges, 100000u);
  auto config = block_ftl_config("block-mapped", 2, 8);  // one virtual block over all planes
  config.ftl.copy_back = false;
  config.ftl.two_plane = true;
  stats = verify_block_ftl(config, 10, 20000, 40);
  EXPECT_GT(stats.inter_plane_moves, 0u);
}

TEST(LongBlockFtlVerification, Bast) {
  auto stats = verify_block_ftl(block_ftl_config("bast", 8), 20, 20000, 8);
  EXPECT_GT(stats.full_merges, 100000u);
  EXPECT_GT(stats.partial_merges, 100u);
  auto config = block_ftl_config("bast", 1, 4);
  config.ftl.overprovisioning = 0;
  config.ftl.two_plane = true;
  stats = verify_block_ftl(config, 10, 20000, 24);
  EXPECT_GT(stats.switch_merges, 100u);
}

TEST(LongBlockFtlVerification, Fast) {
  auto stats = verify_block_ftl(block_ftl_config("fast", 8), 20, 20000, 8);
  EXPECT_GT(stats.full_merges, 100000u);
  EXPECT_GT(stats.partial_merges, 100u);
  auto config = block_ftl_config("fast", 1, 2);
  config.ftl.copy_back = false;
  config.ftl.overprovisioning = 0;
  stats = verify_block_ftl(config, 10, 20000, 16);
  EXPECT_GT(stats.switch_merges, 100u);
}

}  // namespace
}  // namespace ssdlab

namespace ssdlab {
namespace {

// The presets themselves: 256 MiB devices with striped virtual blocks.
TEST(LongBlockFtlVerification, Presets) {
  for (const char* preset : {"usb-stick", "bast-ssd", "fast-ssd"}) {
    const auto stats = testing::verify_block_ftl(testing::load_preset(preset), 4, 25000, 16);
    EXPECT_GT(stats.erases, 10000u) << preset;
  }
}

}  // namespace
}  // namespace ssdlab
