// Whether an experiment fits the device it runs on (workloads/plan.h,
// validate_against_device): sector alignment, the target inside the device,
// room for every process.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "common/error.h"
#include "test_support.h"
#include "workloads/plan.h"

namespace {

using ssdlab::testing::error_of;
using ssdlab::workloads::ExperimentSpec;
using ssdlab::workloads::parse_inline;
using ssdlab::workloads::validate_against_device;

constexpr std::uint64_t kTinyBytes = 16ull << 20;

ExperimentSpec OnlyExperiment(const std::string& text) {
  const auto plan = parse_inline(text);
  EXPECT_EQ(plan.experiments.size(), 1u);
  return plan.experiments.at(0);
}

TEST(PlanFitsDevice, ExperimentThatFitsTheDeviceIsAccepted) {
  EXPECT_NO_THROW(validate_against_device(
      OnlyExperiment("RW:io_size=8KiB,target_offset=1MiB,target_size=15MiB,processes=4"),
      kTinyBytes, 512));
}

TEST(PlanFitsDevice, IoSizeThatIsNotASectorMultipleDoesNotFitTheDevice) {
  const auto spec = OnlyExperiment("RW:io_size=1000");
  EXPECT_EQ(error_of([&spec] { validate_against_device(spec, kTinyBytes, 512); }),
            "-w 'RW:io_size=1000': io_size 1000 is not a multiple of the 512-byte sector");
}

TEST(PlanFitsDevice, TargetOffsetThatIsNotASectorMultipleDoesNotFitTheDevice) {
  const auto spec = OnlyExperiment("RW:target_offset=100");
  EXPECT_EQ(error_of([&spec] { validate_against_device(spec, kTinyBytes, 512); }),
            "-w 'RW:target_offset=100': target_offset 100 is not a multiple of the 512-byte "
            "sector");
}

TEST(PlanFitsDevice, TargetOffsetBeyondTheDeviceIsRejected) {
  const auto spec = OnlyExperiment("RW:target_offset=1GiB");
  EXPECT_EQ(error_of([&spec] { validate_against_device(spec, kTinyBytes, 512); }),
            "-w 'RW:target_offset=1GiB': target_offset 1073741824 lies beyond the device's "
            "16 MiB (16777216 bytes)");
}

TEST(PlanFitsDevice, TargetEndingBeyondTheDeviceIsRejected) {
  const auto spec = OnlyExperiment("RW:target_offset=1MiB,target_size=16MiB");
  EXPECT_EQ(error_of([&spec] { validate_against_device(spec, kTinyBytes, 512); }),
            "-w 'RW:target_offset=1MiB,target_size=16MiB': target_size: target 1048576 + 16777216 "
            "bytes ends beyond the device's 16 MiB (16777216 bytes)");
}

TEST(PlanFitsDevice, TooManyProcessesForTheTargetIsRejected) {
  const auto spec = OnlyExperiment("RW:processes=4,target_size=8KiB");
  EXPECT_EQ(error_of([&spec] { validate_against_device(spec, kTinyBytes, 512); }),
            "-w 'RW:processes=4,target_size=8KiB': each of the 4 processes gets 2048 bytes of "
            "target, less than io_shift + io_size (0 + 4096)");
}

}  // namespace
