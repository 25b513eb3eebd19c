// A check that a feature adds a fixed latency to every I/O, shared by the
// tests of host.firmware_us (sim/host_link_run_test.cpp) and the firmware
// cores (sim/controller_limits_run_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "run_support.h"

namespace ssdlab::testing {

// Runs `options` on the tiny preset as it is (in dir/base) and with the
// --set overrides `more` (in dir/more), and expects each I/O of the second
// io.csv, the same offsets in the same order, to take `extra_us` longer: a
// latency added whole to every response (at queue depth 1).
inline void expect_each_response_longer(const std::filesystem::path& dir, sim::SimOptions options,
                                        const std::vector<std::string>& more, double extra_us) {
  const auto base = csv_rows(read_file(run_tiny(dir, "base", options) / "io.csv"));
  options.overrides.insert(options.overrides.end(), more.begin(), more.end());
  const auto longer = csv_rows(read_file(run_tiny(dir, "more", options) / "io.csv"));
  ASSERT_FALSE(base.empty());
  ASSERT_EQ(longer.size(), base.size());
  for (std::size_t i = 0; i < base.size(); ++i) {
    EXPECT_EQ(longer[i][7], base[i][7]);  // the same offsets
    EXPECT_NEAR(std::stod(longer[i][5]) - std::stod(base[i][5]), extra_us, 1e-9) << i;
  }
}

}  // namespace ssdlab::testing
