// Issue 51, data loss and the zoned device: regression tests of the rows
// (each failed before its fix) and --verify's read count on every FTL.
//  - DFTL: a trim whose own map miss made cleaning move a page of its range
//    was stamped before that move, and the page came back after a cut.
//  - Reads of unwritten pages took 0 us (no flash command).
//  - H3: a zoned mount after a worn block was replaced from the spares; a
//    zoned mount that left a hole below a zone's write pointer.
//  - L8: a zoned device whose zones all went offline reported no end of life.
//  - H4/M2/L1: zone workloads on a conventional device, as tenants, and with
//    a zone geometry other than the device's.
//  - M4/M5: the host log with one active zone, and with sector I/O.
#include <gtest/gtest.h>

#include <sstream>

#include "power_cut_support.h"
#include "run_support.h"
#include "sim/config/config.h"
#include "sim/controller/ssd.h"
#include "sim/run/trace_info.h"
#include "test_support.h"
#include "zoned_support.h"

namespace ssdlab::sim {
namespace {

using testing::run_tiny;
using testing::sim_options;
using testing::summary_of;

using testing::kZoned;
using testing::zoned;

using testing::error_of;

TEST(ZonedData, DftlTrimsStayTrimmedAfterPowerCuts) {
  // The command: power cut 20 brought logical page 637 back.
  const auto dir = testing::temp_dir_for_this_test("i51-");
  auto options = sim_options("RW:io_size=4096,count=20000,queue_depth=1,trim_share=0.3",
                             {"ftl.type=\"dftl\"", "controller.write_buffer=0"});
  options.precondition = "random:1";
  options.power_cuts = {"random:100"};
  options.seed = 4;
  options.io_log = false;
  const auto summary = summary_of(run_tiny(dir, "dftl", options));
  EXPECT_EQ(summary["power_cuts"]["count"], 100);
  EXPECT_EQ(summary["power_cuts"]["recovered"], 100);
  EXPECT_EQ(summary["power_cuts"]["lost_writes"], 0);
}

TEST(ZonedData, AReadOfUnwrittenPagesCrossesTheController) {
  // No flash read, but the request's bytes at the host interface's rate
  // (write_buffer_ns_per_byte, 3.333 ns/B on tiny): 4096 B take 13,652 ns.
  Ssd ssd(testing::load_preset("tiny"));
  EXPECT_EQ(*ssd.start({0, 4096, IoMode::kRead}, 1000) - 1000, 13652);
  // A trimmed page reads the same way.
  ssd.write_functionally(8192, 4096);
  ssd.start({8192, 4096, IoMode::kTrim}, 2'000'000);
  EXPECT_EQ(*ssd.start({8192, 4096, IoMode::kRead}, 3'000'000) - 3'000'000, 13652);
}

TEST(ZonedData, ZonedPowerCutsAfterWornBlocksWereReplaced) {
  // H3: the mount's scan skipped the retired blocks the scan model reads.
  Ssd ssd(load_config(testing::preset("tiny"), zoned({"geometry.pe_cycles=3"})));
  ssd.enable_power_cuts();
  Simulator simulator(ssd, nullptr);
  const auto spec =
      workloads::parse_inline("SW:zones_open=2,io_size=65536,count=3000,queue_depth=8")
          .experiments.front();
  simulator.plan_power_cuts(parse_power_cuts({"random:30"}, 3000, 1));
  const RunResult run = simulator.run(spec, 0, 1);
  EXPECT_GT(ssd.ftl().zoned()->zone_counters().blocks_replaced, 0u);
  EXPECT_GT(simulator.power_cuts().size(), 0u);
  for (const PowerCutReport& cut : simulator.power_cuts()) EXPECT_EQ(cut.lost_writes, 0u);
  EXPECT_TRUE(run.end_of_life);  // L8: the zones all went offline in the end
}

TEST(ZonedData, AZonedMountPadsTheHolesACutLeftBelowTheWritePointer) {
  // Found by the power-cut fuzzer's zoned mode: appends at queue depth 8,
  // a cut before an earlier page's program started but after a later one's
  // (another block): the next append programmed above the hole, out of
  // order in its block ("FTL zoned failed during run", exit 3).
  Ssd ssd(load_config(testing::preset("tiny"), zoned()));
  ssd.enable_power_cuts();
  const testing_power::CutTotals totals = testing_power::run_with_cuts(
      ssd, "SW:zones_open=1,zone_append=true,queue_depth=8,io_size=4096,count=4000", 200, 2);
  EXPECT_EQ(totals.recovered, 200u);
  EXPECT_EQ(totals.lost, 0u);
  EXPECT_GT(ssd.ftl().stats().padding_pages, 0u);
}

TEST(ZonedData, AZonedDeviceWhoseZonesAreAllOfflineReportsEndOfLife) {
  // L8: exit 0 with every zone offline, end_of_life false.
  const auto dir = testing::temp_dir_for_this_test("i51-");
  std::string printed;
  const auto out = run_tiny(dir, "eol",
                            sim_options("SW:zones_open=2,io_size=65536,count=3000,queue_depth=8",
                                        zoned({"geometry.pe_cycles=3"})),
                            &printed);
  EXPECT_TRUE(summary_of(out)["lifetime"]["end_of_life"].get<bool>());
  EXPECT_NE(printed.find("DEVICE END OF LIFE"), std::string::npos) << printed;
}

TEST(ZonedData, ZoneCommandsOnAConventionalDeviceAreRefusedAloneAndAsTenants) {
  // H4: appends and resets were served as reads of nothing, exit 0.
  const auto dir = testing::temp_dir_for_this_test("i51-");
  const std::string plan = "SW:zones_open=1,zone_size=1MiB,zone_append=true,io_size=16384,count=100";
  const std::string alone = error_of([&] { run_tiny(dir, "alone", sim_options(plan)); });
  EXPECT_NE(alone.find("this device is not zoned"), std::string::npos) << alone;
  auto options = sim_options("");
  options.config = testing::preset("tiny");
  options.outdir = (dir / "tenants").string();
  std::ostringstream out;
  const std::string tenants =
      error_of([&] { run_sim_or_replay(options, {plan, "RR:count=10"}, TraceOptions{}, out); });
  EXPECT_NE(tenants.find("this device is not zoned"), std::string::npos) << tenants;
  // Zones written in order with no zone command still run.
  EXPECT_NO_THROW(run_tiny(dir, "plain",
                           sim_options("SW:zones_open=1,zone_size=1MiB,zone_reset=false,"
                                       "io_size=16384,count=100")));
}

TEST(ZonedData, ZoneWorkloadsRunAsTenantsOnAZonedDevice) {
  // M2: "zones_open needs a zoned device" on a zoned device.
  const auto dir = testing::temp_dir_for_this_test("i51-");
  auto options = sim_options("", zoned());
  options.config = testing::preset("tiny");
  options.outdir = (dir / "t").string();
  std::ostringstream out;
  run_sim_or_replay(options, {"SW:zones_open=1,io_size=16384,count=100", "RR:count=10"},
                    TraceOptions{}, out);
  const auto summary = summary_of(dir / "t");
  EXPECT_GT(summary["zones"]["resets"].get<int>(), 0);
  EXPECT_EQ(summary["tenants"].size(), 2u);
}

TEST(ZonedData, APlansZoneGeometryMustBeTheDevices) {
  // L1: a capacity beyond the zone, or another zone size, ran with refusals.
  const auto dir = testing::temp_dir_for_this_test("i51-");
  const std::string capacity = error_of([&] {
    run_tiny(dir, "c",
             sim_options("SW:zones_open=1,zone_capacity=1MiB,io_size=16384,count=200", zoned()));
  });
  EXPECT_NE(capacity.find("zone_capacity 1 MiB is more than the device's zone capacity"),
            std::string::npos)
      << capacity;
  const std::string size = error_of([&] {
    run_tiny(dir, "s",
             sim_options("SW:zones_open=1,zone_size=512KiB,io_size=16384,count=200", zoned()));
  });
  EXPECT_NE(size.find("is not the device's zone size"), std::string::npos) << size;
}

TEST(ZonedData, TheHostLogNeedsTwoActiveZones) {
  // M4: refused mid-run (exit 3) instead of when the config is read.
  const std::string message = error_of([] {
    Ssd ssd(load_config(testing::preset("tiny"),
                        zoned({"host.log.overprovisioning=0.12", "ftl.max_active_zones=1"})));
  });
  EXPECT_NE(message.find("ftl.max_active_zones = 1"), std::string::npos) << message;
  // An open limit of 1 is served (implicit close).
  const auto dir = testing::temp_dir_for_this_test("i51-");
  auto options = sim_options("RW:count=3000,queue_depth=8",
                             zoned({"host.log.overprovisioning=0.12", "ftl.max_open_zones=1"}));
  options.verify = true;
  EXPECT_EQ(summary_of(run_tiny(dir, "open1", options))["zones"]["refused"], 0);
}

TEST(ZonedData, TheHostLogServesSectorIo) {
  // M5: 512-byte I/O was refused at the first request; real traces are
  // sector-aligned. Read-modify-write, verified end to end.
  const auto dir = testing::temp_dir_for_this_test("i51-");
  const std::vector<std::string> log = zoned({"host.log.overprovisioning=0.12"});
  auto options = sim_options("RW:count=2000,io_size=512", log);
  options.verify = true;
  const auto summary = summary_of(run_tiny(dir, "sectors", options));
  EXPECT_EQ(summary["zones"]["refused"], 0);
  EXPECT_GT(summary["verification"]["pages_checked"].get<int>(), 0);
  for (const char* trace : {"synthetic.csv", "web-server.csv.gz"}) {
    auto replay = sim_options("", log);
    replay.config = testing::preset("tiny");
    replay.outdir = (dir / trace).string();
    replay.verify = true;
    std::ostringstream out;
    run_sim_or_replay(replay,
                      {std::string("trace:") + SSDLAB_SOURCE_DIR + "/traces/examples/" + trace},
                      TraceOptions{}, out);
    EXPECT_EQ(summary_of(dir / trace)["zones"]["refused"], 0) << trace;
  }
}

TEST(ZonedData, TraceInfoWarnsThatAZonedDeviceRefusesTheTrace) {
  // L16: "no warnings" for a trace a zoned device refuses nearly whole.
  TraceInfoOptions options;
  options.path = std::string(SSDLAB_SOURCE_DIR) + "/traces/examples/synthetic.csv";
  options.config = std::string(SSDLAB_SOURCE_DIR) + "/configs/zns.toml";
  std::ostringstream out;
  run_trace_info(options, out);
  EXPECT_NE(out.str().find("warning: the device is zoned"), std::string::npos) << out.str();
}

// --verify checks reads on every FTL: a plan writes and reads back, and the
// summary counts the page reads checked.
class VerifiedReads : public ::testing::TestWithParam<std::string> {};

TEST_P(VerifiedReads, AreCountedOnEveryFtl) {
  const std::string& type = GetParam();
  const auto dir = testing::temp_dir_for_this_test("i51-");
  std::vector<std::string> overrides;
  std::string workload = "RR:count=200";  // its target is written first (prefill)
  if (type == "zoned" || type == "zoned-host-log") {
    overrides = zoned(type == "zoned" ? std::vector<std::string>{}
                                      : std::vector<std::string>{"host.log.overprovisioning=0.12"});
    if (type == "zoned") {
      // A zoned device is not prefilled: two zones written, then read back.
      testing::write_file(dir / "plan.toml",
                          "[[experiment]]\nname = \"w\"\npattern = \"SW\"\nzones_open = 2\n"
                          "io_size = 16384\ncount = 34\n\n[[experiment]]\nname = \"r\"\n"
                          "pattern = \"SR\"\nzones_open = 2\nio_size = 16384\ncount = 32\n");
      workload = (dir / "plan.toml").string();
    }
  } else {
    overrides = {"ftl.type=\"" + type + "\""};
  }
  auto options = sim_options(workload, overrides);
  options.verify = true;
  const auto summary = summary_of(run_tiny(dir, "v", options));
  const std::uint64_t checked = summary["verification"]["pages_checked"];
  // Every page read is checked: 200 reads of 4 KiB, or 32 of 16 KiB.
  EXPECT_GE(checked, type == "zoned" ? 32u * 4 : 200u) << type;
}

INSTANTIATE_TEST_SUITE_P(ZonedData, VerifiedReads,
                         ::testing::Values("page-mapped", "dftl", "block-mapped", "bast", "fast",
                                           "example", "zoned", "zoned-host-log"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

}  // namespace
}  // namespace ssdlab::sim
