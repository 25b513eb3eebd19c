// I/O sources that read ahead for peek() (sim/engine/read_ahead.h): a plan's
// process (sim/engine/plan_process.h) and a trace (sim/engine/replay.h).
// Reading ahead must not change the I/Os next() returns, their count, nor
// what a trace source counts.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/engine/plan_process.h"
#include "sim/engine/replay.h"
#include "trace_support.h"
#include "workloads/plan.h"

namespace ssdlab::sim {
namespace {

constexpr std::uint64_t kDevice = std::uint64_t{1} << 30;

workloads::ExperimentSpec spec_of(const std::string& text) {
  return workloads::parse_inline(text).experiments.at(0);
}

bool same(const SourceIo& a, const SourceIo& b) {
  return a.offset == b.offset && a.size == b.size && a.mode == b.mode && a.time == b.time;
}

// The I/Os a bare generator makes, as the process would return them.
std::vector<SourceIo> expected(const workloads::ExperimentSpec& spec, std::uint64_t count,
                               bool open_loop) {
  workloads::IoGenerator generator(spec, 0, kDevice, 5);
  std::vector<SourceIo> out;
  TimeNs arrival = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    const workloads::IoRequest io = generator.next();
    arrival += io.delay_ns;
    out.push_back(SourceIo{{io.offset, io.size, io.mode}, open_loop ? arrival : io.delay_ns});
  }
  return out;
}

void check(const std::string& text, std::uint64_t count, bool open_loop) {
  const workloads::ExperimentSpec spec = spec_of(text);
  const std::vector<SourceIo> want = expected(spec, count, open_loop);
  PlanProcess process(workloads::IoGenerator(spec, 0, kDevice, 5), count, open_loop);
  EXPECT_EQ(process.peek(0), nullptr) << "nothing is known before the first next()";
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::optional<SourceIo> io = process.next();
    ASSERT_TRUE(io.has_value()) << i;
    EXPECT_TRUE(same(*io, want[i])) << "I/O " << i;
    // peek(k) is the I/O next() returns k + 1 calls later, while there is one.
    for (std::uint64_t k = 0; k < 2; ++k) {
      const SourceIo* ahead = process.peek(k);
      if (i + 1 + k < count) {
        ASSERT_NE(ahead, nullptr) << i << " + " << k;
        EXPECT_TRUE(same(*ahead, want[i + 1 + k])) << i << " + " << k;
      } else {
        EXPECT_EQ(ahead, nullptr) << "past the end: " << i << " + " << k;
      }
    }
  }
  EXPECT_FALSE(process.next().has_value());
  EXPECT_EQ(process.peek(0), nullptr);
}

TEST(PlanProcess, ReadingAheadKeepsTheGeneratorsSequence) {
  check("RW:io_size=4096,count=50", 50, false);
  check("RW:io_size=4096,count=3,mix_pattern=SR,mix_ratio=2", 3, false);
  check("RW:io_size=8192,count=1", 1, false);
}

TEST(PlanProcess, OpenLoopArrivalsAreTheSumsOfTheGaps) {
  check("RW:io_size=4096,count=40,interarrival_us=exponential:100", 40, true);
}

TEST(PlanProcess, ZeroIosEndAtOnce) {
  PlanProcess process(workloads::IoGenerator(spec_of("RW:io_size=4096"), 0, kDevice, 5), 0, false);
  EXPECT_FALSE(process.next().has_value());
  EXPECT_EQ(process.peek(0), nullptr);
}

traces::TraceRecord record(TimeNs time, std::uint64_t offset, IoMode mode) {
  return traces::TraceRecord{time, offset, 4096, mode, 0};
}

TEST(TraceSourceReadAhead, PeekShowsTheNextRecordsAndCountsFollowNext) {
  // Times go back once (the third record): open loop submits it with the
  // previous one and counts it out of order when next() gives it.
  testing::VectorReader reader({record(1000, 0, IoMode::kWrite), record(3000, 4096, IoMode::kRead),
                                record(2000, 8192, IoMode::kTrim),
                                record(5000, 12288, IoMode::kWrite)});
  TraceSource source(reader, ReplayMode::kOpen, 1.0);
  const std::optional<SourceIo> first = source.next();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->time, 0);
  // Two records read ahead, none of them counted yet.
  ASSERT_NE(source.peek(0), nullptr);
  EXPECT_EQ(source.peek(0)->offset, 4096u);
  ASSERT_NE(source.peek(1), nullptr);
  EXPECT_EQ(source.peek(1)->offset, 8192u);
  EXPECT_EQ(source.counts().requests, 1u);
  EXPECT_EQ(source.counts().trims, 0u);
  EXPECT_EQ(source.counts().out_of_order, 0u);
  EXPECT_EQ(source.next()->time, 2000);
  const std::optional<SourceIo> third = source.next();
  EXPECT_EQ(third->time, 2000);  // 1000 after the first, but not before the second
  EXPECT_EQ(third->mode, IoMode::kTrim);
  EXPECT_EQ(source.counts().out_of_order, 1u);
  EXPECT_EQ(source.counts().trims, 1u);
  EXPECT_EQ(source.counts().trace_end_ns, 2000);
  EXPECT_EQ(source.peek(1), nullptr);  // past the end
  EXPECT_EQ(source.next()->time, 4000);
  EXPECT_FALSE(source.next().has_value());
  EXPECT_EQ(source.counts().requests, 4u);
  EXPECT_EQ(source.counts().trace_start_ns, 1000);
  EXPECT_EQ(source.counts().trace_end_ns, 5000);
}

}  // namespace
}  // namespace ssdlab::sim
