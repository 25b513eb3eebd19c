// A plan's process as an I/O source (sim/engine/plan_process.h): reading
// ahead for peek() must not change the I/Os next() returns, nor their count.
#include "sim/engine/plan_process.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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
    out.push_back(SourceIo{io.offset, io.size, io.mode, open_loop ? arrival : io.delay_ns});
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
  PlanProcess process(workloads::IoGenerator(spec_of("RW:io_size=4096"), 0, kDevice, 5), 0,
                      false);
  EXPECT_FALSE(process.next().has_value());
  EXPECT_EQ(process.peek(0), nullptr);
}

}  // namespace
}  // namespace ssdlab::sim
