// Idle folding of the SLC cache at the flash's speed (docs/model.md, "SLC
// cache"; fidelity review G2): on the TLC preset, one pool of 32 dies, the
// background cleaner folds a sealed block on every plane at once, so an
// idle second recovers far more than one plane folding one block after
// another could (that was the model before: 1/64 of its native speed). It
// folds only while the host is idle: the preset's write buffer leaves the
// dies idle between its flushes while the host writes, which is no folding
// time (a round there held the next flush for up to 300 ms), and it flushes
// at the idle period's start, which must not end the folding before it began.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "run_support.h"
#include "test_support.h"

namespace ssdlab {
namespace {

// The preset's drive as it is rebuilt on 4 KiB map units packed by a write
// buffer, behind its link and its firmware cores (configs/tlc-client.toml).
const std::vector<std::string> kBufferedDrive = {"ftl.logical_page_size=4KiB",
                                                 "controller.write_buffer=32MiB",
                                                 "controller.write_buffer_ns_per_byte=0",
                                                 "controller.firmware.cores=5",
                                                 "controller.firmware.write_us=15.4",
                                                 "host.link.generation=3",
                                                 "host.link.lanes=4"};

// Runs `plan` on configs/tlc-client.toml made smaller (a 1 GiB cache) and
// returns its summary.json.
nlohmann::json run_small_drive(const std::filesystem::path& plan,
                               const std::filesystem::path& out) {
  std::vector<std::string> overrides = {"geometry.blocks_per_plane=64", "slc_cache.size_gib=1",
                                        "slc_cache.static_gib=0"};
  overrides.insert(overrides.end(), kBufferedDrive.begin(), kBufferedDrive.end());
  auto options = testing::sim_options(plan.string(), overrides);
  options.quiet = true;
  options.io_log = false;
  return testing::summary_of(
      testing::run_preset("tlc-client", out.parent_path(), out.filename().string(), options));
}

// Cache blocks folded in the background when `idle_us` of idle time follows
// a sequential fill of the cache, on configs/tlc-client.toml made smaller.
std::uint64_t idle_folds(const std::filesystem::path& dir, const std::string& idle_us) {
  const auto plan = testing::write_file(dir / ("plan-" + idle_us + ".toml"), R"(
[[experiment]]
name = "fill"
pattern = "SW"
io_size = "128KiB"
count = 9000
queue_depth = 32

[[experiment]]
name = "after-idle"
pattern = "SW"
io_size = "128KiB"
count = 1
run_pause_us = )" + idle_us + "\n");
  const auto cache = run_small_drive(plan, dir / ("out-" + idle_us))["slc_cache"];
  EXPECT_EQ(cache["capacity_blocks"], 256);  // 1 GiB of 4 MiB SLC blocks
  return cache["blocks_folded"].get<std::uint64_t>() - cache["foreground_folds"].get<std::uint64_t>();
}

TEST(IdleFolding, FoldsOnEveryPlaneAtOnceAtLeastSixteenTimesOnePlanesRate) {
  const auto dir = testing::temp_dir_for_this_test("idle-fold");
  const std::uint64_t base = idle_folds(dir, "0");
  EXPECT_EQ(base, 0u) << "folded while the host was writing";
  const std::uint64_t folded = idle_folds(dir, "500000") - base;  // in 0.5 s of idle
  // One plane folds a block of 256 SLC pages into 256 / 3 TLC wordlines of
  // 1500 us each: at least 128 ms a block, so at most 3.9 blocks in 0.5 s.
  const double one_plane = 0.5 / (256.0 / 3 * 1500e-6);
  EXPECT_GE(static_cast<double>(folded), 16 * one_plane) << folded << " blocks folded";
  EXPECT_LE(folded, 256u);
  // Through the controller (copy_back off on TLC): moves, not copy-backs.
  const auto device = testing::summary_of(dir / "out-500000")["device"];
  EXPECT_EQ(device["copy_backs"], 0);
  EXPECT_GT(device["inter_plane_moves"].get<std::uint64_t>(), 0u);
}

// The host writes 4 KiB at random, slower than the cache's flash takes them
// (the preset's firmware cores set the pace), so the dies idle between the
// buffer's flushes: sealed cache blocks wait, and no write waits for a fold.
TEST(IdleFolding, DoesNotFoldBetweenTheHostsRequests) {
  const auto dir = testing::temp_dir_for_this_test("idle-fold-busy");
  const auto plan = testing::write_file(dir / "plan.toml", R"(
[[experiment]]
name = "fill"
pattern = "SW"
io_size = "128KiB"
count = 4000
queue_depth = 32

[[experiment]]
name = "random"
pattern = "RW"
io_size = "4KiB"
count = 60000
queue_depth = 32
target_size = "1GiB"
)");
  const auto summary = run_small_drive(plan, dir / "out");
  EXPECT_GT(summary["slc_cache"]["blocks_in_use"].get<std::uint64_t>(), 64u);  // sealed blocks wait
  EXPECT_EQ(summary["slc_cache"]["blocks_folded"], 0);
  const auto random = summary["experiments"][1]["runs"][0];
  // A fold round (a block on every plane) would hold a flush, and the writes
  // behind it, for about 100 ms; unhindered, no write waits 10 ms.
  EXPECT_LT(random["max_us"].get<double>(), 10000.0) << random.dump();
}

}  // namespace
}  // namespace ssdlab
