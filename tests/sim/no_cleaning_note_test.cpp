// A run that never reached cleaning after preconditioning says so (issue 57
// item 9; the personas review: short runs on the TLC preset measured a
// device that never cleaned, with nothing saying so).
#include <gtest/gtest.h>

#include <string>

#include "run_support.h"
#include "test_support.h"

namespace ssdlab {
namespace {

using testing::run_tiny;
using testing::sim_options;

std::string printed_by(const std::string& workload, const std::string& precondition,
                       const std::string& name) {
  const auto dir = testing::temp_dir_for_this_test("no-cleaning-");
  auto options = sim_options(workload, {});
  options.precondition = precondition;
  options.quiet = false;
  std::string printed;
  run_tiny(dir, name, options, &printed);
  return printed;
}

TEST(NoCleaningNote, ARunThatCleanedNothingAfterPreconditioningSaysSo) {
  // After a sequential fill tiny has erased blocks beyond its cleaning mark:
  // 20 writes clean nothing.
  const std::string few = printed_by("RW:count=20", "seq", "few");
  EXPECT_NE(few.find("note: the runs wrote 80 KiB and cleaned no block: after preconditioning "
                     "the device had "),
            std::string::npos)
      << few;
  EXPECT_NE(few.find("before its steady state"), std::string::npos) << few;
  // Enough writes reach cleaning; reads write nothing; no precondition, no note.
  EXPECT_EQ(printed_by("RW:count=3000", "random", "many").find("note: the runs"),
            std::string::npos);
  EXPECT_EQ(printed_by("RR:count=20", "seq", "reads").find("note: the runs"), std::string::npos);
  EXPECT_EQ(printed_by("RW:count=20", "", "fresh").find("note: the runs"), std::string::npos);
}

}  // namespace
}  // namespace ssdlab
