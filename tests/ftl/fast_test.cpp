// FAST: a sequential log for runs starting at offset 0, random-write logs
// shared by all logical blocks; switch and partial merges of the sequential
// log and full merges on reclaiming a random-write log, each triggered by a
// hand-built sequence and counted exactly; trim; a verification run.
#include <gtest/gtest.h>

#include "block_ftl_support.h"

namespace ssdlab::ftl {
namespace {

using flash::Op;
using testing::BlockFtlHarness;
using testing::count_copies;
using testing::count_ops;

BlockFtlHarness fast(std::uint32_t log_blocks) {
  return BlockFtlHarness(testing::block_ftl_config("fast", log_blocks));
}

TEST(Fast, OffsetZeroStartsTheSequentialLogAndOtherWritesGoToTheSharedLog) {
  auto h = fast(1);
  const CommandList run = h.write(0, 4);
  const CommandList more = h.write(4, 2);  // in order: same sequential log
  EXPECT_EQ(more[0].ppn, run[0].ppn + 4);
  const CommandList a = h.write(h.lpn(0, 9), 1);  // out of order: random-write log
  const CommandList b = h.write(h.lpn(5, 3), 1);  // another logical block, same log
  EXPECT_NE(h.geometry().block_of(a[0].ppn), h.geometry().block_of(run[0].ppn));
  EXPECT_EQ(b[0].ppn, a[0].ppn + 1);
  EXPECT_EQ(h.stats().switch_merges + h.stats().partial_merges + h.stats().full_merges, 0u);
  h.ftl().check_invariants();
}

TEST(Fast, AWholeSequentialLogIsSwitchMerged) {
  auto h = fast(1);
  h.write(0, 16);
  EXPECT_EQ(count_copies(h.write(16, 1)), 0u);  // switch: block 0's log becomes its data block
  h.write(17, 15);
  h.write(0, 16);  // switch for block 1; block 0 rewritten in order
  const CommandList out = h.write(32, 1);
  EXPECT_EQ(count_copies(out), 0u);
  EXPECT_EQ(count_ops(out, Op::kErase), 1u);  // block 0's old data block
  EXPECT_EQ(h.stats().switch_merges, 3u);
  EXPECT_EQ(h.stats().partial_merges, 0u);
  EXPECT_EQ(h.stats().full_merges, 0u);
  h.ftl().check_invariants();
}

TEST(Fast, ASequentialPrefixIsCompletedByAPartialMerge) {
  auto h = fast(1);
  h.write(0, 16);
  h.write(16, 1);  // switch merge of block 0
  h.write(0, 6);   // block 1's one-page log: nothing to copy, a switch
  const CommandList out = h.write(32, 1);
  EXPECT_EQ(count_copies(out), 10u);          // offsets 6-15 of block 0
  EXPECT_EQ(count_ops(out, Op::kErase), 1u);  // block 0's old data block
  EXPECT_EQ(h.stats().switch_merges, 2u);
  EXPECT_EQ(h.stats().partial_merges, 1u);
  EXPECT_EQ(h.stats().full_merges, 0u);
  h.ftl().check_invariants();
}

TEST(Fast, ReclaimingTheOldestRandomLogFullyMergesEveryBlockInIt) {
  auto h = fast(1);
  h.write(0, 16);
  h.write(16, 16);
  h.write(32, 1);  // blocks 0 and 1 are data blocks; block 2 is in the sequential log
  for (std::uint32_t i = 0; i < 15; ++i) h.write(h.lpn(i % 2, 3 + i / 2), 1);
  h.write(h.lpn(2, 5), 1);  // the random-write log is now full
  EXPECT_EQ(h.stats().full_merges, 0u);
  const CommandList out = h.write(h.lpn(0, 1), 1);  // no room: reclaim it
  EXPECT_EQ(h.stats().full_merges, 3u);             // blocks 0, 1 and 2
  EXPECT_EQ(count_copies(out), 16u + 16u + 2u);
  EXPECT_EQ(h.stats().padding_pages, 4u);  // block 2's offsets 1-4 were never written
  // Old data blocks of 0 and 1, block 2's sequential log, the reclaimed log.
  EXPECT_EQ(count_ops(out, Op::kErase), 4u);
  EXPECT_EQ(h.stats().switch_merges, 2u);
  EXPECT_EQ(h.read(h.lpn(2, 0), 16).size(), 2u);
  h.ftl().check_invariants();
}

TEST(Fast, RandomWriteLogsNeverExceedLogBlocks) {
  auto h = fast(2);
  for (std::uint32_t i = 0; i < 200; ++i) {
    h.write(h.lpn((i * 7) % 40, 1 + i % 15), 1);
    ASSERT_NO_THROW(h.ftl().check_invariants()) << i;  // checks the bound too
  }
  EXPECT_GT(h.stats().full_merges, 0u);
}

TEST(Fast, TrimmingAWholeLogicalBlockGivesBackItsDataBlock) {
  auto h = fast(1);
  h.write(0, 16);
  h.write(16, 1);           // block 0: data block
  h.write(h.lpn(0, 3), 1);  // and a page in the shared log
  const CommandList out = h.trim(0, 16);
  EXPECT_EQ(count_ops(out, Op::kErase), 1u);
  EXPECT_TRUE(h.read(0, 16).empty());
  EXPECT_EQ(h.read(16, 1).size(), 1u);
  h.ftl().check_invariants();
}

TEST(FastVerification, EveryReadReturnsTheLatestWrite) {
  const FtlStats stats =
      testing::verify_block_ftl(testing::block_ftl_config("fast", 3), 5, 1500, 4);
  EXPECT_GT(stats.full_merges, 100u);
  EXPECT_GT(stats.partial_merges, 10u);
  const FtlStats wide =
      testing::verify_block_ftl(testing::block_ftl_config("fast", 2, 2), 3, 1500, 6);
  EXPECT_GT(wide.full_merges, 50u);
}

}  // namespace
}  // namespace ssdlab::ftl
