// The flash scheduler's queues (flash/command_queues.h, issue 58): the
// two-plane partner the index finds is the one a walk of the unit's queues
// finds (the first class that has one, in it the oldest), whatever plane of
// a pair it is on. (That its cost stays flat in the queue's length is
// measured, not tested: bench/scheduler_bench.cpp, DESIGN.md "Numbers it must
// reach".)
#include <gtest/gtest.h>

#include <map>

#include "flash/scheduler.h"
#include "flash_support.h"

namespace ssdlab::flash {
namespace {

struct Done : FlashScheduler::Listener {
  std::map<std::uint64_t, TimeNs> at;
  void host_done(std::uint64_t tag, TimeNs when) override { at[tag] = when; }
  void cleaning_done(std::uint64_t, TimeNs, TimeNs) override {}
};

struct Queued {
  explicit Queued(const Geometry& g) : geometry(g), scheduler(g, Timing{}, DispatchOrder{}) {
    scheduler.set_listener(&done);
  }
  void submit(std::uint64_t tag, Op op, Ppn ppn, WorkClass work, TimeNs now = 0) {
    CommandList list{page_command(op, ppn, 0)};
    if (const auto at = scheduler.submit(list, now, work, HostWait::kNone, tag))
      done.at[tag] = *at;
  }
  Ppn page(std::uint32_t plane, std::uint32_t block, std::uint32_t offset) const {
    return (plane * geometry.blocks_per_plane + block) * geometry.pages_per_block + offset;
  }
  Geometry geometry;
  FlashScheduler scheduler;
  Done done;
};

TEST(FlashSchedulerQueues, ThePartnerComesFromTheFirstClassThatHasOneNotTheOldestQueued) {
  const Geometry g = testing::small_geometry(1, Interleaving::kPlanes);
  Queued run(g);
  run.submit(0, Op::kProgram, run.page(0, 0, 0), WorkClass::kHostWrite);  // keeps the die busy
  run.submit(1, Op::kProgram, run.page(0, 1, 3), WorkClass::kHostWrite);  // taken next
  run.submit(2, Op::kProgram, run.page(1, 1, 3), WorkClass::kHostWrite);  // older partner
  run.submit(3, Op::kProgram, run.page(1, 2, 3), WorkClass::kHostRead);   // class 0's partner
  run.scheduler.drain();
  // Classes are searched in order (host reads first): 3 joins 1, 2 goes alone.
  EXPECT_EQ(run.done.at[3], run.done.at[1]);
  EXPECT_GT(run.done.at[2], run.done.at[1]);
  EXPECT_EQ(run.scheduler.timeline().stats().two_plane_commands, 1u);
}

TEST(FlashSchedulerQueues, OfTwoPairedPlanesTheOlderQueuedCommandJoins) {
  Geometry g = testing::small_geometry(1, Interleaving::kPlanes);
  g.planes_per_die = 4;
  g.two_plane_pairs = {{1, 0}, {1, 2}};
  for (const bool older_on_plane_2 : {true, false}) {
    Queued run(g);
    run.submit(0, Op::kRead, run.page(3, 0, 0), WorkClass::kHostRead);  // keeps the die busy
    run.submit(1, Op::kRead, run.page(1, 0, 7), WorkClass::kHostRead);  // taken next
    const std::uint32_t first = older_on_plane_2 ? 2 : 0, second = 2 - first;
    run.submit(2, Op::kRead, run.page(first, 4, 7), WorkClass::kHostRead);
    run.submit(3, Op::kRead, run.page(second, 5, 7), WorkClass::kHostRead);
    run.scheduler.drain();
    EXPECT_EQ(run.done.at[2], run.done.at[1]) << older_on_plane_2;  // the older one joins
    EXPECT_NE(run.done.at[3], run.done.at[1]) << older_on_plane_2;
    EXPECT_EQ(run.scheduler.timeline().stats().two_plane_commands, 1u);
  }
}

}  // namespace
}  // namespace ssdlab::flash
