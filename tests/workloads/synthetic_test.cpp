// DiskSim-style synthetic workloads (workloads/synthetic.h): the four plan
// keys, their errors, and the I/Os they generate, against expectations
// derived from the distributions' parameters.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "common/error.h"
#include "workloads/generator.h"
#include "workloads/plan.h"

namespace ssdlab::workloads {
namespace {

constexpr std::uint64_t kDevice = std::uint64_t{1} << 30;

ExperimentSpec inline_spec(const std::string& text) {
  return parse_inline(text).experiments.at(0);
}

std::string error_of(const std::string& text) {
  try {
    parse_inline(text);
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

TEST(SyntheticKeys, BadValuesNameTheKey) {
  EXPECT_NE(error_of("RW:interarrival_us=gaussian:3").find("interarrival_us: 'gaussian' is not"),
            std::string::npos);
  EXPECT_NE(error_of("RW:interarrival_us=uniform:5").find("interarrival_us: 'uniform:5' needs 2"),
            std::string::npos);
  EXPECT_NE(error_of("RW:interarrival_us=uniform:9:1").find("upper bound is below"),
            std::string::npos);
  EXPECT_NE(error_of("RW:size_distribution=exponential:4XB").find("size_distribution: '4XB'"),
            std::string::npos);
  EXPECT_NE(error_of("RW:size_distribution=exponential:0").find("mean above 0"),
            std::string::npos);
  EXPECT_NE(error_of("RW:read_share=1.5").find("read_share: expected a probability"),
            std::string::npos);
  EXPECT_NE(error_of("RW:sequential_share=x").find("sequential_share: expected a probability"),
            std::string::npos);
  EXPECT_NE(error_of("RW:interarrival_us=constant:10,queue_depth=4").find("queue_depth"),
            std::string::npos);
  EXPECT_NE(error_of("RW:read_share=0.5,mix_pattern=SW").find("mix_pattern does not combine"),
            std::string::npos);
  EXPECT_NE(error_of("RW:interarrivl_us=constant:1").find("did you mean"), std::string::npos);
}

TEST(SyntheticStream, SizesAreExponentialRoundedUpToTheBlockingSize) {
  const ExperimentSpec spec =
      inline_spec("RW:io_size=4096,size_distribution=exponential:4KiB,target_size=64MiB");
  IoGenerator generator(spec, 0, kDevice, 7);
  // E[ceil(X / b)] for X exponential with mean b is 1 / (1 - e^-1) units.
  const double expected = 4096 / (1 - std::exp(-1.0));
  const int n = 200000;
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    const IoRequest io = generator.next();
    ASSERT_EQ(io.size % 4096, 0u);
    ASSERT_GE(io.size, 4096u);
    ASSERT_EQ(io.offset % 4096, 0u);
    ASSERT_LE(io.offset + io.size, std::uint64_t{64} << 20);
    ASSERT_EQ(io.mode, IoMode::kWrite);
    sum += io.size;
  }
  EXPECT_NEAR(sum / n, expected, expected * 0.01);
}

TEST(SyntheticStream, UniformArrivalsStayInTheirRangeAndAverageItsMiddle) {
  const ExperimentSpec spec = inline_spec("RW:interarrival_us=uniform:0:1000");
  EXPECT_TRUE(spec.synthetic.open_loop());
  IoGenerator generator(spec, 0, kDevice, 3);
  const int n = 100000;
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    const TimeNs gap = generator.next().delay_ns;
    ASSERT_GE(gap, 0);
    ASSERT_LE(gap, 1000000);
    sum += static_cast<double>(gap);
  }
  EXPECT_NEAR(sum / n, 500000, 500000 * 0.01);
}

TEST(SyntheticStream, ReadShareAndSequentialShareAreHonoured) {
  const ExperimentSpec spec =
      inline_spec("RW:read_share=0.25,sequential_share=0.5,target_size=1GiB");
  IoGenerator generator(spec, 0, kDevice, 11);
  const int n = 100000;
  int reads = 0, continued = 0;
  std::uint64_t end = 0;
  for (int i = 0; i < n; ++i) {
    const IoRequest io = generator.next();
    reads += io.mode == IoMode::kRead;
    if (i > 0 && io.offset == end) ++continued;
    end = io.offset + io.size;
  }
  EXPECT_NEAR(reads / double(n), 0.25, 0.01);
  // A random start lands on the previous end with probability 1 / slots too.
  EXPECT_NEAR(continued / double(n - 1), 0.5, 0.01);
}

TEST(SyntheticStream, ASequentialStreamContinuesFromTheTargetStartAndWraps) {
  const ExperimentSpec spec =
      inline_spec("SW:io_size=4096,size_distribution=constant:8KiB,target_size=40KiB");
  IoGenerator generator(spec, 0, kDevice, 1);
  const std::uint64_t expected[] = {0, 8192, 16384, 24576, 32768, 0};
  for (const std::uint64_t offset : expected) EXPECT_EQ(generator.next().offset, offset);
}

TEST(SyntheticStream, TheSameSeedGivesTheSameStream) {
  const ExperimentSpec spec = inline_spec(
      "RW:size_distribution=uniform:512:64KiB,interarrival_us=exponential:100,read_share=0.3");
  IoGenerator a(spec, 0, kDevice, 5), b(spec, 0, kDevice, 5), c(spec, 0, kDevice, 6);
  bool differs = false;
  for (int i = 0; i < 1000; ++i) {
    const IoRequest x = a.next(), y = b.next(), z = c.next();
    ASSERT_EQ(x.offset, y.offset);
    ASSERT_EQ(x.size, y.size);
    ASSERT_EQ(x.delay_ns, y.delay_ns);
    ASSERT_EQ(x.mode, y.mode);
    differs = differs || x.offset != z.offset;
  }
  EXPECT_TRUE(differs);
}

}  // namespace
}  // namespace ssdlab::workloads
