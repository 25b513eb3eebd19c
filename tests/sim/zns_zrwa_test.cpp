// Zone random write areas through the simulator (NVMe TP 4076; docs/zns.md,
// "The zone random write area"): a plan with `zrwa` opens each zone
// explicitly and writes it window by window in a shuffled order; the next
// window's writes commit the last (implicit flushes) or an explicit flush
// (io.csv's X) follows each window; what is committed reads back as the
// latest data; a write that commits nothing completes once its data is in
// the controller's memory; power cuts are refused with a reason.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.h"
#include "run_support.h"
#include "sim/config/config.h"
#include "sim/controller/ssd.h"
#include "test_support.h"
#include "zoned_support.h"

namespace ssdlab::sim {
namespace {

using testing::csv_rows;
using testing::read_file;
using testing::run_tiny;
using testing::sim_options;
using testing::summary_of;
using testing::zoned;

// Zones of 64 pages (2 dies wide); a ZRWA of 8 pages, flushed in 2.
const std::vector<std::string> kZrwa =
    zoned({"ftl.zrwa_size=\"32KiB\"", "ftl.zrwa_flush_granularity=\"8KiB\""});

TEST(ZnsZrwa, WindowsWrittenOutOfOrderCommitImplicitlyAndReadBack) {
  const auto dir = testing::temp_dir_for_this_test("zns-zrwa-");
  auto first = sim_options("SW:zones_open=2,zrwa=true,io_size=4096,count=134", kZrwa);
  first.save_state = (dir / "zrwa.state").string();
  const auto out = run_tiny(dir, "w", first);
  const auto rows = csv_rows(read_file(out / "io.csv"));
  // Reset, then open (explicitly: the zone gets its ZRWA), for each zone.
  EXPECT_EQ(rows[0][6], "Z");
  EXPECT_EQ(rows[2][6], "O");
  bool out_of_order = false;
  std::uint64_t last = 0, flushes = 0;
  for (const auto& row : rows) {
    if (row[6] == "X") ++flushes;
    if (row[6] != "W" || std::stoull(row[7]) >= 262144) continue;  // zone 0's writes
    out_of_order |= std::stoull(row[7]) < last;
    last = std::stoull(row[7]);
  }
  EXPECT_TRUE(out_of_order);
  // Two zones filled (64 writes each), each ending with an explicit flush.
  EXPECT_EQ(flushes, 2u);
  const auto zones = summary_of(out)["zones"];
  EXPECT_EQ(zones["refused"], 0);
  EXPECT_EQ(zones["zrwa_allocations"], 2);
  EXPECT_GT(zones["zrwa_implicit_flushes"], 10);
  EXPECT_EQ(zones["zrwa_explicit_flushes"], 2);
  EXPECT_EQ(zones["zrwa_unwritten_pages"], 0);
  EXPECT_GE(zones["full"], 2);
  // Both full zones read back, every page on flash with the latest data.
  auto second = sim_options("SR:zones_open=2,io_size=16384,count=32", kZrwa);
  second.load_state = first.save_state;
  second.verify = true;
  const auto summary = summary_of(run_tiny(dir, "r", second));
  EXPECT_EQ(summary["verification"]["pages_checked"], 32 * 4);
  EXPECT_EQ(summary["device"]["unmapped_pages_read"], 0);
}

TEST(ZnsZrwa, AnExplicitFlushFollowsEachWindow) {
  const auto dir = testing::temp_dir_for_this_test("zns-zrwa-");
  const auto out = run_tiny(
      dir, "x",
      sim_options("SW:zones_open=1,zrwa=true,zrwa_flush=explicit,io_size=8192,count=36", kZrwa));
  const auto rows = csv_rows(read_file(out / "io.csv"));
  // Reset, open, then windows of 4 writes of 8 KiB, each with its flush.
  ASSERT_EQ(rows.size(), 36u);
  EXPECT_EQ(rows[6][6], "X");
  EXPECT_EQ(rows[6][7], std::to_string(3 * 8192));  // it ends with the window's last block
  const auto zones = summary_of(out)["zones"];
  EXPECT_EQ(zones["refused"], 0);
  EXPECT_EQ(zones["zrwa_explicit_flushes"], 6);
  EXPECT_EQ(zones["zrwa_implicit_flushes"], 0);
  // A write that commits nothing is in the controller's memory after its
  // transfer (8 KiB at 3.333 ns per byte); a flush waits for its programs.
  EXPECT_NEAR(std::stod(rows[2][5]), 8192 * 3.333e-3, 0.01);
  EXPECT_GT(std::stod(rows[6][5]), 200.0);
  // Finished at half: a flush after each of the first three windows, then
  // the finish, which commits the fourth.
  const auto half = run_tiny(
      dir, "half",
      sim_options("SW:zones_open=1,zrwa=true,zrwa_flush=explicit,io_size=8192,zone_finish_at=0.5,"
                  "count=22",
                  kZrwa));
  std::string modes;
  for (const auto& row : csv_rows(read_file(half / "io.csv"))) modes += row[6];
  EXPECT_EQ(modes, "ZOWWWWXWWWWXWWWWXWWWWF");
  const auto finished = summary_of(half)["zones"];
  EXPECT_EQ(finished["refused"], 0);
  EXPECT_EQ(finished["zrwa_explicit_flushes"], 3);
  EXPECT_EQ(finished["full"], 1);
  EXPECT_EQ(finished["zrwa_unwritten_pages"], 0);
}

// Rewrites in the ZRWA before each window's commit (a RAID over zones
// rewriting parity): counted, and never on flash more than once.
TEST(ZnsZrwa, RewritesStayInTheAreaUntilTheirCommit) {
  const auto dir = testing::temp_dir_for_this_test("zns-zrwa-");
  for (const std::string flush : {"implicit", "explicit"}) {
    const auto out =
        run_tiny(dir, flush,
                 sim_options("SW:zones_open=1,zrwa=true,zrwa_rewrite=0.5,zrwa_flush=" + flush +
                                 ",io_size=4096,count=" + (flush == "implicit" ? "99" : "106"),
                             kZrwa));
    std::string modes;
    for (const auto& row : csv_rows(read_file(out / "io.csv"))) modes += row[6];
    // A zone of 8 windows of 8 pages: each window's 8 writes, then 4 rewrites.
    EXPECT_EQ(modes.substr(0, 14), "ZOWWWWWWWWWWWW") << flush;
    EXPECT_EQ(modes.back(), 'X') << flush;
    const auto summary = summary_of(out);
    EXPECT_EQ(summary["zones"]["refused"], 0) << flush;
    EXPECT_EQ(summary["zones"]["zrwa_overwritten_pages"], 32) << flush;
    EXPECT_EQ(summary["zones"]["full"], 1) << flush;
    EXPECT_EQ(summary["device"]["flash_pages_written"], 64) << flush;
  }
}

// (The timeline named requests by a table one short of the modes: an
// explicit flush read past its end.)
TEST(ZnsZrwa, TheTimelineNamesAnExplicitFlush) {
  const auto dir = testing::temp_dir_for_this_test("zns-zrwa-");
  auto options =
      sim_options("SW:zones_open=1,zrwa=true,zrwa_flush=explicit,io_size=8192,count=12", kZrwa);
  options.teaching.timeline = (dir / "t.json").string();
  run_tiny(dir, "t", options);
  const std::string json = read_file(dir / "t.json");
  EXPECT_NE(json.find("\"ZRWA FLUSH\""), std::string::npos);
  EXPECT_NE(json.find("\"ZONE OPEN\""), std::string::npos);
}

TEST(ZnsZrwa, ItsWritesAreRefusedWhereTheAreaEnds) {
  Ssd ssd(load_config(testing::preset("tiny"), kZrwa));
  TimeNs now = *ssd.start(HostIo{0, 262144, IoMode::kZoneOpen}, 0);
  // Past the ZRWA and its implicit flush range (16 pages above the write pointer).
  now = *ssd.start(HostIo{16 * 4096, 4096, IoMode::kWrite}, now);
  EXPECT_EQ(ssd.zoned()->outcome().status, ftl::ZoneStatus::kInvalidWrite);
  now = *ssd.start(HostIo{0, 4096, IoMode::kZoneAppend}, now);
  EXPECT_EQ(ssd.zoned()->outcome().status, ftl::ZoneStatus::kInvalidZoneOperation);
  now = *ssd.start(HostIo{15 * 4096, 4096, IoMode::kWrite}, now);
  EXPECT_EQ(ssd.zoned()->outcome().status, ftl::ZoneStatus::kSuccess);
  EXPECT_EQ(ssd.zoned()->front().device().zone(0).write_pointer, 8u);
}

TEST(ZnsZrwa, PowerCutsAreRefusedWithAReason) {
  Ssd ssd(load_config(testing::preset("tiny"), kZrwa));
  try {
    ssd.enable_power_cuts();
    FAIL() << "power cuts were enabled with ZRWAs";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("ftl.zrwa_size"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ssdlab::sim
