// End to end: `ssdlab sim --verify`, run in-process, on each block-based
// preset (USB stick, BAST SSD, FAST SSD) with random, sequential and
// unaligned writes and reads; the outputs pass the output checker and
// summary.json counts the merges.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_support.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
namespace support = ssdlab::testing;

constexpr const char* kPlan = R"(
[[experiment]]
name = "sw-64k"
pattern = "SW"
io_size = "64KiB"
count = 100
[[experiment]]
name = "rw-4k"
pattern = "RW"
count = 300
[[experiment]]
name = "rw-6k-unaligned"
pattern = "RW"
io_size = 6144
count = 200
[[experiment]]
name = "rr-4k"
pattern = "RR"
count = 200
queue_depth = 4
)";

// Runs the plan on `preset` with --verify after a sequential fill; returns
// the summary's device totals for the run (whole device counters).
nlohmann::json SimulateVerified(const std::string& preset,
                                const std::vector<std::string>& overrides = {}) {
  const fs::path dir = support::temp_dir_for_this_test("block-cli-");
  const fs::path plan = support::write_file(dir / "plan.toml", kPlan);
  auto options = support::sim_options(plan.string(), overrides);
  options.precondition = "seq";
  options.verify = true;
  options.check_every = 50;
  std::string printed;
  const fs::path out = support::run_preset(preset, dir, "out", options, &printed);
  EXPECT_NE(printed.find("all correct"), std::string::npos) << printed;
  if (const auto checked = support::check_output(out)) {
    EXPECT_EQ(checked->exit_code, 0) << checked->output;
  }
  const auto summary = nlohmann::json::parse(support::read_file(out / "summary.json"));
  EXPECT_GT(summary["verification"]["pages_checked"].get<std::uint64_t>(), 200u);
  // Each run reports its own merges (counters_delta): sequential writes on the
  // sequentially filled device copy nothing and end in switch merges; the
  // random writes after them pay for merges.
  const auto& runs = summary["experiments"];
  EXPECT_EQ(runs.size(), 4u);
  if (runs.size() != 4) return summary["device"];
  const auto& sequential = runs[0]["runs"][0]["device"];
  EXPECT_EQ(sequential["full_merges"].get<std::uint64_t>(), 0u);
  EXPECT_EQ(sequential["partial_merges"].get<std::uint64_t>(), 0u);
  EXPECT_GT(sequential["switch_merges"].get<std::uint64_t>(), 0u);
  EXPECT_EQ(sequential["copy_backs"].get<std::uint64_t>() +
                sequential["inter_plane_moves"].get<std::uint64_t>(),
            0u);
  std::uint64_t random_copies = 0;
  for (const int run : {1, 2})
    random_copies += runs[run]["runs"][0]["device"]["copy_backs"].get<std::uint64_t>();
  EXPECT_GT(random_copies, 0u);
  return summary["device"];
}

TEST(BlockFtlCli, UsbStickPresetVerifiesAndCountsReadModifyWrites) {
  const auto device = SimulateVerified("usb-stick");
  // Every small random write rewrites its 512 KiB chunk (128 pages).
  EXPECT_GT(device["partial_merges"].get<std::uint64_t>(), 400u);
  EXPECT_GT(device["copy_backs"].get<std::uint64_t>(), 400u * 100);
  EXPECT_EQ(device["full_merges"].get<std::uint64_t>(), 0u);
}

TEST(BlockFtlCli, BastPresetVerifiesAndCountsFullMerges) {
  const auto device = SimulateVerified("bast-ssd");
  EXPECT_GT(device["full_merges"].get<std::uint64_t>(), 300u);
  EXPECT_GT(device["switch_merges"].get<std::uint64_t>(), 100u);  // the fill and the SW runs
}

TEST(BlockFtlCli, FastPresetVerifiesAndCountsAllMergeKinds) {
  // Two random-write logs, so that the short run reclaims some.
  const auto device = SimulateVerified("fast-ssd", {"ftl.log_blocks=2"});
  EXPECT_GT(device["full_merges"].get<std::uint64_t>(), 50u);
  EXPECT_GT(device["switch_merges"].get<std::uint64_t>(), 100u);
}

}  // namespace
