// The block-mapped FTL (Ajwani et al. §3.3.1): block map at fixed offsets,
// in-place appends, read-modify-write of the whole virtual block, one open
// block closed by a partial or switch merge, virtual blocks over channels,
// trim, and a verification run.
#include <gtest/gtest.h>

#include "block_ftl_support.h"

namespace ssdlab::ftl {
namespace {

using flash::Op;
using testing::BlockFtlHarness;
using testing::count_copies;
using testing::count_ops;

class BlockMappedTest : public ::testing::Test {
 protected:
  BlockMappedTest() : h_(testing::block_ftl_config("block-mapped")) {}
  BlockFtlHarness h_;
};

TEST_F(BlockMappedTest, ALogicalBlockLivesInOneFlashBlockAtTheSameOffsets) {
  ASSERT_EQ(h_.block_pages(), 16u);
  const CommandList out = h_.write(h_.lpn(3, 0), 16);
  ASSERT_EQ(out.size(), 16u);
  const auto block = h_.geometry().block_of(out[0].ppn);
  for (std::uint32_t i = 0; i < 16; ++i) {
    EXPECT_EQ(out[i].op, Op::kProgram);
    EXPECT_EQ(out[i].lpn, h_.lpn(3, i));
    EXPECT_EQ(h_.geometry().block_of(out[i].ppn), block);
    EXPECT_EQ(h_.geometry().page_in_block(out[i].ppn), i);
  }
  const CommandList reads = h_.read(h_.lpn(3, 0), 16);
  ASSERT_EQ(reads.size(), 16u);
  for (std::uint32_t i = 0; i < 16; ++i) EXPECT_EQ(reads[i].ppn, out[i].ppn);
  EXPECT_EQ(h_.stats().erases, 0u);
  h_.ftl().check_invariants();
}

TEST_F(BlockMappedTest, AppendingInOrderCopiesNothingAndPadsSkippedPages) {
  const CommandList first = h_.write(h_.lpn(1, 0), 4);
  h_.write(h_.lpn(1, 4), 4);
  const CommandList skip = h_.write(h_.lpn(1, 10), 1);  // pages 8 and 9 are holes
  ASSERT_EQ(skip.size(), 3u);
  EXPECT_EQ(skip[0].lpn, flash::kNoLpn);  // padding
  EXPECT_EQ(skip[1].lpn, flash::kNoLpn);
  EXPECT_EQ(skip[2].lpn, h_.lpn(1, 10));
  EXPECT_EQ(skip[2].ppn, first[0].ppn + 10);  // same flash block, offset 10
  EXPECT_EQ(h_.stats().padding_pages, 2u);
  EXPECT_EQ(h_.stats().copy_backs + h_.stats().inter_plane_moves, 0u);
  EXPECT_EQ(h_.stats().erases, 0u);
  EXPECT_TRUE(h_.read(h_.lpn(1, 8), 2).empty());  // holes read as never written
  h_.ftl().check_invariants();
}

TEST_F(BlockMappedTest, PartialOverwriteIsAReadModifyWriteOfTheWholeBlock) {
  const CommandList fill = h_.write(0, 16);
  const flash::Ppn old_block = fill[0].ppn;
  // The write: pages 0-4 copied into a fresh block of the same plane, then page 5.
  const CommandList out = h_.write(5, 1);
  ASSERT_EQ(out.size(), 6u);
  const flash::Ppn fresh = out[0].ppn;
  EXPECT_NE(h_.geometry().block_of(fresh), h_.geometry().block_of(old_block));
  for (std::uint32_t i = 0; i < 5; ++i) {
    EXPECT_EQ(out[i].op, Op::kCopyBack) << i;
    EXPECT_TRUE(out[i].cleaning);
    EXPECT_EQ(out[i].src, old_block + i);
    EXPECT_EQ(out[i].ppn, fresh + i);
  }
  EXPECT_EQ(out[5].op, Op::kProgram);
  EXPECT_FALSE(out[5].cleaning);
  EXPECT_EQ(out[5].ppn, fresh + 5);
  EXPECT_EQ(h_.stats().partial_merges, 0u);  // the block is still open
  // The next write elsewhere closes it: pages 6-15 copied, the old block erased
  // after the copies.
  const CommandList next = h_.write(h_.lpn(2, 0), 1);
  ASSERT_EQ(next.size(), 12u);
  for (std::uint32_t i = 0; i < 10; ++i) {
    EXPECT_EQ(next[i].op, Op::kCopyBack) << i;
    EXPECT_EQ(next[i].src, old_block + 6 + i);
    EXPECT_EQ(next[i].ppn, fresh + 6 + i);
  }
  EXPECT_EQ(next[10].op, Op::kErase);
  EXPECT_EQ(next[10].ppn, old_block);
  EXPECT_GT(next[10].stage, next[9].stage);
  EXPECT_EQ(next[11].op, Op::kProgram);
  EXPECT_EQ(h_.stats().copy_backs, 15u);  // the whole block but the page written
  EXPECT_EQ(h_.stats().partial_merges, 1u);
  EXPECT_EQ(h_.stats().switch_merges, 0u);
  EXPECT_EQ(h_.stats().erases, 1u);
  const CommandList reads = h_.read(0, 16);
  for (std::uint32_t i = 0; i < 16; ++i) EXPECT_EQ(reads[i].ppn, fresh + i);
  h_.ftl().check_invariants();
}

TEST_F(BlockMappedTest, RewritingAWholeBlockInOrderIsASwitchMergeWithoutCopies) {
  h_.write(0, 16);
  h_.write(0, 8);  // opens a fresh block: nothing before offset 0 to copy
  h_.write(8, 8);  // appends to the open block
  h_.write(h_.lpn(1, 0), 1);
  EXPECT_EQ(h_.stats().switch_merges, 1u);
  EXPECT_EQ(h_.stats().partial_merges, 0u);
  EXPECT_EQ(h_.stats().copy_backs + h_.stats().inter_plane_moves, 0u);
  EXPECT_EQ(h_.stats().erases, 1u);
  EXPECT_DOUBLE_EQ(h_.stats().write_amplification(), 1.0);
}

TEST_F(BlockMappedTest, PartialPageWriteReadsTheOldPageAfterTheCopies) {
  h_.write(0, 16);
  const CommandList out = h_.write(3, 1, true, false);
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(count_copies(out), 3u);
  EXPECT_EQ(out[3].op, Op::kRead);  // the old page 3, for the bytes not written
  EXPECT_EQ(out[3].stage, 0);
  EXPECT_EQ(out[4].op, Op::kProgram);
  EXPECT_EQ(out[4].stage, 1);
  EXPECT_EQ(h_.stats().rmw_pages_read, 1u);
}

TEST_F(BlockMappedTest, OverwritingTheOpenBlockClosesItFirst) {
  h_.write(0, 16);
  h_.write(10, 1);  // opens: copies 0-9
  h_.write(4, 1);   // behind the open block's write pointer: close (copy 11-15), reopen (copy 0-3)
  EXPECT_EQ(h_.stats().partial_merges, 1u);
  EXPECT_EQ(h_.stats().copy_backs, 10u + 5u + 4u);
  EXPECT_EQ(h_.stats().erases, 1u);
  h_.ftl().check_invariants();
}

TEST(BlockMappedVirtualBlocks, PagesOfAVirtualBlockStripeOverChannels) {
  BlockFtlHarness h(testing::block_ftl_config("block-mapped", 2, 2));
  ASSERT_EQ(h.block_pages(), 32u);
  const CommandList out = h.write(0, 4);
  ASSERT_EQ(out.size(), 4u);
  const auto& g = h.geometry();
  for (std::uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(g.channel_of_die(g.die_of(out[i].ppn)), i % 2) << i;
    EXPECT_EQ(g.page_in_block(out[i].ppn), i / 2) << i;
  }
  // A read-modify-write copies over both flash blocks, each page inside its
  // own plane (copy-back), and erases both flash blocks of the old block.
  h.write(0, 32);                         // rewritten whole: switch merge ...
  const CommandList rmw = h.write(9, 1);  // ... then offsets 0-8 copied
  EXPECT_EQ(count_ops(rmw, Op::kCopyBack), 9u);
  EXPECT_EQ(count_ops(rmw, Op::kErase), 2u);
  h.write(h.lpn(1, 0), 1);  // closes: offsets 10-31 copied
  EXPECT_EQ(h.stats().copy_backs, 9u + 22u);
  EXPECT_EQ(h.stats().inter_plane_moves, 0u);
  EXPECT_EQ(h.stats().erases, 4u);
  EXPECT_EQ(h.stats().switch_merges, 1u);
  EXPECT_EQ(h.stats().partial_merges, 1u);
  h.ftl().check_invariants();
}

TEST_F(BlockMappedTest, TrimmingAWholeLogicalBlockErasesIt) {
  h_.write(0, 16);
  const CommandList out = h_.trim(0, 16);
  EXPECT_EQ(count_ops(out, Op::kErase), 1u);
  EXPECT_FALSE(h_.ftl().is_mapped(0));
  EXPECT_TRUE(h_.read(0, 16).empty());
  // Part of a block: the pages are forgotten, the block stays.
  h_.write(h_.lpn(1, 0), 16);
  EXPECT_TRUE(h_.trim(h_.lpn(1, 2), 3).empty());
  EXPECT_EQ(h_.read(h_.lpn(1, 0), 16).size(), 13u);
  EXPECT_EQ(h_.stats().trimmed_pages, 19u);
  h_.ftl().check_invariants();
}

TEST(BlockMappedVerification, EveryReadReturnsTheLatestWrite) {
  const FtlStats stats =
      testing::verify_block_ftl(testing::block_ftl_config("block-mapped"), 5, 1500, 4);
  EXPECT_GT(stats.partial_merges, 100u);
  EXPECT_GT(stats.switch_merges, 0u);
  EXPECT_EQ(stats.full_merges, 0u);
  const FtlStats wide =
      testing::verify_block_ftl(testing::block_ftl_config("block-mapped", 2, 4), 3, 1500, 6);
  EXPECT_GT(wide.partial_merges, 50u);
}

}  // namespace
}  // namespace ssdlab::ftl
