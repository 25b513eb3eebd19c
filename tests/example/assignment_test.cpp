// The assignment's grader (docs/assignment.md, "How it is graded"). Do not
// edit this file: it is what your work is graded with. Run it with
//   cmake --build build -j2 --target assignment && ctest --test-dir build -R Assignment
// It grades the example FTL on `tiny`: every page written once, then 20,000
// random one-page overwrites through the verifier (tests/example/grader.h).
// While the example FTL is still the skeleton (no cleaning) it is skipped.
#include <gtest/gtest.h>

#include <string>

#include "ftl/ftl.h"
#include "grader.h"
#include "test_support.h"

namespace {

using namespace ssdlab;
namespace support = ssdlab::testing;

constexpr std::uint64_t kOverwrites = 20000;
constexpr double kWaBound = 1.25;  // of the page-mapped reference's

support::Grade GradeFtl(const std::string& type) {
  const auto config = support::load_preset("tiny");
  ftl::FtlConfig ftl_config = config.ftl;
  ftl_config.type = type;
  auto ftl = ftl::make_ftl({config.geometry, ftl_config, 0});
  return support::grade_cleaning(*ftl, kOverwrites, 44);
}

class Assignment : public ::testing::Test {
 protected:
  void SetUp() override {
    grade_ = GradeFtl("example");
    if (grade_.failure.find("out of free pages — implement cleaning") != std::string::npos)
      GTEST_SKIP() << "the example FTL has no cleaning yet (the skeleton): do the assignment "
                      "(docs/assignment.md), then run this again";
  }
  support::Grade grade_;
};

TEST_F(Assignment, SurvivesRandomOverwritesWithEveryReadCorrect) {
  EXPECT_EQ(grade_.failure, "") << grade_.failure;
  EXPECT_GT(grade_.victims, 0u) << "no block was cleaned: your FTL must reclaim invalid pages";
}

TEST_F(Assignment, VictimsAreTheEmptiestBlocksAndErasedAfterTheirMoves) {
  ASSERT_EQ(grade_.failure, "") << grade_.failure;
  for (const auto& finding : grade_.findings) ADD_FAILURE() << finding;
}

TEST_F(Assignment, WriteAmplificationIsCloseToTheReference) {
  ASSERT_EQ(grade_.failure, "") << grade_.failure;
  const support::Grade reference = GradeFtl("page-mapped");
  ASSERT_EQ(reference.failure, "") << reference.failure;
  EXPECT_LE(grade_.write_amplification, kWaBound * reference.write_amplification)
      << "write amplification " << grade_.write_amplification << " against "
      << reference.write_amplification << " for the page-mapped FTL on the same writes (allowed: "
      << kWaBound << " x): your FTL writes too many flash pages per host page. Usual causes: a "
         "victim that is not the emptiest sealed block (step 3), cleaning far more often than "
         "the low-water mark needs (step 2), or moving pages that were already invalid (step 4)";
}

}  // namespace
