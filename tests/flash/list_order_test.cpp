// The order a command list's pages are programmed in: a cleaning chain that
// erases a block and then programs it again puts the programs in a later
// stage (flash::stage_reprograms_after_erases), and merging two-plane
// programs never moves a page ahead of an earlier page of its plane
// where one-shot wordlines keep it (ftl::merge_two_plane). Either, broken,
// deadlocked one-shot wordlines' latches and left requests without a
// completion.
#include <gtest/gtest.h>

#include <vector>

#include "flash/command.h"
#include "flash/geometry.h"
#include "ftl/pools.h"

namespace ssdlab::flash {
namespace {

constexpr std::uint32_t kPagesPerBlock = 12;

Command cleaning(Op op, Ppn ppn, std::uint8_t stage, Ppn src = kNoPage) {
  Command c = page_command(op, ppn, 0, stage, src);
  c.cleaning = true;
  return c;
}

std::vector<int> stages(const CommandList& list) {
  std::vector<int> out;
  for (const Command& c : list) out.push_back(c.stage);
  return out;
}

TEST(ReprogramStages, AProgramOfABlockErasedEarlierInTheListComesAfterTheErase) {
  const Ppn block1 = kPagesPerBlock, block2 = 2 * kPagesPerBlock, block3 = 3 * kPagesPerBlock;
  CommandList list = {
      cleaning(Op::kMove, block2, 0, block1),  // victim 1's page out
      cleaning(Op::kErase, block1, 1),         // victim 1 erased
      cleaning(Op::kMove, block1, 0, block3),  // victim 3's page into block 1
      cleaning(Op::kMove, block1 + 1, 0, block3 + 1),
      cleaning(Op::kErase, block3, 1),  // victim 3 erased, after its moves
  };
  CommandList host = {page_command(Op::kProgram, 5 * kPagesPerBlock, 0)};
  list.insert(list.begin() + 2, host.front());  // a host page: its own chain, left as it is
  stage_reprograms_after_erases(list, kPagesPerBlock);
  EXPECT_EQ(stages(list), (std::vector<int>{0, 1, 0, 2, 2, 3}));
}

TEST(ReprogramStages, AProgramFollowsItsBlocksLatestEraseAndEachEraseItsBlocksMovesOut) {
  // Block 1 erased, written with block 3's data, block 3 erased, then
  // refilled from block 1, which is erased again and written once more.
  const Ppn block1 = kPagesPerBlock, block2 = 2 * kPagesPerBlock, block3 = 3 * kPagesPerBlock;
  CommandList list = {
      cleaning(Op::kMove, block2, 0, block1),     cleaning(Op::kErase, block1, 1),
      cleaning(Op::kMove, block1, 0, block3),     cleaning(Op::kErase, block3, 1),
      cleaning(Op::kMove, block3, 0, block1 + 1), cleaning(Op::kErase, block1, 1),
      cleaning(Op::kMove, block1, 0, block2 + 1),
  };
  stage_reprograms_after_erases(list, kPagesPerBlock);
  EXPECT_EQ(stages(list), (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
}

TEST(ReprogramStages, AListWithoutReprogramsIsLeftAsItIs) {
  CommandList list = {
      cleaning(Op::kMove, 2 * kPagesPerBlock, 0, kPagesPerBlock),
      cleaning(Op::kErase, kPagesPerBlock, 1),
      cleaning(Op::kMove, 2 * kPagesPerBlock + 1, 0, 3 * kPagesPerBlock),
      cleaning(Op::kErase, 3 * kPagesPerBlock, 1),
  };
  const CommandList before = list;
  stage_reprograms_after_erases(list, kPagesPerBlock);
  EXPECT_EQ(stages(list), stages(before));
}

// One die of two paired planes.
FastGeometry two_planes() {
  Geometry g;
  g.channels = 1;
  g.dies_per_package = 1;
  g.planes_per_die = 2;
  g.two_plane_pairs = {{0, 1}};
  g.blocks_per_plane = 4;
  g.pages_per_block = kPagesPerBlock;
  return FastGeometry(g);
}

// The first page of a block of `plane`.
Ppn block_on(const FastGeometry& g, std::uint32_t plane) {
  for (Ppn ppn = 0;; ppn += kPagesPerBlock)
    if (g.plane_of(ppn) == plane) return ppn;
}

// One-shot wordlines of three pages: the page before `page` in its
// wordline, kNoPage for a wordline's first.
Ppn wordline_previous(Ppn page) {
  return page % 3 == 0 ? kNoPage : page - 1;
}

TEST(TwoPlaneMerge, NeverMovesAPageAheadOfTheOneBeforeItOnItsPlane) {
  const FastGeometry g = two_planes();
  const Ppn a = block_on(g, 0), b = block_on(g, 1);
  const auto program = [](Ppn ppn) { return page_command(Op::kProgram, ppn, 0); };
  // Plane 1's page 3 may join plane 0's page 3 only behind plane 1's page 2.
  CommandList list = {program(a + 3), program(b + 2), program(b + 3)};
  ftl::merge_two_plane(g, list, 0, false, wordline_previous);
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[0].ppn2, kNoPage);
  EXPECT_EQ(list[2].ppn, b + 3);
  // With plane 1's page 2 first, the pair joins (in the first one's place).
  list = {program(b + 2), program(a + 3), program(b + 3)};
  ftl::merge_two_plane(g, list, 0, false, wordline_previous);
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[1].ppn, a + 3);
  EXPECT_EQ(list[1].ppn2, b + 3);
}

// Two wordlines begun alone (DFTL's translation pages, ahead of the list's
// part that merges) and padded after: joined, their later pages waited for
// plane 1's first page, which waited behind plane 0's staged wordline, which
// waited for them (a deadlock, docs/model.md).
TEST(TwoPlaneMerge, JoinsLaterPagesOnlyOfWordlinesBegunTogether) {
  const FastGeometry g = two_planes();
  const Ppn a = block_on(g, 0), b = block_on(g, 1);
  const auto program = [](Ppn ppn) { return page_command(Op::kProgram, ppn, 0); };
  const CommandList wordlines = {program(a),     program(b),     program(a + 1),
                                 program(b + 1), program(a + 2), program(b + 2)};
  CommandList list = wordlines;
  ftl::merge_two_plane(g, list, 2, false, wordline_previous);
  ASSERT_EQ(list.size(), 6u);
  for (const Command& c : list) EXPECT_EQ(c.ppn2, kNoPage);
  // Begun together (the first pages joined), they join page by page.
  list = wordlines;
  ftl::merge_two_plane(g, list, 0, false, wordline_previous);
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[1].ppn, a + 1);
  EXPECT_EQ(list[1].ppn2, b + 1);
  EXPECT_EQ(list[2].ppn2, b + 2);
  // Without one-shot wordlines the later pages join, as they always did.
  list = wordlines;
  ftl::merge_two_plane(g, list, 2);
  EXPECT_EQ(list.size(), 4u);
}

}  // namespace
}  // namespace ssdlab::flash
