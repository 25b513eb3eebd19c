// The host queue (host.queue_depth, host.scheduling): the device accepts a
// bounded number of requests, the rest wait, and the policy picks the next.
#include "sim/controller/host_queue.h"

#include <gtest/gtest.h>

#include <string>

#include "sim/results/io_csv.h"
#include "sim/results/output.h"
#include "sim/engine/simulator.h"
#include "sim/controller/ssd.h"
#include "test_support.h"
#include "workloads/plan.h"

namespace ssdlab {
namespace {

sim::QueuedRequest queued(std::uint64_t io, bool write) {
  sim::QueuedRequest request;
  request.io = io;
  request.request.mode = io_mode_of(write);
  return request;
}

TEST(HostQueue, FifoDispatchesInArrivalOrderUpToTheDepth) {
  sim::HostQueue queue(2, sim::Scheduling::kFifo);
  for (std::uint64_t io = 0; io < 4; ++io) queue.arrive(queued(io, io < 2));
  EXPECT_EQ(queue.dispatch()->io, 0u);
  EXPECT_EQ(queue.dispatch()->io, 1u);
  EXPECT_FALSE(queue.dispatch());  // two outstanding: the device is full
  queue.complete();
  EXPECT_EQ(queue.dispatch()->io, 2u);
}

TEST(HostQueue, ReadsFirstDispatchesTheOldestWaitingReadBeforeWrites) {
  sim::HostQueue queue(1, sim::Scheduling::kReadsFirst);
  queue.arrive(queued(0, true));
  queue.arrive(queued(1, true));
  queue.arrive(queued(2, false));
  queue.arrive(queued(3, false));
  EXPECT_EQ(queue.dispatch()->io, 2u);
  queue.complete();
  EXPECT_EQ(queue.dispatch()->io, 3u);
  queue.complete();
  EXPECT_EQ(queue.dispatch()->io, 0u);  // no read waits: the oldest write
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
