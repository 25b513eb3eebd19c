// A checkpoint taken while incremental cleaning has a victim half moved
// (issue 26): `ssdlab sim --save-state` after the first experiment and
// `--load-state` for the second write the same io.csv rows and device totals
// as the run that went on without one. The split point is chosen so that the
// first experiment's last write moved pages and erased nothing: its victim
// is still in progress when the state is saved.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "run_support.h"
#include "sim/results/output.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
namespace support = ssdlab::testing;

using support::random_writes_experiment;

// "FTL scope": incremental cleaning, one page move per page written. Per
// plane with 128 blocks per plane: on tiny's 32, a plane's mark is its
// emergency floor (2 blocks), so whole victims are cleaned and none stays in
// progress.
class CheckpointMidIncrementalClean : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { dir_ = support::temp_dir_for_this_test("checkpoint-incremental-"); }

  // `ssdlab sim` on tiny with this cleaning setup, the plan `plan` and
  // `options` into DIR/name, in-process; returns the folder.
  fs::path Sim(const fs::path& plan, ssdlab::sim::SimOptions options, const std::string& name) {
    std::istringstream words(GetParam());
    std::string ftl, scope, moves;
    words >> ftl >> scope >> moves;
    options.workload = plan.string();
    options.overrides = {"ftl.type=\"" + ftl + "\"", "ftl.clean_scope=\"" + scope + "\"",
                         "ftl.clean_granularity=\"incremental\"", "ftl.clean_incremental_pages=1"};
    if (scope == "plane") options.overrides.push_back("geometry.blocks_per_plane=128");
    if (moves == "turn")  // (the victims cleaned give the turn: the checkpoint keeps them)
      for (const char* key : {"ftl.move_plane=\"turn\"", "ftl.copy_back=false"})
        options.overrides.push_back(key);
    return support::run_tiny(dir_, name, options);
  }
  static ssdlab::sim::SimOptions Preconditioned() {
    ssdlab::sim::SimOptions options;
    options.precondition = "random";
    return options;
  }
  // The device counters after the first `count` writes alone.
  nlohmann::json DeviceAfter(int count) {
    const fs::path plan =
        support::write_file(dir_ / "probe.toml", random_writes_experiment("first", count));
    auto options = Preconditioned();
    options.io_log = false;
    const fs::path out = Sim(plan, options, fmt::format("probe-{}", count));
    return ssdlab::sim::read_json_file(out / "summary.json")["device"];
  }
  std::string Rows(const std::string& run) { return support::io_rows(dir_ / run); }

  fs::path dir_;
};

TEST_P(CheckpointMidIncrementalClean, RunSplitWithAVictimInProgressWritesTheSameRows) {
  // The first split point from 1,500 writes on whose last write moved pages
  // and erased no block.
  int split = 0;
  nlohmann::json before = DeviceAfter(1499);
  for (int count = 1500; count < 1530 && split == 0; ++count) {
    const nlohmann::json after = DeviceAfter(count);
    if (after["pages_moved"] > before["pages_moved"] && after["erases"] == before["erases"])
      split = count;
    before = after;
  }
  ASSERT_NE(split, 0) << "no write among 1,500-1,529 left a victim in progress";

  const fs::path first =
      support::write_file(dir_ / "first.toml", random_writes_experiment("first", split));
  const fs::path second =
      support::write_file(dir_ / "second.toml", random_writes_experiment("second", 2000));
  const fs::path both =
      support::write_file(dir_ / "both.toml", random_writes_experiment("first", split) + "\n" +
                                                  random_writes_experiment("second", 2000));
  ASSERT_NO_THROW(Sim(both, Preconditioned(), "whole"));
  auto saved = Preconditioned();
  saved.save_state = (dir_ / "mid.ckpt").string();
  ASSERT_NO_THROW(Sim(first, saved, "part1"));
  ssdlab::sim::SimOptions loaded;
  loaded.verify = true;
  loaded.load_state = (dir_ / "mid.ckpt").string();
  ASSERT_NO_THROW(Sim(second, loaded, "part2"));

  ASSERT_GT(Rows("part2").size(), 0u);
  EXPECT_EQ(Rows("part1") + Rows("part2"), Rows("whole"));
  const auto resumed = ssdlab::sim::read_json_file(dir_ / "part2" / "summary.json");
  const auto uninterrupted = ssdlab::sim::read_json_file(dir_ / "whole" / "summary.json");
  for (const char* counter : {"flash_pages_written", "pages_moved", "erases", "copy_backs"})
    EXPECT_EQ(resumed["device"][counter], uninterrupted["device"][counter]) << counter;
  EXPECT_EQ(resumed["simulated_us"], uninterrupted["simulated_us"]);
}

INSTANTIATE_TEST_SUITE_P(Cleaning, CheckpointMidIncrementalClean,
                         ::testing::Values("page-mapped pool", "page-mapped plane", "dftl pool",
                                           "page-mapped pool turn", "dftl pool turn"),
                         support::WordsParamName());

}  // namespace
