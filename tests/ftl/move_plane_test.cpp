// Where cleaning's moves go (ftl.move_plane; page_mapped_cleaning.cpp,
// move_target_plane()): "victim" keeps a victim's moves in its own plane
// while that plane has room; "turn" sends each victim's moves to the next
// plane of its pool, victim after victim, and loses nothing. Expectations
// come from the settings, not from recorded runs.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "cleaning_support.h"
#include "common/rng.h"
#include "ftl/ftl.h"
#include "ftl/verifier.h"
#include "sim/config/config.h"
#include "test_support.h"

namespace ssdlab {
namespace {

// tiny (a pool of 4 planes: a package) with moves through the controller
// and 128 blocks per plane. (Map units and "turn" together: the checkpoint
// test, tests/sim/checkpoint_incremental_test.cpp, and --verify there.)
sim::DeviceConfig device(const char* move_plane) {
  return sim::load_config(testing::preset("tiny"),
                          {"geometry.blocks_per_plane=128", "ftl.copy_back=false",
                           std::string("ftl.move_plane=\"") + move_plane + "\""});
}

// The plane of each victim's first move and all the planes its moves went to, in the order the
// victims were cleaned, after a fill and two capacities of random writes (every read checked by the
// verifier).
std::vector<std::pair<std::uint32_t, std::set<std::uint32_t>>> target_planes_per_victim(
    const sim::DeviceConfig& config) {
  auto ftl = ftl::make_ftl({config.geometry, config.ftl, 1});
  ftl::Verifier verifier(config.geometry, ftl->logical_pages(), config.ftl.copy_back);
  std::vector<std::pair<std::uint32_t, std::set<std::uint32_t>>>
      victims;  // first move's plane, all
  std::map<flash::BlockId, std::size_t> index;
  const flash::Geometry& g = config.geometry;
  auto write = [&](ftl::Lpn lpn) {
    ftl::CommandList out;
    ftl->write({lpn, 1, false, false}, out);
    verifier.host_write({lpn, 1, false, false}, out);
    for (const flash::Command& c : out) {
      if (c.op == flash::Op::kErase) index.erase(g.block_of(c.ppn));  // a victim's life ends
      if (!c.cleaning || c.op != flash::Op::kMove) continue;
      const flash::BlockId victim = g.block_of(c.src);
      const auto [it, added] = index.try_emplace(victim, victims.size());
      if (added) victims.emplace_back(g.plane_of(c.ppn), std::set<std::uint32_t>{});
      victims[it->second].second.insert(g.plane_of(c.ppn));
    }
  };
  for (ftl::Lpn lpn = 0; lpn < ftl->logical_pages(); ++lpn) write(lpn);
  Rng rng(5);
  for (std::uint64_t i = 0; i < 2 * ftl->logical_pages(); ++i)
    write(static_cast<ftl::Lpn>(rng.uniform(ftl->logical_pages())));
  ftl->check_invariants();
  for (ftl::Lpn lpn = 0; lpn < ftl->logical_pages(); lpn += 7) {
    ftl::CommandList out;
    ftl->read({lpn, 1, false, false}, out);
    verifier.host_read({lpn, 1, false, false}, out);
  }
  return victims;
}

// Of successive victims of one pool (a package), how often the second's
// moves start on the first's plane; and the victims' moves that went to one
// plane only, and how many victims.
struct Turns {
  std::size_t same = 0, compared = 0, one_plane = 0, victims = 0, planes = 0;
};

Turns turns(const char* move_plane) {
  const auto victims = target_planes_per_victim(device(move_plane));
  Turns t;
  t.victims = victims.size();
  std::set<std::uint32_t> used;
  std::map<std::uint32_t, std::uint32_t> last_of_pool;
  for (const auto& [first_plane, planes] : victims) {
    t.one_plane += planes.size() == 1;
    used.insert(first_plane);
    const std::uint32_t pool = first_plane / 4;
    if (const auto last = last_of_pool.find(pool); last != last_of_pool.end()) {
      ++t.compared;
      t.same += last->second == first_plane;
    }
    last_of_pool[pool] = first_plane;
  }
  t.planes = used.size();
  return t;
}

TEST(MovePlane, TurnSendsEachVictimsMovesToTheNextPlaneOfItsPool) {
  // A victim's moves go to the plane of its turn (another of the pool only
  // when that one has no free block), so successive victims of a pool
  // nearly never start on the same plane; with "victim" they do whenever
  // greedy picks two victims of one plane in a row (about one time in four).
  const Turns turn = turns("turn"), victim = turns("victim");
  ASSERT_GT(turn.victims, 1000u);
  EXPECT_EQ(turn.planes, 8u);  // both packages' 4 planes
  EXPECT_GT(turn.one_plane, turn.victims * 9 / 10);
  EXPECT_LT(turn.same * 20, turn.compared);
  EXPECT_GT(victim.same * 10, victim.compared);
}

TEST(MovePlane, VictimKeepsMovesInTheVictimsPlane) {
  const sim::DeviceConfig config = device("victim");
  auto ftl = ftl::make_ftl({config.geometry, config.ftl, 1});
  ftl::Verifier verifier(config.geometry, ftl->logical_pages(), config.ftl.copy_back);
  std::uint64_t moves = 0, same_plane = 0;
  Rng rng(5);
  for (std::uint64_t i = 0; i < 3 * ftl->logical_pages(); ++i) {
    const auto lpn =
        static_cast<ftl::Lpn>(i < ftl->logical_pages() ? i : rng.uniform(ftl->logical_pages()));
    ftl::CommandList out;
    ftl->write({lpn, 1, false, false}, out);
    verifier.host_write({lpn, 1, false, false}, out);
    for (const flash::Command& c : out)
      if (c.cleaning && c.op == flash::Op::kMove) {
        ++moves;
        same_plane += config.geometry.plane_of(c.ppn) == config.geometry.plane_of(c.src);
      }
  }
  ASSERT_GT(moves, 1000u);
  EXPECT_EQ(same_plane, moves);  // 128 blocks a plane: its own plane always has room
}

}  // namespace
}  // namespace ssdlab
