// Cells of several bits on the flash timeline (flash/cell.h): array times by
// page type, one-shot and multi-pass programs, SLC-mode blocks, and the
// counters; an SLC device keeps its one read and program time.
#include <gtest/gtest.h>

#include "flash/cell.h"
#include "flash/nand_array.h"
#include "flash/timeline.h"

namespace ssdlab::flash {
namespace {

// One die, one plane, 4 blocks of 12 pages (4 QLC, 6 MLC or 4 TLC wordlines).
Geometry cell_geometry(CellType cell) {
  Geometry g;
  g.channels = 1;
  g.dies_per_package = 1;
  g.planes_per_die = 2;
  g.two_plane_pairs = {{0, 1}};
  g.blocks_per_plane = 4;
  g.pages_per_block = 12;
  g.cell_type = cell;
  return g;
}

Timing cell_timing(CellType cell, ProgramScheme scheme) {
  Timing t;
  t.cell = default_cell_timing(cell, scheme);
  return t;
}

Command at(Op op, Ppn ppn, Ppn src = kNoPage) { return page_command(op, ppn, 0, 0, src); }

// The array time of `command`: its unloaded time less the bus.
TimeNs array_ns(const FlashTimeline& timeline, const Timing& t, const Geometry& g,
                const Command& command) {
  const TimeNs bus = command.op == Op::kErase ? 0 : t.page_transfer_ns(g);
  return timeline.unloaded_ns(command) - bus;
}

TEST(CellTiming, TlcReadsTakeTheirPageTypesTime) {
  const Geometry g = cell_geometry(CellType::kTlc);
  const Timing t = cell_timing(CellType::kTlc, ProgramScheme::kOneShot);
  const FlashTimeline timeline(g, t);
  // Page p is of type p % 3: lower 56.5, middle 77.5, upper 106 us (FEMU).
  const TimeNs expected[] = {56'500, 77'500, 106'000, 56'500, 77'500, 106'000};
  for (Ppn ppn = 0; ppn < 6; ++ppn)
    EXPECT_EQ(array_ns(timeline, t, g, at(Op::kRead, ppn)), expected[ppn]) << ppn;
}

// A multi-plane read of pages at two offsets (Timing::independent_plane_reads)
// takes the longer of their types' array times, and counts each page's type.
TEST(CellTiming, AnIndependentPlaneReadTakesTheLongerOfItsPagesTypes) {
  const Geometry g = cell_geometry(CellType::kTlc);
  Timing t = cell_timing(CellType::kTlc, ProgramScheme::kOneShot);
  t.independent_plane_reads = true;
  FlashTimeline timeline(g, t);
  Command read = at(Op::kRead, 0);                                 // lower: 56.5 us
  read.ppn2 = static_cast<Ppn>(g.blocks_per_plane * g.pages_per_block + 2);  // upper: 106 us
  ASSERT_EQ(g.plane_of(read.ppn2), 1u);
  EXPECT_EQ(timeline.unloaded_ns(read) - 2 * t.page_transfer_ns(g), 106'000);
  timeline.schedule(read, 0);
  EXPECT_EQ(timeline.stats().page_type_reads[0], 1u);
  EXPECT_EQ(timeline.stats().page_type_reads[2], 1u);
}

TEST(CellTiming, OneShotProgramsTheWordlineAtItsLastPage) {
  const Geometry g = cell_geometry(CellType::kTlc);
  const Timing t = cell_timing(CellType::kTlc, ProgramScheme::kOneShot);
  FlashTimeline timeline(g, t);
  EXPECT_EQ(array_ns(timeline, t, g, at(Op::kProgram, 0)), 0);
  EXPECT_EQ(array_ns(timeline, t, g, at(Op::kProgram, 1)), 0);
  EXPECT_EQ(array_ns(timeline, t, g, at(Op::kProgram, 2)), 1'500'000);
  // Booked on an idle die, each program ends when unloaded_ns() says.
  TimeNs ready = 0;
  for (Ppn ppn = 0; ppn < 3; ++ppn) {
    const Command program = at(Op::kProgram, ppn);
    const TimeNs done = timeline.schedule(program, ready);
    EXPECT_EQ(done - ready, timeline.unloaded_ns(program)) << ppn;
    ready = done;
  }
  EXPECT_EQ(timeline.stats().wordline_programs, 1u);
}

TEST(CellTiming, MultiPassProgramsEachPageAtItsTypesTime) {
  const Geometry g = cell_geometry(CellType::kTlc);
  const Timing t = cell_timing(CellType::kTlc, ProgramScheme::kMultiPass);
  const FlashTimeline timeline(g, t);
  EXPECT_EQ(array_ns(timeline, t, g, at(Op::kProgram, 3)), 820'500);
  EXPECT_EQ(array_ns(timeline, t, g, at(Op::kProgram, 4)), 2'225'000);
  EXPECT_EQ(array_ns(timeline, t, g, at(Op::kProgram, 5)), 5'734'000);
}

TEST(CellTiming, QlcHasFourPageTypesAndATopPage) {
  const Geometry g = cell_geometry(CellType::kQlc);
  const Timing t = cell_timing(CellType::kQlc, ProgramScheme::kOneShot);
  const FlashTimeline timeline(g, t);
  EXPECT_EQ(timeline.page_type(7), 3u);
  EXPECT_STREQ(page_type_name(CellType::kQlc, 3), "top");
  EXPECT_EQ(array_ns(timeline, t, g, at(Op::kRead, 7)), 169'600);
  EXPECT_EQ(array_ns(timeline, t, g, at(Op::kProgram, 6)), 0);
  EXPECT_EQ(array_ns(timeline, t, g, at(Op::kProgram, 7)), 6'000'000);
  EXPECT_EQ(array_ns(timeline, t, g, at(Op::kErase, 0)), 3'000'000);
}

TEST(CellTiming, SlcModeBlocksTakeTheSlcModeTimes) {
  const Geometry g = cell_geometry(CellType::kTlc);
  Timing t = cell_timing(CellType::kTlc, ProgramScheme::kOneShot);
  t.cell.slc_erase_ns = 2'000'000;
  NandArray nand(g);
  nand.enable_slc_mode(g.bits_per_cell());
  nand.set_slc(1);
  FlashTimeline timeline(g, t);
  const Ppn slc_page = g.first_page(1) + 1, native_page = g.first_page(2) + 1;
  // Not attached: no block is in SLC mode.
  EXPECT_EQ(array_ns(timeline, t, g, at(Op::kRead, slc_page)), 77'500);
  timeline.attach(&nand);
  EXPECT_EQ(array_ns(timeline, t, g, at(Op::kRead, slc_page)), 25'000);
  EXPECT_EQ(array_ns(timeline, t, g, at(Op::kProgram, slc_page)), 250'000);
  EXPECT_EQ(array_ns(timeline, t, g, at(Op::kErase, g.first_page(1))), 2'000'000);
  EXPECT_EQ(array_ns(timeline, t, g, at(Op::kRead, native_page)), 77'500);
  // Copy-back: the read by its source, the program by its target.
  const Command fold = at(Op::kCopyBack, g.first_page(2) + 2, slc_page);
  EXPECT_EQ(timeline.unloaded_ns(fold), 25'000 + 1'500'000);
  const Command move = at(Op::kMove, g.first_page(5) + 2, slc_page);  // to the other plane
  EXPECT_EQ(timeline.unloaded_ns(move), 25'000 + 2 * t.page_transfer_ns(g) + 1'500'000);
  EXPECT_EQ(timeline.schedule(move, 0), timeline.unloaded_ns(move));
}

TEST(CellTiming, CountsReadsByPageTypeSlcModeAndWordlines) {
  const Geometry g = cell_geometry(CellType::kTlc);
  NandArray nand(g);
  nand.enable_slc_mode(g.bits_per_cell());
  nand.set_slc(1);
  FlashTimeline timeline(g, cell_timing(CellType::kTlc, ProgramScheme::kOneShot));
  timeline.attach(&nand);
  for (Ppn ppn : {0u, 1u, 2u, 5u}) timeline.schedule(at(Op::kRead, ppn), 0);
  Command two_plane = at(Op::kRead, 4);
  two_plane.ppn2 = g.first_page(4) + 4;  // block 0 of plane 1, same offset
  timeline.schedule(two_plane, 0);
  timeline.schedule(at(Op::kRead, g.first_page(1)), 0);
  for (Ppn ppn = 0; ppn < 6; ++ppn) timeline.schedule(at(Op::kProgram, g.first_page(2) + ppn), 0);
  timeline.schedule(at(Op::kProgram, g.first_page(1)), 0);
  timeline.schedule(at(Op::kCopyBack, g.first_page(3) + 2, g.first_page(1)), 0);
  const TimelineStats& s = timeline.stats();
  EXPECT_EQ(s.page_type_reads[0], 1u);
  EXPECT_EQ(s.page_type_reads[1], 3u);  // page 1, and both pages of the two-plane read
  EXPECT_EQ(s.page_type_reads[2], 2u);
  EXPECT_EQ(s.slc_mode_reads, 2u);  // a read and a copy-back's source
  EXPECT_EQ(s.slc_mode_programs, 1u);
  EXPECT_EQ(s.wordline_programs, 2u + 1u + 1u);  // two TLC wordlines, one SLC page, the fold
}

TEST(CellTiming, SlcCellsKeepTheirOneReadAndProgramTime) {
  Geometry g = cell_geometry(CellType::kSlc);
  const Timing t;  // Agrawal et al. Table 1
  const FlashTimeline timeline(g, t);
  for (Ppn ppn = 0; ppn < 3; ++ppn) {
    EXPECT_EQ(array_ns(timeline, t, g, at(Op::kRead, ppn)), t.read_ns);
    EXPECT_EQ(array_ns(timeline, t, g, at(Op::kProgram, ppn)), t.program_ns);
  }
  EXPECT_EQ(timeline.stats().wordline_programs, 0u);
}

TEST(CellType, NamesParseAndDefaults) {
  CellType cell{};
  EXPECT_TRUE(parse_cell_type("qlc", cell));
  EXPECT_EQ(cell, CellType::kQlc);
  EXPECT_FALSE(parse_cell_type("plc", cell));
  EXPECT_EQ(bits_per_cell(CellType::kMlc), 2u);
  EXPECT_STREQ(page_type_name(CellType::kMlc, 1), "upper");
  EXPECT_EQ(page_type_list(CellType::kTlc), "lower, middle, upper");
  EXPECT_EQ(default_pe_cycles(CellType::kSlc), 100000u);
  EXPECT_EQ(default_pe_cycles(CellType::kQlc), 1000u);
}

}  // namespace
}  // namespace ssdlab::flash
