// The FLIN dispatch order (flash/flin.h, flash/scheduler_flin.cpp): stage 1's
// insertion and reordering, stage 2's priority classes, stage 3's
// proportional waits, and FLIN through the scheduler against the other orders.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "dispatch_support.h"
#include "flash/flin.h"
#include "flash/scheduler.h"
#include "flash_support.h"

namespace ssdlab::flash {
namespace {

constexpr std::uint32_t kRead = 0, kWrite = 1;
constexpr TimeNs kWriteNs = 300'000;  // a command's service time in the queue tests

// One unit's FLIN queues, with nodes numbered in arrival order.
struct Queues {
  explicit Queues(FlinSettings settings = {}) : flin(1, settings) {}
  // A command of `flow` arrives at `now` and is queued (the unit idle).
  std::uint32_t add(std::uint16_t flow, TimeNs now, std::uint32_t work = kWrite) {
    flin.arrive(0, work, flow, now);
    flin.insert(0, work, next, flow, now, kWriteNs, {});
    return next++;
  }
  // The nodes in the order the unit's slot gives them (emptying the queue).
  std::vector<std::uint32_t> drain(std::uint32_t work = kWrite) {
    std::vector<std::uint32_t> order;
    for (std::uint32_t node; (node = flin.slot(0, work)) != FlinQueues::kNil;) {
      order.push_back(node);
      flin.take_slot(0, work, 0);
    }
    return order;
  }
  FlinQueues flin;
  std::uint32_t next = 0;
};

// Settings where a flow is high-intensity for writes from `writes` per unit
// per 1 ms epoch.
FlinSettings threshold_of(std::uint32_t writes, double fairness = 0.6) {
  FlinSettings s;
  s.epoch_ns = 1'000'000;
  s.alpha_write = writes;
  s.fairness_threshold = fairness;
  return s;
}

TEST(FlinQueuesTest, OneFlowIsFirstComeFirstServed) {
  Queues q(threshold_of(2));
  for (TimeNs t = 0; t < 3'000'000; t += 100'000) q.add(0, t);
  std::vector<std::uint32_t> expected(q.next);
  for (std::uint32_t i = 0; i < q.next; ++i) expected[i] = i;
  EXPECT_EQ(q.drain(), expected);
}

TEST(FlinQueuesTest, ALowIntensityFlowGoesAheadOfTheHighIntensityPart) {
  Queues q(threshold_of(2));
  // Epoch 0: flow 0 sends 5 writes (all flows are low in the first epoch).
  for (TimeNs t = 0; t < 5; ++t) q.add(0, t);
  // Epoch 1: flow 0 is high (5 >= 2), flow 1 low (nothing in epoch 0).
  const std::uint32_t light = q.add(1, 1'000'000);
  EXPECT_EQ(q.flin.slot(0, kWrite), light);
  EXPECT_EQ(q.flin.counters().low_insertions, 1u);
  // Flow 0's own writes keep their order behind it.
  EXPECT_EQ(q.drain(), (std::vector<std::uint32_t>{light, 0, 1, 2, 3, 4}));
}

TEST(FlinQueuesTest, TheSlowestFlowMovesForwardUnderTheFairnessThreshold) {
  // Epoch 0: flows 0 and 1 both high for epoch 1 (3 writes each, threshold 2).
  for (const double threshold : {0.6, 0.0}) {
    Queues q(threshold_of(2, threshold));
    for (TimeNs t = 0; t < 3; ++t) q.add(0, t), q.add(1, t);
    q.drain();
    const FlinQueues::Counters before = q.flin.counters();
    // Epoch 1: flow 0 queues 10 writes, then flow 1 one: waiting behind ten,
    // flow 1's mean slowdown is ~11 against flow 0's ~1.
    for (TimeNs t = 0; t < 10; ++t) q.add(0, 1'000'000 + t);
    const std::uint32_t slow = q.add(1, 1'000'010);
    const std::uint32_t later = q.add(0, 1'000'020);
    const std::vector<std::uint32_t> order = q.drain();
    const auto at = std::find(order.begin(), order.end(), slow) - order.begin();
    if (threshold > 0) {
      // F = ~1/11 < 0.6: MoveForward, past every command of flow 0 queued.
      EXPECT_EQ(at, 0);
      EXPECT_EQ(q.flin.counters().moved_forward - before.moved_forward, 1u);
      EXPECT_EQ(q.flin.counters().reordered - before.reordered, 0u);
    } else {
      // F_thr 0: never under it; ReorderForFairness moves it to where
      // min/max slowdown is greatest, near the head (~0.5 there, against
      // ~1/11 at the tail), without a mark.
      EXPECT_LE(at, 1);
      EXPECT_EQ(q.flin.counters().moved_forward - before.moved_forward, 0u);
      EXPECT_EQ(q.flin.counters().reordered - before.reordered, 1u);
    }
    // Flow 0's later write does not pass its own earlier ones.
    EXPECT_EQ(order.back(), later) << threshold;
  }
}

TEST(FlinQueuesTest, NoCommandPassesOneMovedForward) {
  Queues q(threshold_of(2, 0.6));
  for (TimeNs t = 0; t < 3; ++t) q.add(0, t), q.add(1, t), q.add(2, t);
  q.drain();
  const std::uint64_t before = q.flin.counters().moved_forward;
  // Epoch 1: flow 0 queues 10, flow 1 moves forward (marked) to the head.
  for (TimeNs t = 0; t < 10; ++t) q.add(0, 1'000'000 + t);
  const std::uint32_t marked = q.add(1, 1'000'010);
  ASSERT_EQ(q.flin.counters().moved_forward - before, 1u);
  // Flow 2's command, the slowest then, moves forward too, but no
  // high-intensity command passes a marked one: it stops behind it.
  const std::uint32_t third = q.add(2, 1'000'020);
  const std::vector<std::uint32_t> order = q.drain();
  ASSERT_GE(order.size(), 2u);
  EXPECT_EQ(order[0], marked);
  EXPECT_EQ(order[1], third);
}

TEST(FlinQueuesTest, EveryFlowsCommandsKeepTheirOrder) {
  // Random arrivals of four flows over several epochs, with takes between:
  // FLIN reorders flows against each other, never a flow against itself.
  std::mt19937_64 random(7);
  Queues q(threshold_of(3, 0.6));
  std::map<std::uint32_t, std::uint16_t> flow_of;
  std::vector<std::uint32_t> taken;
  TimeNs now = 0;
  for (int i = 0; i < 3000; ++i) {
    now += random() % 40'000;
    const auto flow = static_cast<std::uint16_t>(random() % 4 == 0 ? random() % 4 : 0);
    flow_of[q.add(flow, now)] = flow;
    if (random() % 3 == 0 && q.flin.slot(0, kWrite) != FlinQueues::kNil) {
      taken.push_back(q.flin.slot(0, kWrite));
      q.flin.take_slot(0, kWrite, now);
    }
  }
  for (const std::uint32_t node : q.drain()) taken.push_back(node);
  ASSERT_EQ(taken.size(), flow_of.size());
  std::map<std::uint16_t, std::uint32_t> last;
  bool reordered_flows = false;
  for (std::size_t i = 0; i < taken.size(); ++i) {
    const std::uint16_t flow = flow_of.at(taken[i]);
    if (last.count(flow)) {
      EXPECT_LT(last[flow], taken[i]) << "flow " << flow;
    }
    last[flow] = taken[i];
    reordered_flows |= i > 0 && taken[i] < taken[i - 1];
  }
  EXPECT_TRUE(reordered_flows);  // (the check above is not empty)
}

TEST(FlinQueuesTest, UrgentFirstThenTheWeightsOfTheOtherClasses) {
  Queues q;
  // Flows 0 (high), 1 (low), 2 (urgent); weights high 2, medium 1, low 1.
  q.flin.set_priorities({1, 3, 0}, {2, 1, 1});
  std::map<std::uint32_t, std::uint16_t> flow_of;
  for (TimeNs t = 0; t < 6; ++t) flow_of[q.add(0, t, kRead)] = 0, flow_of[q.add(1, t, kRead)] = 1;
  flow_of[q.add(2, 10, kRead)] = 2;
  std::string flows;
  for (const std::uint32_t node : q.drain(kRead)) flows += static_cast<char>('0' + flow_of[node]);
  EXPECT_EQ(flows, "2001001001111");
}

using dispatch_test::order_named;
using Scheduled = dispatch_test::DispatchRun;

TEST(FlinDispatch, ProportionalWaitChoosesBetweenTheReadAndTheWriteSlot) {
  // One flow, one die: an erase (1.5 ms) in service from 0, a write queued at
  // 0 and a read at `read_at`. At 1.5 ms the write has waited 1.5 ms for its
  // ~305 µs, the read (1.5 ms - read_at) for its ~130 µs: the greater
  // proportional wait goes first. Reads first takes the read either way.
  const Geometry g = testing::small_geometry(1);
  for (const TimeNs read_at : {TimeNs{1'400'000}, TimeNs{200'000}}) {
    for (const char* name : {"flin", "read>write>cleaning"}) {
      Scheduled run(g, order_named(name));
      run.submit(0, Op::kErase, 0, 0, 0, 0);
      run.submit(1, Op::kProgram, 0, 1, 0, 0);
      run.submit(2, Op::kRead, 0, 2, read_at, 0);
      run.scheduler.drain();
      const bool write_first = std::string(name) == "flin" && read_at == 1'400'000;
      EXPECT_EQ(run.done.at(1) < run.done.at(2), write_first) << name << " " << read_at;
    }
  }
}

TEST(FlinDispatch, AWritesProportionalWaitCountsFromItsSlotNotItsArrival) {
  // One flow, one die: an erase in service until 1.5 ms, three writes queued
  // at 0. At 1.5 ms the first write goes (~305.6 us); a read comes at 1.65
  // ms. When the die frees, the next write has held its slot since 1.5 ms
  // (proportional wait ~1.0), the read has waited ~0.156 ms for its ~130.6
  // us (~1.19): the read goes first. Counted from its arrival at 0 the
  // write's would be ~5.9, and it would go first.
  const Geometry g = testing::small_geometry(1);
  Scheduled run(g, order_named("flin"));
  run.submit(0, Op::kErase, 0, 0, 0, 0);
  for (std::uint64_t w = 1; w <= 3; ++w)
    run.submit(w, Op::kProgram, 0, static_cast<std::uint32_t>(w), 0, 0);
  run.submit(10, Op::kRead, 0, 20, 1'650'000, 0);
  run.scheduler.drain();
  EXPECT_LT(run.done.at(1), run.done.at(10));
  EXPECT_LT(run.done.at(10), run.done.at(2));
}

TEST(FlinDispatch, ALightWriterIsNotStuckBehindAHeavyWritersBacklog) {
  // The heavy flow 0 sends 8 writes per ms to one die for 3 ms; the light
  // flow 1 one write per ms. FLIN (epoch 1 ms, high from 2 writes per epoch)
  // queues the light writes ahead of the heavy backlog; FIFO does not.
  const Geometry g = testing::small_geometry(1);
  std::map<std::string, TimeNs> light_wait;
  for (const char* name : {"fifo", "fewest-queued", "flin"}) {
    DispatchOrder order = order_named(name);
    order.flin_settings = threshold_of(2);
    Scheduled run(g, order);
    std::uint64_t tag = 0;
    TimeNs total = 0;
    for (TimeNs ms = 0; ms < 3; ++ms) {
      for (std::uint32_t i = 0; i < 8; ++i, ++tag)
        run.submit(tag, Op::kProgram, 0, static_cast<std::uint32_t>(tag + 1), ms * 1'000'000 + i,
                   0);
      run.submit(1000 + ms, Op::kProgram, 0, 100 + static_cast<std::uint32_t>(ms),
                 ms * 1'000'000 + 500, 1);
    }
    run.scheduler.drain();
    for (TimeNs ms = 0; ms < 3; ++ms) total += run.done.at(1000 + ms) - (ms * 1'000'000 + 500);
    light_wait[name] = total / 3;
  }
  // (In the first epoch every flow is low-intensity, but flow 0's backlog
  // queued while it was the only flow is in the high part: the light
  // writes go ahead of it from the start.)
  EXPECT_LT(light_wait["flin"], light_wait["fifo"] / 2);
  EXPECT_GT(light_wait["fifo"], 0);
}

}  // namespace
}  // namespace ssdlab::flash
