// The fewest-queued dispatch order (flash/scheduler_fewest_queued.cpp, formerly `fair`): a light
// flow's command is not stuck behind a heavy flow's backlog, the age bound
// serves the heavy flow anyway, and one flow is read>write>cleaning.
#include <gtest/gtest.h>

#include <map>

#include "dispatch_support.h"
#include "flash/scheduler.h"

namespace ssdlab::flash {
namespace {

using dispatch_test::order_named;
using FairRun = dispatch_test::DispatchRun;

constexpr std::uint64_t kLight = 100;  // the light flow's tags

TEST(FairDispatch, ALightFlowsCommandGoesBeforeAHeavyFlowsQueuedWrites) {
  const Geometry g = testing::small_geometry(1);
  const Timing t;
  const TimeNs write = t.page_transfer_ns(g) + t.program_ns;
  const TimeNs read = t.read_ns + t.page_transfer_ns(g);
  // The heavy flow 0: a write in service and 10 queued. The light flow 1: a
  // read, then (second case) a write, arriving behind them.
  for (const Op light : {Op::kRead, Op::kProgram}) {
    const TimeNs light_ns = light == Op::kRead ? read : write;
    for (const char* name : {"fifo", "read>write>cleaning", "fewest-queued"}) {
      FairRun run(g, order_named(name));
      for (std::uint32_t i = 0; i <= 10; ++i) run.submit(i, Op::kProgram, 0, i, i, 0);
      run.submit(kLight, light, 0, 50, 20, 1);
      run.scheduler.drain();
      const std::string order = name;
      const bool next = order == "fewest-queued" || (order != "fifo" && light == Op::kRead);
      // Taken next: right after the write in service; else after all 11.
      EXPECT_EQ(run.done.at(kLight), (next ? write : 11 * write) + light_ns) << name;
      EXPECT_EQ(run.done_before(0, 11, run.done.at(kLight)), next ? 1 : 11) << name;
    }
  }
}

TEST(FairDispatch, TheAgeBoundServesTheOldestCommandAfterAtMostTheLimitOfOthers) {
  // Die 0: the heavy flow 0's write in service, then 5 more of its writes and
  // then 50 reads of flow 1 queued. Flow 0 also has 200 writes queued on die
  // 1, so it stays the more intensive: die 0 takes flow 1's reads first, but
  // its oldest command (flow 0's next write) is passed over only
  // kFewestQueuedBypassLimit times, and so on for each of flow 0's writes.
  const Geometry g = testing::small_geometry(2);
  FairRun run(g, order_named("fewest-queued"));
  for (std::uint32_t i = 0; i < 200; ++i) run.submit(1000 + i, Op::kProgram, 1, i, 0, 0);
  for (std::uint32_t i = 0; i < 6; ++i) run.submit(i, Op::kProgram, 0, i, i, 0);
  for (std::uint32_t i = 0; i < 50; ++i) run.submit(kLight + i, Op::kRead, 0, i, 10, 1);
  run.scheduler.drain();
  const auto reads_before = [&](std::uint64_t write) {
    return run.done_before(kLight, kLight + 50, run.done.at(write));
  };
  EXPECT_EQ(reads_before(0), 0);
  EXPECT_EQ(reads_before(1), static_cast<int>(kFewestQueuedBypassLimit));
  EXPECT_EQ(reads_before(2), static_cast<int>(2 * kFewestQueuedBypassLimit));
  EXPECT_EQ(reads_before(3), static_cast<int>(3 * kFewestQueuedBypassLimit));
  EXPECT_EQ(reads_before(4), 50);  // no read was left to pass it over
  // Without the bound (read>write>cleaning) every read goes first.
  FairRun reads_first(g, order_named("read>write>cleaning"));
  for (std::uint32_t i = 0; i < 6; ++i) reads_first.submit(i, Op::kProgram, 0, i, i, 0);
  for (std::uint32_t i = 0; i < 50; ++i) reads_first.submit(kLight + i, Op::kRead, 0, i, 10, 1);
  reads_first.scheduler.drain();
  EXPECT_EQ(reads_first.done_before(kLight, kLight + 50, reads_first.done.at(1)), 50);
}

// One flow: `reads` reads behind 4 writes on one die, and a job whose
// cleaning (an erase) queues there too.
std::map<std::uint64_t, TimeNs> one_flow(const char* name, std::uint32_t reads) {
  const Geometry g = testing::small_geometry(1);
  FairRun run(g, order_named(name));
  for (std::uint32_t i = 0; i < 5; ++i) run.submit(i, Op::kProgram, 0, i, i, 3);
  CommandList cleaning{page_command(Op::kErase, 7 * g.pages_per_block, 0)};
  cleaning[0].cleaning = true;
  run.scheduler.submit(cleaning, 6, WorkClass::kHostWrite, HostWait::kNone, 50, 3);
  for (std::uint32_t i = 0; i < reads; ++i) run.submit(kLight + i, Op::kRead, 0, i, 10 + i, 3);
  run.scheduler.drain();
  std::map<std::uint64_t, TimeNs> done = run.done;
  done[50] = run.cleaned.at(50);
  return done;
}

TEST(FairDispatch, OneFlowIsReadWriteCleaningWithTheAgeBound) {
  // Within the bound: the same times as read>write>cleaning.
  EXPECT_EQ(one_flow("fewest-queued", kFewestQueuedBypassLimit),
            one_flow("read>write>cleaning", kFewestQueuedBypassLimit));
  EXPECT_NE(one_flow("fewest-queued", kFewestQueuedBypassLimit),
            one_flow("fifo", kFewestQueuedBypassLimit));
  // Past it the oldest queued write goes after kFewestQueuedBypassLimit reads.
  const auto fair = one_flow("fewest-queued", 2 * kFewestQueuedBypassLimit);
  const auto reads_first = one_flow("read>write>cleaning", 2 * kFewestQueuedBypassLimit);
  EXPECT_NE(fair, reads_first);
  auto reads_before = [](const std::map<std::uint64_t, TimeNs>& done, std::uint64_t tag) {
    int count = 0;
    for (std::uint64_t i = 0; i < 2 * kFewestQueuedBypassLimit; ++i)
      count += done.at(kLight + i) < done.at(tag) ? 1 : 0;
    return count;
  };
  EXPECT_EQ(reads_before(fair, 1), static_cast<int>(kFewestQueuedBypassLimit));
  EXPECT_EQ(reads_before(reads_first, 1), static_cast<int>(2 * kFewestQueuedBypassLimit));
}

TEST(FairDispatch, CleaningBelongsToTheFlowWhoseWriteTriggeredIt) {
  // A write of flow 0 in service, two reads of flow 0 queued, then the
  // cleaning (an erase) of a job of flow 1. The cleaning is flow 1's, the
  // less intensive flow: fair takes it before flow 0's reads, where
  // read>write>cleaning puts every cleaning command behind the host's.
  const Geometry g = testing::small_geometry(1);
  for (const char* name : {"read>write>cleaning", "fewest-queued"}) {
    FairRun run(g, order_named(name));
    run.submit(0, Op::kProgram, 0, 0, 0, 0);
    run.submit(1, Op::kRead, 0, 1, 1, 0);
    run.submit(2, Op::kRead, 0, 2, 2, 0);
    CommandList cleaning{page_command(Op::kErase, 7 * g.pages_per_block, 0)};
    cleaning[0].cleaning = true;
    run.scheduler.submit(cleaning, 3, WorkClass::kHostWrite, HostWait::kNone, 50, 1);
    run.scheduler.drain();
    const bool fair = std::string(name) == "fewest-queued";
    EXPECT_EQ(run.cleaned.at(50) < run.done.at(1), fair) << name;
    EXPECT_EQ(run.cleaned.at(50) < run.done.at(2), fair) << name;
  }
}

TEST(FairDispatch, ParsesAndPrintsFewestQueued) {
  DispatchOrder order;
  // Its former name, `fair`, still reads (configs and echoes written before).
  ASSERT_TRUE(parse_dispatch_order("fair", order));
  EXPECT_TRUE(order.fewest_queued);
  EXPECT_EQ(dispatch_order_name(order), "fewest-queued");
  ASSERT_TRUE(parse_dispatch_order("fewest-queued", order));
  EXPECT_TRUE(order.fewest_queued);
  EXPECT_FALSE(order.fifo);
  EXPECT_EQ(dispatch_order_name(order), "fewest-queued");
  ASSERT_TRUE(parse_dispatch_order("fifo", order));
  EXPECT_FALSE(order.fewest_queued);
  ASSERT_TRUE(parse_dispatch_order("write>read>cleaning", order));
  EXPECT_FALSE(order.fewest_queued);
  for (const char* bad : {"Fair", "fair>read", "fairness", "fair "})
    EXPECT_FALSE(parse_dispatch_order(bad, order)) << bad;
}

}  // namespace
}  // namespace ssdlab::flash
