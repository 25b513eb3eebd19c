// The host queue (host.queue_depth, host.scheduling): the device accepts a
// bounded number of requests, the rest wait, and the policy picks the next.
#include "sim/controller/host_queue.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/controller/ssd.h"
#include "sim/engine/simulator.h"
#include "sim/results/io_csv.h"
#include "sim/results/output.h"
#include "test_support.h"
#include "workloads/plan.h"

namespace ssdlab {
namespace {

sim::QueuedRequest queued(std::uint64_t io, bool write, std::uint16_t queue = 0) {
  sim::QueuedRequest request;
  request.io = io;
  request.request.mode = io_mode_of(write);
  request.queue = queue;
  return request;
}

sim::ControllerConfig one_queue(std::uint32_t depth, sim::Scheduling policy) {
  sim::ControllerConfig config;
  config.queue_depth = depth;
  config.scheduling = policy;
  return config;
}

// `depths.size()` submission queues on a device with `slots` command slots.
sim::ControllerConfig queues(std::uint32_t slots, std::vector<std::uint32_t> depths,
                             sim::Arbitration arbitration = sim::Arbitration::kRoundRobin,
                             std::uint32_t burst = 1) {
  sim::ControllerConfig config;
  config.queue_depth = slots;
  for (const auto depth : depths) config.host_queues.queues.push_back({depth});
  config.host_queues.arbitration = arbitration;
  config.host_queues.burst = burst;
  return config;
}

// The queues the next `n` dispatches come from, each completed at once.
std::string order_of(sim::HostQueue& queue, int n) {
  std::string order;
  for (int k = 0; k < n; ++k) {
    const auto request = queue.dispatch();
    if (!request) return order + ".";
    order += static_cast<char>('0' + request->queue);
    queue.complete(request->queue);
  }
  return order;
}

TEST(HostQueue, FifoDispatchesInArrivalOrderUpToTheDepth) {
  sim::HostQueue queue(one_queue(2, sim::Scheduling::kFifo));
  for (std::uint64_t io = 0; io < 4; ++io) queue.arrive(queued(io, io < 2));
  EXPECT_EQ(queue.dispatch()->io, 0u);
  EXPECT_EQ(queue.dispatch()->io, 1u);
  EXPECT_FALSE(queue.dispatch());  // two outstanding: the device is full
  queue.complete(0);
  EXPECT_EQ(queue.dispatch()->io, 2u);
}

TEST(HostQueue, ReadsFirstDispatchesTheOldestWaitingReadBeforeWrites) {
  sim::HostQueue queue(one_queue(1, sim::Scheduling::kReadsFirst));
  queue.arrive(queued(0, true));
  queue.arrive(queued(1, true));
  queue.arrive(queued(2, false));
  queue.arrive(queued(3, false));
  EXPECT_EQ(queue.dispatch()->io, 2u);
  queue.complete(0);
  EXPECT_EQ(queue.dispatch()->io, 3u);
  queue.complete(0);
  EXPECT_EQ(queue.dispatch()->io, 0u);  // no read waits: the oldest write
}

TEST(HostQueue, OneQueueWithoutBoundsIsUnlimitedAsBefore) {
  EXPECT_TRUE(sim::HostQueue(one_queue(0, sim::Scheduling::kFifo)).unlimited());
  EXPECT_FALSE(sim::HostQueue(one_queue(4, sim::Scheduling::kFifo)).unlimited());
  EXPECT_FALSE(sim::HostQueue(queues(0, {0, 0})).unlimited());
  EXPECT_FALSE(sim::HostQueue(queues(0, {8})).unlimited());
}

TEST(HostQueue, RoundRobinTakesTheQueuesInTurnSkippingEmptyOnes) {
  sim::HostQueue queue(queues(1, {0, 0, 0}));
  for (std::uint64_t io = 0; io < 4; ++io) {
    queue.arrive(queued(io, false, 0));
    queue.arrive(queued(10 + io, false, 2));
  }
  EXPECT_EQ(order_of(queue, 9), "02020202.");
}

TEST(HostQueue, ABurstTakesUpToItsSizeFromOneQueuePerTurn) {
  sim::HostQueue queue(queues(1, {0, 0}, sim::Arbitration::kRoundRobin, 3));
  for (std::uint64_t io = 0; io < 5; ++io) {
    queue.arrive(queued(io, false, 0));
    queue.arrive(queued(10 + io, false, 1));
  }
  EXPECT_EQ(order_of(queue, 10), "0001110011");
}

TEST(HostQueue, AQueuesDepthBoundsItsOutstandingRequests) {
  sim::HostQueue queue(queues(0, {2, 0}));
  for (std::uint64_t io = 0; io < 3; ++io) queue.arrive(queued(io, false, 0));
  EXPECT_EQ(queue.dispatch()->io, 0u);
  EXPECT_EQ(queue.dispatch()->io, 1u);
  EXPECT_FALSE(queue.dispatch());  // queue 0 has two outstanding
  queue.arrive(queued(7, false, 1));
  EXPECT_EQ(queue.dispatch()->io, 7u);  // the other queue is not held up
  queue.complete(0);
  EXPECT_EQ(queue.dispatch()->io, 2u);
  EXPECT_EQ(queue.waiting(), 0u);
}

TEST(HostQueue, WeightedServesUrgentFirstThenClassesByWeight) {
  auto config = queues(1, {0, 0, 0, 0}, sim::Arbitration::kWeighted);
  config.host_queues.queues[0].priority = sim::QueuePriority::kUrgent;
  config.host_queues.queues[1].priority = sim::QueuePriority::kHigh;
  config.host_queues.queues[2].priority = sim::QueuePriority::kMedium;
  config.host_queues.queues[3].priority = sim::QueuePriority::kLow;
  config.host_queues.weight_high = 3;
  config.host_queues.weight_medium = 2;
  config.host_queues.weight_low = 1;
  sim::HostQueue queue(config);
  for (std::uint64_t io = 0; io < 12; ++io)
    for (std::uint16_t q = 1; q < 4; ++q) queue.arrive(queued(io, false, q));
  queue.arrive(queued(99, false, 0));
  queue.arrive(queued(98, false, 0));
  // Urgent first, then rounds of 3 high, 2 medium, 1 low.
  EXPECT_EQ(order_of(queue, 14), "00111223111223");
}

TEST(HostQueue, WeightedRoundsSkipClassesWithNothingWaiting) {
  auto config = queues(1, {0, 0}, sim::Arbitration::kWeighted);
  config.host_queues.queues[0].priority = sim::QueuePriority::kHigh;
  config.host_queues.queues[1].priority = sim::QueuePriority::kLow;
  config.host_queues.weight_high = 4;
  sim::HostQueue queue(config);
  for (std::uint64_t io = 0; io < 6; ++io) queue.arrive(queued(io, false, 1));
  EXPECT_EQ(order_of(queue, 3), "111");  // the high class has credit but nothing waits
}

struct ModeMeans {
  double read_us = 0, write_us = 0;
  sim::RunResult result;
};

// Four processes of a 1:1 random read/write mix on a device that accepts
// `depth` requests at a time; mean response times by mode from io.csv.
ModeMeans run_mix(std::uint32_t depth, sim::Scheduling policy, const std::string& name) {
  auto config = testing::load_preset("tiny");
  config.controller.queue_depth = depth;
  config.controller.scheduling = policy;
  sim::Ssd ssd(config, {.verify = true});
  ssd.prefill(0, ssd.logical_bytes());
  const auto dir = testing::temp_dir("host-queue-" + name);
  ModeMeans means;
  {
    sim::IoLog log(dir / "io.csv");
    sim::Simulator simulator(ssd, &log);
    means.result = simulator.run(
        workloads::parse_inline("RR:count=1500,processes=4,mix_pattern=RW,mix_ratio=1")
            .experiments.front(),
        0, 1);
    log.commit();
  }
  sim::IoCsvReader reader(dir / "io.csv");
  sim::IoRow row;
  double sums[2] = {0, 0};
  std::uint64_t counts[2] = {0, 0};
  while (reader.next(row)) {
    sums[row.is_write()] += static_cast<double>(row.response_ns) / 1000.0;
    ++counts[row.is_write()];
  }
  means.read_us = sums[0] / static_cast<double>(counts[0]);
  means.write_us = sums[1] / static_cast<double>(counts[1]);
  return means;
}

TEST(HostQueueSimulation, ReadsFirstShortensReadsBehindABacklogOfWrites) {
  const auto fifo = run_mix(1, sim::Scheduling::kFifo, "fifo");
  const auto reads_first = run_mix(1, sim::Scheduling::kReadsFirst, "reads-first");
  EXPECT_LT(reads_first.read_us * 1.2, fifo.read_us);
  EXPECT_GT(reads_first.write_us, fifo.write_us);
  EXPECT_EQ(reads_first.result.stats.count, fifo.result.stats.count);
}

TEST(HostQueueSimulation, ADeviceQueueOfOneSerializesWhatUnlimitedRunsInParallel) {
  const auto one = run_mix(1, sim::Scheduling::kFifo, "one");
  const auto unlimited = run_mix(0, sim::Scheduling::kFifo, "unlimited");
  // Queueing in the host adds its wait to every response time.
  EXPECT_GT(one.result.stats.mean_ns, unlimited.result.stats.mean_ns);
  EXPECT_LT(one.result.stats.iops, unlimited.result.stats.iops);
}

}  // namespace
}  // namespace ssdlab
