// Placement of the page-mapped FTL on its own (ftl/page_mapped_placement.h):
// planes in turn or by most free pages, one active block per kind of write,
// cleaning's moves near the victim's plane, and its checkpoint piece.
#include "ftl/page_mapped_placement.h"

#include <gtest/gtest.h>

#include <sstream>

#include "flash/nand_array.h"
#include "ftl/pools.h"

namespace ssdlab::ftl::page_mapped {
namespace {

using flash::Ppn;

// One pool of 2 planes of 4 blocks of 4 pages.
flash::Geometry small_geometry() {
  flash::Geometry geometry;
  geometry.channels = 1;
  geometry.dies_per_package = 1;
  geometry.planes_per_die = 2;
  geometry.blocks_per_plane = 4;
  geometry.pages_per_block = 4;
  return geometry;
}

struct Device {
  explicit Device(PlaneChoice choice = PlaneChoice::kRoundRobin)
      : geometry(small_geometry()),
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

}  // namespace
}  // namespace ssdlab::ftl::page_mapped
