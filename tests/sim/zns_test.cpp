// A zoned device through the simulator (docs/zns.md): zone workloads and
// their io.csv rows (mode letters, an append's address from the device),
// refusals in io.csv, refused.csv and summary.json, the zone commands on the
// flash (a reset's erases), power cuts that lose no acknowledged write, a
// checkpoint that continues as the whole run does, and the host log over
// the zones: verified end to end, its write amplification beside a
// conventional device's.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "power_cut_support.h"
#include "run_support.h"
#include "sim/config/config.h"
#include "sim/controller/ssd.h"
#include "sim/live/live_device.h"
#include "sim/live/live_options.h"
#include "test_support.h"
#include "zoned_support.h"

namespace ssdlab::sim {
namespace {

using testing::csv_rows;
using testing::read_file;
using testing::run_tiny;
using testing::sim_options;
using testing::summary_of;

using testing::kZoned;
using testing::zoned;

TEST(Zns, ZoneWritesResetFirstAndFillZonesInTurn) {
  const auto dir = testing::temp_dir_for_this_test("zns-");
  auto options = sim_options("SW:zones_open=2,io_size=16384,count=70", zoned());
  options.verify = true;
  const auto out = run_tiny(dir, "w", options);
  const auto rows = csv_rows(read_file(out / "io.csv"));
  ASSERT_EQ(rows.size(), 70u);
  // Two resets (zones 0 and 1, 256 KiB each), then writes alternating between them.
  EXPECT_EQ(rows[0][6], "Z");
  EXPECT_EQ(rows[1][6], "Z");
  EXPECT_EQ(rows[1][7], "262144");
  EXPECT_EQ(rows[2][6], "W");
  EXPECT_EQ(rows[2][7], "0");
  EXPECT_EQ(rows[3][7], "262144");
  EXPECT_EQ(rows[4][7], "16384");
  const auto summary = summary_of(out);
  EXPECT_EQ(summary["zones"]["zone_bytes"], 262144);
  EXPECT_EQ(summary["zones"]["refused"], 0);
  EXPECT_GE(summary["zones"]["full"], 2);  // 16 writes of 16 KiB fill a zone
  EXPECT_EQ(summary["device"]["write_amplification"], 1.0);
}

TEST(Zns, AppendsAtDepthGetDistinctAddressesFromTheDevice) {
  const auto dir = testing::temp_dir_for_this_test("zns-");
  auto options =
      sim_options("SW:zones_open=1,zone_append=true,queue_depth=8,io_size=8192,count=66", zoned());
  const auto out = run_tiny(dir, "a", options);
  std::set<std::string> offsets;
  std::uint64_t appends = 0;
  for (const auto& row : csv_rows(read_file(out / "io.csv"))) {
    if (row[6] != "A") continue;
    ++appends;
    offsets.insert(row[7]);
  }
  EXPECT_EQ(appends, 64u);         // a reset and 32 appends of 8 KiB fill a 256 KiB zone, twice
  EXPECT_EQ(offsets.size(), 64u);  // each at its own address
  EXPECT_TRUE(offsets.count("253952"));  // the last 8 KiB of zone 0
  EXPECT_EQ(summary_of(out)["zones"]["appends"], 64);
}

TEST(Zns, RandomWritesAreRefusedPerIoAndListed) {
  const auto dir = testing::temp_dir_for_this_test("zns-");
  const auto out = run_tiny(dir, "r", sim_options("RW:count=200,seed=3", zoned()));
  const auto summary = summary_of(out);
  const std::uint64_t refused = summary["zones"]["refused"];
  EXPECT_GT(refused, 150u);  // only a write that happens to hit a write pointer passes
  const auto listed = csv_rows(read_file(out / "refused.csv"));
  ASSERT_EQ(listed.size(), refused);
  EXPECT_EQ(listed[0][7], "zone_invalid_write");
  EXPECT_EQ(listed[0][8], "0x1BC");
  // A refused write costs the controller's command time only.
  const auto rows = csv_rows(read_file(out / "io.csv"));
  const std::uint64_t io = std::stoull(listed[0][3]);
  EXPECT_EQ(rows[io][5], "1.000");
}

TEST(Zns, AResetIsTheEraseOfTheZonesWrittenBlocks) {
  const auto dir = testing::temp_dir_for_this_test("zns-");
  // Two 256 KiB zones in the target, written by 64 KiB writes: each zone
  // takes a reset and 4 writes; the first two resets find empty zones, the
  // next two full ones of 4 blocks (2 dies x 2 planes) each.
  const auto first = summary_of(
      run_tiny(dir, "two", sim_options("SW:zones_open=1,io_size=65536,count=10", zoned())));
  EXPECT_EQ(first["zones"]["resets"], 2);
  EXPECT_EQ(first["device"]["erases"], 0);
  const auto wrapped = summary_of(run_tiny(
      dir, "wrap",
      sim_options("SW:zones_open=1,io_size=65536,count=20,target_size=524288", zoned())));
  EXPECT_EQ(wrapped["zones"]["resets"], 4);
  EXPECT_EQ(wrapped["device"]["erases"], 8);
}

TEST(Zns, PowerCutsLoseNoAcknowledgedWrite) {
  Ssd ssd(load_config(testing::preset("tiny"), zoned()));
  ssd.enable_power_cuts();
  const testing_power::CutTotals totals = testing_power::run_with_cuts(
      ssd, "SW:zones_open=3,zone_append=true,queue_depth=6,io_size=8192,count=4000", 30, 4);
  EXPECT_EQ(totals.cuts, 30u);
  EXPECT_EQ(totals.recovered, 30u);
  EXPECT_EQ(totals.lost, 0u);
  EXPECT_GT(totals.in_flight, 0u);
  EXPECT_NO_THROW(ssd.ftl().check_invariants());
}

TEST(Zns, ACheckpointKeepsTheZonesAndTheirData) {
  const auto dir = testing::temp_dir_for_this_test("zns-");
  auto first = sim_options("SW:zones_open=2,io_size=16384,count=40", zoned());
  first.save_state = (dir / "zones.state").string();
  const auto saved = summary_of(run_tiny(dir, "first", first))["zones"];
  // Reading the two zones back after the load: every page is on flash (none
  // unmapped) and holds the latest write (the verifier adopts the loaded data).
  auto second = sim_options("SR:zones_open=2,io_size=16384,count=32", zoned());
  second.load_state = (dir / "zones.state").string();
  second.verify = true;
  const auto summary = summary_of(run_tiny(dir, "second", second));
  EXPECT_EQ(summary["zones"]["full"], saved["full"]);
  EXPECT_EQ(summary["zones"]["implicitly_open"], saved["implicitly_open"]);
  EXPECT_EQ(summary["zones"]["resets"], saved["resets"]);
  EXPECT_EQ(summary["verification"]["pages_checked"], 32 * 4);
}

TEST(Zns, TheHostLogReadsBackTheLatestDataAndCleansZones) {
  const auto dir = testing::temp_dir_for_this_test("zns-");
  auto options = sim_options("RW:count=20000,seed=5",
                             zoned({"host.log.overprovisioning=0.2", "host.log.victim=\"greedy\""}));
  options.verify = true;
  const auto out = run_tiny(dir, "log", options);
  const auto summary = summary_of(out);
  const auto& log = summary["host_log"];
  EXPECT_EQ(log["host_pages_written"], 20000);
  EXPECT_GT(log["zones_cleaned"].get<int>(), 100);
  EXPECT_GT(log["host_write_amplification"].get<double>(), 1.5);
  EXPECT_EQ(log["device_write_amplification"], 1.0);  // a zoned device never cleans
  EXPECT_GT(log["pages_verified"].get<int>(), 0);    // cleaning's reads, checked
  EXPECT_EQ(summary["zones"]["refused"], 0);
  EXPECT_EQ(summary["logical_bytes"], log["exported_bytes"]);
}

// Issue 57 item 1: a run over a host log reports the log's own and the
// end-to-end write amplification of its writes (preconditioning excluded),
// where the device's is 1.00, in summary.json's run, on the console and in
// sweep.csv (SweepTest).
TEST(Zns, ARunOverTheHostLogReportsItsEndToEndWriteAmplification) {
  const auto dir = testing::temp_dir_for_this_test("zns-wa-");
  auto options = sim_options("RW:count=20000,seed=5", zoned({"host.log.overprovisioning=0.2"}));
  options.precondition = "seq";  // its writes go through the log too, before the run
  std::string console;
  const auto out = run_tiny(dir, "log", options, &console);
  const auto summary = summary_of(out);
  const auto& device = summary["experiments"][0]["runs"][0]["device"];
  EXPECT_EQ(device["write_amplification"], 1.0);
  EXPECT_EQ(device["host_log_host_pages_written"], 20000);  // the run's, not preconditioning's
  const double host = device["host_log_host_pages_written"].get<double>();
  const double cleaning = device["host_log_cleaning_pages_written"].get<double>();
  EXPECT_GT(cleaning, 0);
  EXPECT_NEAR(device["host_log_write_amplification"].get<double>(), (host + cleaning) / host, 1e-4);
  EXPECT_NEAR(device["end_to_end_write_amplification"].get<double>(),
              device["flash_pages_written"].get<double>() / host, 1e-4);
  // The whole-device figure counts the preconditioning's pages too.
  EXPECT_GT(summary["host_log"]["host_pages_written"].get<double>(), host);
  EXPECT_NE(console.find("host log: write amplification"), std::string::npos) << console;
  // A device without a host log has none of these keys.
  const auto plain = summary_of(run_tiny(dir, "plain", sim_options("RW:count=2000", {})));
  EXPECT_FALSE(plain["experiments"][0]["runs"][0]["device"].contains("end_to_end_write_amplification"));
}

// Issue 57 item 2: the host log keeps an open zone per placement
// identifier (host.log.placement_heads), so hot and cold data written with
// their own identifiers fill zones of their own, as FDP's handles do.
TEST(Zns, TheHostLogKeepsAnOpenZonePerPlacementIdentifier) {
  const auto dir = testing::temp_dir_for_this_test("zns-heads-");
  const auto wa = [&](std::uint32_t heads) {
    auto options = sim_options("", zoned({"host.log.overprovisioning=0.15",
                                          fmt::format("host.log.placement_heads={}", heads)}));
    options.precondition = "seq";
    options.verify = true;
    const std::string ids0 = heads > 1 ? ",placement_id=0" : "", ids1 = heads > 1 ? ",placement_id=1" : "";
    options.config = testing::preset("tiny");
    options.outdir = (dir / fmt::format("heads{}", heads)).string();
    std::ostringstream printed;
    sim::run_sim_or_replay(
        options, {"RW:count=30000,target_size=1MiB,name=hot" + ids0, "RW:count=3000,name=cold" + ids1},
        sim::TraceOptions{}, printed);
    EXPECT_NE(printed.str().find("all correct"), std::string::npos) << printed.str();
    return summary_of(options.outdir)["experiments"][0]["runs"][0]["device"]
                     ["end_to_end_write_amplification"]
                         .get<double>();
  };
  EXPECT_LT(wa(2), 0.95 * wa(1));  // 3.23 against 3.50
}

TEST(Zns, PlacementHeadsAreCheckedAndAnIdentifierBeyondThemIsSaid) {
  const auto zoned_log = zoned({"host.log.overprovisioning=0.15"});
  const auto heads = zoned({"host.log.overprovisioning=0.15", "host.log.placement_heads=2"});
  const auto dir = testing::temp_dir_for_this_test("zns-heads-cli-");
  // What `ssdlab sim` exits with and prints, its warnings included.
  const auto sim = [&](const std::string& name, const SimOptions& options) {
    return testing::in_process_with_stderr([&](std::ostream&) { run_tiny(dir, name, options); });
  };
  const auto beyond = sim("beyond", sim_options("RW:count=300,placement_id=3", heads));
  ASSERT_EQ(beyond.exit_code, 0) << beyond.output;
  EXPECT_NE(beyond.output.find("placement identifier 3 is beyond the host log's 2 head(s)"),
            std::string::npos)
      << beyond.output;
  // Without heads an identifier is refused, as on any device without placement.
  const auto refused = sim("r", sim_options("RW:count=30,placement_id=1", zoned_log));
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE(refused.output.find("host.log.placement_heads"), std::string::npos) << refused.output;
  // A checkpoint keeps its heads, and loads only into as many.
  const std::string state = (dir / "s.ckpt").string();
  auto save = sim_options("RW:count=3000,placement_id=1", heads);
  save.precondition = "seq";
  save.save_state = state;
  ASSERT_EQ(sim("saved", save).exit_code, 0);
  auto load = sim_options("RW:count=300,placement_id=1", heads);
  load.load_state = state;
  EXPECT_EQ(sim("loaded", load).exit_code, 0);
  auto other_options = sim_options("RW:count=30", zoned_log);
  other_options.load_state = state;
  const auto other = sim("other", other_options);
  EXPECT_NE(other.exit_code, 0);
  EXPECT_NE(other.output.find("saved from a host log of 2 placement head(s), the config gives 1"),
            std::string::npos)
      << other.output;
}

TEST(Zns, ConfigErrorsNameTheKey) {
  const auto error = [](std::vector<std::string> overrides) {
    try {
      Ssd ssd(load_config(testing::preset("tiny"), overrides));
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error(zoned({"ftl.zone_width=3"})).find("zone_width: 3 does not divide"),
            std::string::npos);
  EXPECT_NE(error({"host.log.overprovisioning=0.1"}).find("needs a zoned device"),
            std::string::npos);
  EXPECT_NE(error(zoned({"controller.write_buffer_bytes=\"64KiB\""})).find("write_buffer_bytes"),
            std::string::npos);
  EXPECT_NE(error(zoned({"host.log.overprovisioning=0.01"})).find("spare zone"), std::string::npos);
  EXPECT_NE(error(zoned({"host.log.victim=\"oldest\""})).find("victim"), std::string::npos);
}

}  // namespace
}  // namespace ssdlab::sim

namespace ssdlab::sim {
namespace {

TEST(Zns, TheHostLogsCheckpointKeepsItsMap) {
  const auto dir = testing::temp_dir_for_this_test("zns-");
  const auto log = zoned({"host.log.overprovisioning=0.2"});
  auto first = testing::sim_options("RW:count=8000,seed=2", log);
  first.save_state = (dir / "log.state").string();
  testing::run_tiny(dir, "first", first);
  // Reads of every host page after the load: the log's map came back (a
  // page read from the wrong zone fails the log's own check, a page read
  // through no map reads nothing: pages_verified counts the ones found).
  auto second = testing::sim_options("SR:io_size=4096,count=2000", log);
  second.load_state = (dir / "log.state").string();
  second.verify = true;
  const auto summary = testing::summary_of(testing::run_tiny(dir, "second", second));
  // (The reads' never-written pages are prefilled through the log first.)
  EXPECT_EQ(summary["host_log"]["host_pages_written"], 8000 + summary["prefilled_pages"].get<int>());
  EXPECT_GT(summary["host_log"]["pages_verified"].get<int>(), 1000);
  EXPECT_GT(summary["experiments"][0]["runs"][0]["device"]["flash_pages_read"].get<int>(), 1000);
}

}  // namespace
}  // namespace ssdlab::sim

namespace ssdlab::sim {
namespace {

// The live device (sim/live, the nbdkit plugin): an NBD client writes
// anywhere, so a zoned device is refused unless the host log serves it.
TEST(Zns, ALiveDeviceServesAZonedDeviceOnlyBehindTheHostLog) {
  LiveOptions options;
  set_live_key(options, "config", testing::preset("tiny"));
  set_live_key(options, "set", "ftl.type=\"zoned\"");
  set_live_key(options, "set", "ftl.overprovisioning=0.03");
  set_live_key(options, "data", "none");
  check_live_options(options);
  std::ostringstream out;
  const auto ignore = [](const std::string&) {};
  try {
    LiveDevice device(options, out, ignore);
    ADD_FAILURE() << "a zoned device was served without a host log";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("[host.log]"), std::string::npos) << error.what();
  }
  set_live_key(options, "set", "host.log.overprovisioning=0.2");
  LiveDevice device(options, out, ignore);
  EXPECT_GT(device.bytes(), 0u);
}

}  // namespace
}  // namespace ssdlab::sim
