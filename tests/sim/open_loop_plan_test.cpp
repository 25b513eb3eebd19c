// A plan experiment with interarrival_us runs open loop through the one host
// loop: each I/O is submitted at its arrival, whatever is outstanding.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "run_support.h"
#include "test_support.h"

namespace ssdlab {
namespace {

std::vector<std::vector<std::string>> run_rows(const std::string& name,
                                               const std::string& workload) {
  const auto dir = testing::temp_dir_for_this_test("open-loop-");
  const auto out = testing::run_tiny(dir, name, testing::sim_options(workload));
  return testing::csv_rows(testing::read_file(out / "io.csv"));
}

TEST(OpenLoopPlan, ArrivalsFollowTheGapsEvenWhenTheDeviceFallsBehind) {
  // 10 us between arrivals, far less than a 4 KiB write takes: a closed loop
  // would submit each after the previous completes.
  const auto rows = run_rows("fast", "SW:io_size=4096,count=40,interarrival_us=constant:10");
  ASSERT_EQ(rows.size(), 40u);
  for (std::size_t i = 0; i < rows.size(); ++i)
    EXPECT_DOUBLE_EQ(std::stod(rows[i][4]), 10.0 * (i + 1)) << "row " << i;
  // The device falls behind: the queue, and with it the response time, grows.
  EXPECT_GT(std::stod(rows.back()[5]), std::stod(rows.front()[5]) * 4);
}

TEST(OpenLoopPlan, SparseArrivalsSeeTheUnloadedResponseTime) {
  const auto rows = run_rows("slow", "SW:io_size=4096,count=20,interarrival_us=constant:5000");
  ASSERT_EQ(rows.size(), 20u);
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_DOUBLE_EQ(std::stod(rows[i][4]), 5000.0 * (i + 1));
    EXPECT_DOUBLE_EQ(std::stod(rows[i][5]), std::stod(rows[0][5]));  // nothing waits
  }
}

}  // namespace
}  // namespace ssdlab
