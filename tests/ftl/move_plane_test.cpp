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

#include "common/rng.h"
#include "ftl/ftl.h"
#include "ftl/verifier.h"
#include "sim/config/config.h"
#include "test_support.h"

namespace ssdlab {
namespace {

// tiny (a pool of 4 planes: a package) with moves through the controller
// and 128 blocks per plane. (Map units with "turn", resumed from a
// checkpoint under --verify: tests/sim/move_plane_run_test.cpp.)
sim::DeviceConfig device(const char* move_plane) {
  return sim::load_config(testing::preset("tiny"),
                          {"geometry.blocks_per_plane=128", "ftl.copy_back=false",
                           std::string("ftl.move_plane=\"") + move_plane + "\""});
}

// Where one victim's moves went: its own plane, the plane of its first
// move, and every plane its moves went to.
struct VictimMoves {
  std::uint32_t own_plane = 0, first_plane = 0;
  std::set<std::uint32_t> planes;
};

// Each victim's moves, in the order the victims were cleaned, over a fill and
// two capacities of random writes; every read checked by the verifier.
std::vector<VictimMoves> moves_per_victim(const sim::DeviceConfig& config) {
  auto ftl = ftl::make_ftl({config.geometry, config.ftl, 1});
  ftl::Verifier verifier(config.geometry, ftl->logical_pages(), config.ftl.copy_back);
  std::vector<VictimMoves> victims;
  std::map<flash::BlockId, std::size_t> index;  // a victim in its life as one
  const flash::Geometry& g = config.geometry;
  auto write = [&](ftl::Lpn lpn) {
    ftl::CommandList out;
    ftl->write({lpn, 1, false, false}, out);
    verifier.host_write({lpn, 1, false, false}, out);
    for (const flash::Command& c : out) {
      if (c.op == flash::Op::kErase) index.erase(g.block_of(c.ppn));  // its life ends
      if (!c.cleaning || c.op != flash::Op::kMove) continue;
      const auto [it, added] = index.try_emplace(g.block_of(c.src), victims.size());
      if (added) victims.push_back({g.plane_of(c.src), g.plane_of(c.ppn), {}});
      victims[it->second].planes.insert(g.plane_of(c.ppn));
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

Turns turns(const std::vector<VictimMoves>& victims) {
  Turns t;
  t.victims = victims.size();
  std::set<std::uint32_t> used;
  std::map<std::uint32_t, std::uint32_t> last_of_pool;
  for (const VictimMoves& victim : victims) {
    t.one_plane += victim.planes.size() == 1;
    used.insert(victim.first_plane);
    const std::uint32_t pool = victim.first_plane / 4;
    if (const auto last = last_of_pool.find(pool); last != last_of_pool.end()) {
      ++t.compared;
      t.same += last->second == victim.first_plane;
    }
    last_of_pool[pool] = victim.first_plane;
  }
  t.planes = used.size();
  return t;
}

TEST(MovePlane, TurnSendsEachVictimsMovesToTheNextPlaneOfItsPool) {
  // A victim's moves go to the plane of its turn (another of the pool only
  // when that one has no free block), so successive victims of a pool
  // nearly never start on the same plane; with "victim" they do whenever
  // greedy picks two victims of one plane in a row (about one time in four).
  const Turns turn = turns(moves_per_victim(device("turn")));
  const Turns victim = turns(moves_per_victim(device("victim")));
  ASSERT_GT(turn.victims, 1000u);
  EXPECT_EQ(turn.planes, 8u);  // both packages' 4 planes
  EXPECT_GT(turn.one_plane, turn.victims * 9 / 10);
  EXPECT_LT(turn.same * 20, turn.compared);
  EXPECT_GT(victim.same * 10, victim.compared);
}

TEST(MovePlane, VictimKeepsMovesInTheVictimsPlane) {
  const std::vector<VictimMoves> victims = moves_per_victim(device("victim"));
  ASSERT_GT(victims.size(), 1000u);
  // 128 blocks a plane: its own plane always has room.
  for (const VictimMoves& victim : victims)
    ASSERT_EQ(victim.planes, std::set<std::uint32_t>{victim.own_plane});
}

}  // namespace
}  // namespace ssdlab
