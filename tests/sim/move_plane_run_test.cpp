// ftl.move_plane = "turn" with 4 KiB map units in 16 KiB pages (the victims
// waiting for their erase give part of the turn): a run split by
// `--save-state` after its first experiment and `--load-state` for the
// second, under `--verify`, writes the same io.csv rows and device totals as
// the run that went on without one.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "run_support.h"
#include "sim/results/output.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
namespace support = ssdlab::testing;

using support::io_rows;
using support::random_writes_experiment;

TEST(MovePlaneRun, TurnWithMapUnitsResumesFromACheckpointAsIfUninterrupted) {
  const fs::path dir = support::temp_dir_for_this_test("move-plane-run-");
  auto sim = [&](const std::string& plan, ssdlab::sim::SimOptions options, const char* name) {
    options.workload = support::write_file(dir / (std::string(name) + ".toml"), plan).string();
    options.overrides = {"geometry.page_size=\"16KiB\"", "ftl.stripe_size=\"16KiB\"",
                         "ftl.logical_page_size=\"4KiB\"", "ftl.copy_back=false",
                         "ftl.move_plane=\"turn\""};
    return support::run_tiny(dir, name, options);
  };
  ssdlab::sim::SimOptions preconditioned;
  preconditioned.precondition = "random";
  const fs::path whole =
      sim(random_writes_experiment("first", 3000) + "\n" + random_writes_experiment("second", 3000),
          preconditioned, "whole");
  auto saved = preconditioned;
  saved.save_state = (dir / "mid.ckpt").string();
  const fs::path part1 = sim(random_writes_experiment("first", 3000), saved, "part1");
  ssdlab::sim::SimOptions loaded;
  loaded.verify = true;
  loaded.load_state = (dir / "mid.ckpt").string();
  const fs::path part2 = sim(random_writes_experiment("second", 3000), loaded, "part2");

  ASSERT_GT(io_rows(part2).size(), 0u);
  EXPECT_EQ(io_rows(part1) + io_rows(part2), io_rows(whole));
  const auto resumed = ssdlab::sim::read_json_file(part2 / "summary.json")["device"];
  const auto uninterrupted = ssdlab::sim::read_json_file(whole / "summary.json")["device"];
  EXPECT_GT(resumed["pages_moved"], 0);  // cleaning ran, in turns
  for (const char* counter : {"flash_pages_written", "pages_moved", "erases", "blocks_cleaned"})
    EXPECT_EQ(resumed[counter], uninterrupted[counter]) << counter;
}

}  // namespace
