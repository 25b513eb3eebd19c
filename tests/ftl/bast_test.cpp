// BAST: one log block per logical block, at most log_blocks of them; switch,
// partial and full merges each triggered by a hand-built sequence and counted
// exactly; least-recently-written eviction; trim; a verification run.
#include <gtest/gtest.h>

#include "block_ftl_support.h"

namespace ssdlab::ftl {
namespace {

using flash::Op;
using testing::BlockFtlHarness;
using testing::count_copies;
using testing::count_ops;

BlockFtlHarness bast(std::uint32_t log_blocks) {
  return BlockFtlHarness(testing::block_ftl_config("bast", log_blocks));
}

TEST(Bast, WritesGoToTheLogBlockOfTheirLogicalBlockInArrivalOrder) {
  auto h = bast(2);
  const CommandList a = h.write(h.lpn(0, 7), 1);
  const CommandList b = h.write(h.lpn(0, 2), 1);
  const CommandList c = h.write(h.lpn(1, 7), 1);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(b[0].ppn, a[0].ppn + 1);  // next page of the same log block
  EXPECT_NE(h.geometry().block_of(c[0].ppn), h.geometry().block_of(a[0].ppn));
  EXPECT_EQ(h.read(h.lpn(0, 2), 1)[0].ppn, b[0].ppn);
  EXPECT_EQ(h.stats().switch_merges + h.stats().partial_merges + h.stats().full_merges, 0u);
  h.ftl().check_invariants();
}

TEST(Bast, AWholeSequentialLogBlockBecomesTheDataBlockBySwitchMerge) {
  auto h = bast(2);
  h.write(0, 16);                          // log A holds the block in order
  const CommandList out = h.write(0, 16);  // A is full: switch merge, then log B
  EXPECT_EQ(count_copies(out), 0u);
  EXPECT_EQ(count_ops(out, Op::kErase), 0u);  // there was no older data block
  const CommandList again = h.write(0, 1);    // B full and in order: switch again
  EXPECT_EQ(count_copies(again), 0u);
  EXPECT_EQ(count_ops(again, Op::kErase), 1u);  // A, all stale now
  EXPECT_EQ(h.stats().switch_merges, 2u);
  EXPECT_EQ(h.stats().partial_merges, 0u);
  EXPECT_EQ(h.stats().full_merges, 0u);
  h.ftl().check_invariants();
}

TEST(Bast, ASequentialPrefixIsCompletedFromTheDataBlockByPartialMerge) {
  auto h = bast(2);
  h.write(0, 16);  // log A
  h.write(0, 6);   // switch: A becomes data; log B holds offsets 0-5 in order
  h.write(h.lpn(1, 0), 1);
  const CommandList out = h.write(h.lpn(2, 0), 1);  // no free log: evict B
  EXPECT_EQ(count_copies(out), 10u);                // offsets 6-15 from A
  EXPECT_EQ(count_ops(out, Op::kCopyBack), 10u);    // B is in A's plane
  EXPECT_EQ(count_ops(out, Op::kErase), 1u);        // A
  EXPECT_EQ(h.stats().switch_merges, 1u);
  EXPECT_EQ(h.stats().partial_merges, 1u);
  EXPECT_EQ(h.stats().full_merges, 0u);
  EXPECT_EQ(h.read(0, 16).size(), 16u);
  h.ftl().check_invariants();
}

TEST(Bast, AnOutOfOrderLogIsFullyMergedIntoAFreshBlock) {
  auto h = bast(2);
  h.write(0, 16);
  h.write(3, 1);  // switch merge; log B starts at offset 3: not sequential
  h.write(1, 1);
  h.write(h.lpn(1, 0), 1);
  const CommandList out = h.write(h.lpn(2, 0), 1);  // evicts B: full merge
  EXPECT_EQ(count_copies(out), 16u);                // 14 from the data block, 2 from B
  EXPECT_EQ(count_ops(out, Op::kErase), 2u);        // B and the old data block
  EXPECT_EQ(count_ops(out, Op::kProgram), 1u);      // the host page
  EXPECT_EQ(h.stats().switch_merges, 1u);
  EXPECT_EQ(h.stats().partial_merges, 0u);
  EXPECT_EQ(h.stats().full_merges, 1u);
  h.ftl().check_invariants();
}

TEST(Bast, AtMostLogBlocksAreInUseAndTheLeastRecentlyWrittenIsEvicted) {
  auto h = bast(3);
  for (std::uint32_t lbn = 0; lbn < 10; ++lbn) {
    h.write(h.lpn(lbn, 5), 1);
    ASSERT_NO_THROW(h.ftl().check_invariants()) << lbn;  // checks the bound too
  }
  EXPECT_EQ(h.stats().full_merges, 7u);  // logs of blocks 0-6 evicted
  h.write(h.lpn(7, 6), 1);               // block 7 still has its log
  EXPECT_EQ(h.stats().full_merges, 7u);
  h.write(h.lpn(10, 5), 1);  // evicts block 8's log, the least recently written
  EXPECT_EQ(h.stats().full_merges, 8u);
  h.write(h.lpn(7, 7), 1);  // so block 7's log is still there
  h.write(h.lpn(9, 7), 1);  // and block 9's
  EXPECT_EQ(h.stats().full_merges, 8u);
}

TEST(Bast, TrimmingAWholeLogicalBlockGivesBackItsLogAndDataBlocks) {
  auto h = bast(2);
  h.write(0, 16);
  h.write(2, 1);  // switch merge: data block plus a log
  const CommandList out = h.trim(0, 16);
  EXPECT_EQ(count_ops(out, Op::kErase), 2u);
  EXPECT_FALSE(h.ftl().is_mapped(2));
  EXPECT_TRUE(h.read(0, 16).empty());
  h.write(4, 1);  // the logical block starts over
  EXPECT_EQ(h.read(0, 16).size(), 1u);
  h.ftl().check_invariants();
}

TEST(BastVerification, EveryReadReturnsTheLatestWrite) {
  const FtlStats stats =
      testing::verify_block_ftl(testing::block_ftl_config("bast", 4), 5, 1500, 4);
  EXPECT_GT(stats.full_merges, 100u);
  EXPECT_GT(stats.partial_merges + stats.switch_merges, 10u);
  const FtlStats wide =
      testing::verify_block_ftl(testing::block_ftl_config("bast", 2, 2), 3, 1500, 6);
  EXPECT_GT(wide.full_merges, 50u);
}

}  // namespace
}  // namespace ssdlab::ftl
