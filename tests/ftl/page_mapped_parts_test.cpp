// Parts of the page-mapped FTL on their own. Placement
// (ftl/page_mapped/page_mapped_placement.h): planes in turn or by most free pages, one
// active block per kind of write, cleaning's moves near the victim's plane,
// and its checkpoint piece. The cleaning trigger (page_mapped_trigger.h)
// over a fake CleaningWork: how much each granularity cleans, and where.
// The open one-shot wordlines (page_mapped_wordlines.h): what is kept, what
// a cleaning-only pass takes.
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/error.h"
#include "flash/nand_array.h"
#include "ftl/page_mapped/page_mapped_placement.h"
#include "ftl/page_mapped/page_mapped_trigger.h"
#include "ftl/page_mapped/page_mapped_wordlines.h"
#include "ftl/pools.h"

namespace ssdlab::ftl::page_mapped {
namespace {

using flash::Ppn;

// One pool of 2 planes of 4 blocks of 4 pages (of SLC cells, or `cell`'s).
flash::Geometry small_geometry(flash::CellType cell = flash::CellType::kSlc) {
  flash::Geometry geometry;
  geometry.cell_type = cell;
  geometry.channels = 1;
  geometry.dies_per_package = 1;
  geometry.planes_per_die = 2;
  geometry.blocks_per_plane = 4;
  geometry.pages_per_block = 4;
  return geometry;
}

struct Device {
  explicit Device(PlaneChoice choice = PlaneChoice::kRoundRobin,
                  flash::CellType cell = flash::CellType::kSlc)
      : geometry(small_geometry(cell)),
        nand(geometry),
        layout(geometry, PoolScope::kSsd),
        placement(geometry, layout, nand, choice, geometry.pages_per_block) {}
  // Takes a page in turn and writes it, as the FTL does.
  Ppn write_in_turn(WriteKind kind) {
    placement.turn(0, kind);
    return write(placement.take_in_turn(0, kind));
  }
  Ppn write(Ppn ppn) {
    nand.program(ppn, 0);
    if (nand.is_full(geometry.block_of(ppn))) placement.closed(geometry.block_of(ppn));
    return ppn;
  }

  flash::FastGeometry geometry;
  flash::NandArray nand;
  PoolLayout layout;
  Placement placement;
};

TEST(PlacementTest, RoundRobinTakesThePoolsPlanesInTurn) {
  Device device;
  const auto& order = device.layout.planes(0);
  EXPECT_EQ(device.placement.turn(0, WriteKind::kHost), order[0]);
  EXPECT_EQ(device.geometry.plane_of(device.write_in_turn(WriteKind::kHost)), order[0]);
  EXPECT_EQ(device.placement.turn(0, WriteKind::kHost), order[1]);
  EXPECT_EQ(device.geometry.plane_of(device.write_in_turn(WriteKind::kHost)), order[1]);
  EXPECT_EQ(device.placement.pool_free_blocks(0), 6u);  // one active block per plane
}

TEST(PlacementTest, EachKindOfWriteFillsItsOwnBlock) {
  Device device;
  const Ppn host = device.write(device.placement.take_near(0, WriteKind::kHost));
  const Ppn cleaning = device.write(device.placement.take_near(0, WriteKind::kCleaning));
  const Ppn host_again = device.placement.take_near(0, WriteKind::kHost);
  EXPECT_NE(device.geometry.block_of(host), device.geometry.block_of(cleaning));
  EXPECT_EQ(host_again, host + 1);
  EXPECT_EQ(device.placement.plane_free_blocks(0), 2u);
}

TEST(PlacementTest, CleaningMovesLeaveTheVictimsPlaneOnlyWhenItIsFull) {
  Device device;
  for (int page = 0; page < 16; ++page)  // every block of plane 0
    EXPECT_EQ(
        device.geometry.plane_of(device.write(device.placement.take_near(0, WriteKind::kCleaning))),
        0u);
  EXPECT_EQ(device.placement.take_in_plane(0, WriteKind::kCleaning), flash::kNoPage);
  EXPECT_EQ(device.geometry.plane_of(device.placement.take_near(0, WriteKind::kCleaning)), 1u);
}

TEST(PlacementTest, MostFreeTurnsToThePlaneWithTheMostFreePages) {
  Device device(PlaneChoice::kMostFree);
  const auto& order = device.layout.planes(0);
  for (int page = 0; page < 2; ++page)
    device.write(device.placement.take_near(order[1], WriteKind::kHost));
  // order[0] has 16 free pages, order[1] 14: order[0] twice in a row (15 > 14).
  EXPECT_EQ(device.geometry.plane_of(device.write_in_turn(WriteKind::kHost)), order[0]);
  EXPECT_EQ(device.placement.turn(0, WriteKind::kHost), order[0]);
}

TEST(PlacementTest, ASpentSlcBudgetHasNoRoomUntilABudgetOrAnActiveBlockWithRoom) {
  Device device(PlaneChoice::kRoundRobin, flash::CellType::kMlc);  // SLC mode: 2 pages a block
  device.nand.enable_slc_mode(2);
  Placement& placement = device.placement;
  EXPECT_FALSE(placement.pool_has_room(0, WriteKind::kSlc));  // no budget, no SLC block
  placement.set_slc_budget(0, 1);
  ASSERT_TRUE(placement.pool_has_room(0, WriteKind::kSlc));
  // The one block the budget allows, written full: no room, asked twice
  // (the second answer is the first one's, kept).
  for (int page = 0; page < 2; ++page) device.write(placement.take_near(0, WriteKind::kSlc));
  EXPECT_FALSE(placement.pool_has_room(0, WriteKind::kSlc));
  EXPECT_FALSE(placement.pool_has_room(0, WriteKind::kSlc));
  placement.set_slc_budget(0, 0);  // (what the FTL sets again at each write)
  EXPECT_FALSE(placement.pool_has_room(0, WriteKind::kSlc));
  // A budget again: room; its block taken (the budget spent again), room
  // while the block has some, none once it is full.
  placement.set_slc_budget(0, 1);
  EXPECT_TRUE(placement.pool_has_room(0, WriteKind::kSlc));
  device.write(placement.take_near(1, WriteKind::kSlc));
  placement.set_slc_budget(0, 0);
  EXPECT_TRUE(placement.pool_has_room(0, WriteKind::kSlc));
  device.write(placement.take_near(1, WriteKind::kSlc));
  EXPECT_FALSE(placement.pool_has_room(0, WriteKind::kSlc));
  // A mount: clear(), then a partly written block adopted as the SLC
  // active block: room, with no budget.
  placement.clear();
  EXPECT_FALSE(placement.pool_has_room(0, WriteKind::kSlc));
  const flash::BlockId partial = 2 * device.geometry.blocks_per_plane - 1;  // plane 1's last
  device.nand.program(device.geometry.first_page(partial), 0);
  ASSERT_TRUE(placement.adopt(partial, WriteKind::kSlc));
  EXPECT_TRUE(placement.pool_has_room(0, WriteKind::kSlc));
}

TEST(PlacementTest, AFreedBlockIsTakenAfterTheOlderFreeBlocks) {
  Device device;
  const flash::BlockId first =
      device.geometry.block_of(device.write(device.placement.take_near(0, WriteKind::kHost)));
  for (int page = 1; page < 4; ++page)
    device.write(device.placement.take_near(0, WriteKind::kHost));
  for (std::uint32_t page = 0; page < 4; ++page)
    device.nand.invalidate(device.geometry.first_page(first) + page);
  device.nand.erase(first);
  device.placement.freed(first);
  for (int page = 0; page < 12; ++page)  // the other three blocks of plane 0
    EXPECT_NE(
        device.geometry.block_of(device.write(device.placement.take_near(0, WriteKind::kHost))),
        first);
  EXPECT_EQ(device.geometry.block_of(device.placement.take_near(0, WriteKind::kHost)), first);
}

TEST(PlacementTest, ACheckpointRestoresActiveBlocksFreeListsAndCursors) {
  Device device;
  for (int page = 0; page < 5; ++page) device.write_in_turn(WriteKind::kHost);
  device.write(device.placement.take_near(1, WriteKind::kCleaning));
  std::stringstream bytes;
  StateWriter out(&bytes);
  device.placement.save_state(out);
  Placement loaded(device.geometry, device.layout, device.nand, PlaneChoice::kRoundRobin,
                   device.geometry.pages_per_block);
  StateReader in(bytes);
  loaded.load_state(in);
  EXPECT_EQ(loaded.pool_free_blocks(0), device.placement.pool_free_blocks(0));
  // Both hand out the same pages from here (the NAND array is shared).
  for (int page = 0; page < 9; ++page) {
    EXPECT_EQ(loaded.turn(0, WriteKind::kHost), device.placement.turn(0, WriteKind::kHost));
    const Ppn ppn = loaded.take_in_turn(0, WriteKind::kHost);
    EXPECT_EQ(device.placement.take_in_turn(0, WriteKind::kHost), ppn);
    device.write(ppn);
    if (device.nand.is_full(device.geometry.block_of(ppn)))
      loaded.closed(device.geometry.block_of(ppn));
  }
  EXPECT_EQ(loaded.take_near(1, WriteKind::kCleaning),
            device.placement.take_near(1, WriteKind::kCleaning));
}

// Cleaning that frees one written block per victim; counts what it is asked.
class FakeWork final : public CleaningWork {
 public:
  explicit FakeWork(Device& device) : device_(device) {}
  // Writes `blocks` whole blocks of `plane` (victims for later).
  void fill(std::uint32_t plane, int blocks) {
    for (int page = 0; page < blocks * 4; ++page) {
      const Ppn ppn = device_.write(device_.placement.take_near(plane, WriteKind::kHost));
      if (page % 4 == 3) written_.push_back(device_.geometry.block_of(ppn));
    }
  }
  bool cleanable(std::uint32_t) const override { return !written_.empty(); }
  bool has_victim_in_progress(std::uint32_t) const override { return false; }
  std::uint32_t fewest_valid_pages(std::uint32_t) const override { return 0; }
  std::uint32_t waiting_erases(std::uint32_t) const override { return waiting_; }
  void clean_victim(std::uint32_t group, flash::CommandList&) override {
    victims.push_back(group);
    if (victims.size() > 1000) throw std::logic_error("cleaning never ends");
    if (defers)
      ++waiting_;
    else if (frees)
      free_one();
  }
  std::uint32_t clean_pages(std::uint32_t group, std::uint32_t budget,
                            flash::CommandList&) override {
    budgets.push_back(budget);
    victims.push_back(group);
    free_one();
    return budget;
  }
  void cleaning_done(flash::CommandList&) override {
    ++done;
    for (; waiting_ > 0; --waiting_) free_one();
  }
  std::vector<std::uint32_t> victims, budgets;
  int done = 0;         // cleaning_done() calls
  bool frees = true;    // false: each victim's moves take what it frees
  bool defers = false;  // true: a victim is erased at cleaning_done() (map units)

 private:
  void free_one() {
    const flash::BlockId block = written_.back();
    written_.pop_back();
    for (std::uint32_t page = 0; page < 4; ++page)
      device_.nand.invalidate(device_.geometry.first_page(block) + page);
    device_.nand.erase(block);
    device_.placement.freed(block);
  }
  Device& device_;
  std::vector<flash::BlockId> written_;
  std::uint32_t waiting_ = 0;
};

// A mark of half the pool's 8 blocks (4; 2 per plane), the floor at 2.
TriggerSettings settings(CleanScope scope, CleanGranularity granularity) {
  return {scope, granularity, 2, 0.5, 0};
}

TEST(CleaningTriggerTest, UntilMarkCleansBackToTheMarkOneVictimOnce) {
  for (const auto& [granularity, victims] :
       {std::pair{CleanGranularity::kUntilMark, 2u}, std::pair{CleanGranularity::kOneVictim, 1u}}) {
    Device device;
    FakeWork work(device);
    work.fill(0, 3);
    work.fill(1, 3);  // 2 free blocks: 2 below the mark, at the floor
    CleaningTrigger trigger(device.geometry, device.layout, device.placement, work,
                            settings(CleanScope::kPool, granularity), 1);
    flash::CommandList out;
    trigger.before_write(0, 0, out);
    EXPECT_EQ(work.victims.size(), victims);
    EXPECT_EQ(device.placement.pool_free_blocks(0), 2 + victims);
    EXPECT_EQ(work.done, 1);  // once for all its victims
  }
}

// With map units a cleaned victim is erased once its moves are on flash, at
// the end of the trigger's cleaning at the latest: victims waiting for that
// erase count toward the mark. (They did not: on the TLC preset at a tenth
// one write cleaned 1,704 victims, 96% valid, to get one block back.)
TEST(CleaningTriggerTest, VictimsWaitingForTheirEraseCountTowardTheMark) {
  for (const auto granularity : {CleanGranularity::kUntilMark, CleanGranularity::kOneVictim}) {
    Device device;
    FakeWork work(device);
    work.fill(0, 3);
    work.fill(1, 3);  // 2 free blocks: 2 below the mark, at the floor
    work.defers = true;
    CleaningTrigger trigger(device.geometry, device.layout, device.placement, work,
                            settings(CleanScope::kPool, granularity), 1);
    flash::CommandList out;
    trigger.before_write(0, 0, out);
    const std::size_t victims = granularity == CleanGranularity::kUntilMark ? 2 : 1;
    EXPECT_EQ(work.victims.size(), victims);
    EXPECT_EQ(work.done, 1);
    EXPECT_EQ(device.placement.pool_free_blocks(0), 2 + victims);  // erased at cleaning_done()
  }
}

TEST(CleaningTriggerTest, IncrementalCleaningMovesAtMostItsBudgetPerPage) {
  Device device;
  FakeWork work(device);
  work.fill(0, 2);
  work.fill(1, 3);  // 3 free blocks: below the mark, above the floor
  CleaningTrigger trigger(device.geometry, device.layout, device.placement, work,
                          settings(CleanScope::kPool, CleanGranularity::kIncremental), 1);
  flash::CommandList out;
  trigger.before_write(0, 0, out);
  EXPECT_EQ(work.budgets, std::vector<std::uint32_t>{2});
}

TEST(CleaningTriggerTest, ThePlaneScopeCleansThePlaneTheWriteGoesTo) {
  Device device;
  FakeWork work(device);
  work.fill(1, 3);  // plane 1: 1 free block, below its mark of 2
  CleaningTrigger trigger(device.geometry, device.layout, device.placement, work,
                          settings(CleanScope::kPlane, CleanGranularity::kUntilMark), 1);
  EXPECT_EQ(trigger.groups(), 2u);
  flash::CommandList out;
  trigger.before_write(0, 0, out);  // plane 0 has all its blocks
  EXPECT_TRUE(work.victims.empty());
  EXPECT_EQ(work.done, 0);  // nothing cleaned: nothing to end
  trigger.before_write(0, 1, out);
  EXPECT_EQ(work.victims, std::vector<std::uint32_t>{1});
  EXPECT_EQ(work.done, 1);
}

// Cleaning that frees nothing net (a victim's moves, and DFTL's translation
// pages, take the room it frees) stops with an error once it has cleaned as
// many victims as the pool has blocks, instead of running until memory ran
// out (a DFTL preset at a fortieth with map units: 17 GB, then bad_alloc).
TEST(CleaningTriggerTest, CleaningThatFreesNothingStopsWithAnError) {
  Device device;
  FakeWork work(device);
  work.fill(0, 3);
  work.fill(1, 3);  // 2 free blocks: below the mark of 4
  work.frees = false;
  CleaningTrigger trigger(device.geometry, device.layout, device.placement, work,
                          settings(CleanScope::kPool, CleanGranularity::kUntilMark), 1);
  flash::CommandList out;
  try {
    trigger.before_write(0, 0, out);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("more over-provisioning is needed"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(work.victims.size(), 8u);  // the pool's blocks, each once
}

// Three pages a wordline, two pools: a block is listed when a program leaves
// its wordline open, once however many programs follow; a cleaning-only
// pass takes cleaning's and keeps the host's, in the order they opened; an
// entry left from a block's earlier life takes the kind of its new program.
TEST(OpenWordlines, KeepsOpenBlocksOnceAndTakesCleaningsFirst) {
  OpenWordlines open(3, 8, 2);
  ASSERT_TRUE(open.on());
  flash::Command host = flash::page_command(flash::Op::kProgram, 0, 1, 2);
  flash::Command move = host;
  move.cleaning = true;
  open.programmed(5, 1, 3, host);  // a whole wordline: nothing open
  open.programmed(5, 1, 4, host);
  open.programmed(5, 1, 5, host);  // (the same block: listed once)
  open.programmed(6, 1, 1, move);
  open.programmed(7, 1, 2, move);
  std::vector<flash::BlockId> taken;
  const auto take = [&](const OpenWordlines::Open& entry) { taken.push_back(entry.block); };
  open.take(1, true, take);
  EXPECT_EQ(taken, (std::vector<flash::BlockId>{6, 7}));
  taken.clear();
  open.take(0, false, take);  // (another pool's list)
  EXPECT_TRUE(taken.empty());
  // Block 5, still listed as the host's, is erased and becomes a cleaning
  // block: its entry follows its last program.
  move.stage = 4;
  open.programmed(5, 1, 1, move);
  OpenWordlines::Open last;
  open.take(1, true, [&](const OpenWordlines::Open& entry) { last = entry; });
  EXPECT_EQ(last.block, 5u);
  EXPECT_TRUE(last.cleaning);
  EXPECT_EQ(last.stage, 4u);
  taken.clear();
  open.take(1, false, take);
  EXPECT_TRUE(taken.empty());
  EXPECT_FALSE(OpenWordlines(1, 8, 2).on());
}

// With map units (16 pages a block): an open wordline knows the blocks its
// moves came from, until its last page programs it; a host program (no
// source) adds none, and the next wordline starts a list of its own.
TEST(OpenWordlines, KnowTheBlocksTheirMovesCameFromUntilProgrammed) {
  OpenWordlines open(3, 8, 1, 16);
  flash::Command move = flash::page_command(flash::Op::kMove, 0, 1, 0, 5 * 16 + 2);
  move.cleaning = true;
  const flash::Command host = flash::page_command(flash::Op::kProgram, 0, 1, 0);
  open.programmed(2, 0, 1, move);  // block 2's first wordline, from block 5
  EXPECT_TRUE(open.holds_moves_from(0, 5));
  EXPECT_FALSE(open.holds_moves_from(0, 2));
  open.programmed(2, 0, 2, host);
  EXPECT_TRUE(open.holds_moves_from(0, 5));
  open.programmed(2, 0, 3, host);  // programmed: on flash
  EXPECT_FALSE(open.holds_moves_from(0, 5));
  move.src = 6 * 16;
  open.programmed(2, 0, 4, move);  // the next wordline: block 6 only
  EXPECT_TRUE(open.holds_moves_from(0, 6));
  EXPECT_FALSE(open.holds_moves_from(0, 5));
  open.clear();
  EXPECT_FALSE(open.holds_moves_from(0, 6));
}

}  // namespace
}  // namespace ssdlab::ftl::page_mapped
