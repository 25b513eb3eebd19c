// Power cuts with the controller model and ganging: a volatile write buffer
// loses exactly its acknowledged pages (which read back their previous flash
// version), a power-protected one flushes them on hold-up energy; pending
// preemptible cleaning rounds are undone like commands in flight; a
// synchronous gang's copy-back merges recover; checkpoints are refused.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/rng.h"
#include "power_cut_support.h"
#include "run_support.h"
#include "sim/controller/power_cut.h"
#include "sim/controller/ssd.h"
#include "sim/engine/replay.h"
#include "sim/engine/simulator.h"
#include "sim/state/power_cut_plan.h"
#include "test_support.h"
#include "trace_support.h"
#include "workloads/plan.h"

namespace ssdlab::sim {
namespace {

using testing_power::CutTotals;

// The controller cases all use seed 5.
CutTotals run_with_cuts(Ssd& ssd, const std::string& workload, std::uint64_t cuts) {
  return testing_power::run_with_cuts(ssd, workload, cuts, 5);
}

DeviceConfig tiny(std::vector<std::string> overrides) {
  return load_config(testing::preset("tiny"), overrides);
}

// Tiny with a 64 KiB write-back buffer, power-protected or not.
DeviceConfig write_back(bool protected_buffer) {
  return tiny(
      {"controller.write_buffer=65536", std::string("controller.write_buffer_power_protected=") +
                                            (protected_buffer ? "true" : "false")});
}

// One acknowledged write sits in a write-back buffer when the power fails.
struct BufferedWriteCut {
  PowerCutReport report;
  flash::Ppn before = flash::kNoPage, after = flash::kNoPage;
};
BufferedWriteCut cut_after_one_buffered_write(bool protected_buffer) {
  Ssd ssd(write_back(protected_buffer));
  ssd.enable_power_cuts();
  ssd.prefill(0, ssd.logical_bytes());
  const std::uint64_t page = ssd.ftl().logical_page_size();
  BufferedWriteCut result;
  result.before = ssd.ftl().locate(5);
  const TimeNs acknowledged = *ssd.start({5 * page, static_cast<std::uint32_t>(page), IoMode::kWrite}, 0);
  EXPECT_EQ(ssd.write_buffer()->held(), 1u);  // acknowledged from DRAM, not on flash
  result.report = ssd.power_cut(acknowledged + 1);
  result.after = ssd.ftl().locate(5);
  EXPECT_EQ(ssd.write_buffer()->held(), 0u);  // DRAM is empty after the mount
  return result;
}

TEST(PowerCutWriteBuffer, VolatileBufferLosesItsPagesWhichReadBackTheirFlashVersion) {
  const BufferedWriteCut cut = cut_after_one_buffered_write(false);
  EXPECT_EQ(cut.report.buffered_writes_lost, 1u);
  EXPECT_EQ(cut.report.hold_up_ns, 0);
  // The previous version on flash, intact (recovered() checks every page).
  EXPECT_TRUE(cut.report.recovered()) << cut.report.first_problem;
  EXPECT_EQ(cut.after, cut.before);
}

TEST(PowerCutWriteBuffer, ProtectedBufferFlushesOnHoldUpAndChargesItToTheMount) {
  const BufferedWriteCut cut = cut_after_one_buffered_write(true);
  EXPECT_EQ(cut.report.buffered_writes_lost, 0u);
  EXPECT_TRUE(cut.report.recovered()) << cut.report.first_problem;
  EXPECT_NE(cut.after, cut.before);  // the new version reached flash
  const DeviceConfig config = tiny({});
  EXPECT_GE(cut.report.hold_up_ns, config.timing.page_program_latency(config.geometry));
  EXPECT_EQ(cut.report.mount_done - cut.report.at,
            cut.report.hold_up_ns + cut.report.scan_ns + cut.report.merge_ns);
}

TEST(PowerCutWriteBuffer, RandomCutsLoseOnlyBufferedWritesUnlessProtected) {
  const std::string workload = "RW:io_size=12288,count=3000,queue_depth=4";
  for (const bool protected_buffer : {false, true}) {
    SCOPED_TRACE(protected_buffer);
    Ssd ssd(write_back(protected_buffer));
    ssd.enable_power_cuts();
    ssd.prefill(0, ssd.logical_bytes());
    const CutTotals totals = run_with_cuts(ssd, workload, 30);
    EXPECT_EQ(totals.recovered, 30u);
    if (protected_buffer) {
      EXPECT_EQ(totals.buffered_lost, 0u);
      EXPECT_GT(totals.hold_up, 0);
    } else {
      EXPECT_GT(totals.buffered_lost, 0u);
      EXPECT_EQ(totals.hold_up, 0);
    }
    EXPECT_NO_THROW(ssd.ftl().check_invariants());
  }
}

// Map units (4 KiB in 16 KiB pages) packed by a write buffer: a page's units
// reach flash together, the recorder follows units and the mount rebuilds
// the map per unit from the OOB area. Random 4 KiB writes through cleaning,
// cut 30 times: no acknowledged write lost with a protected buffer or
// without one; a volatile buffer loses only what it held (counted).
TEST(PowerCutMapUnits, RandomCutsLoseNoAcknowledgedWrite) {
  const std::string workload = "RW:io_size=4096,count=6000,queue_depth=4";
  for (const char* buffer : {"none", "protected", "volatile"}) {
    SCOPED_TRACE(buffer);
    std::vector<std::string> sets{"geometry.page_size=16KiB", "ftl.stripe_size=16KiB",
                                  "ftl.logical_page_size=4KiB"};
    if (std::string(buffer) != "none") {
      sets.push_back("controller.write_buffer=131072");
      sets.push_back(std::string("controller.write_buffer_power_protected=") +
                     (std::string(buffer) == "protected" ? "true" : "false"));
    }
    Ssd ssd(load_config(testing::preset("tiny-tlc"), sets));
    ssd.enable_power_cuts();
    ssd.prefill(0, ssd.logical_bytes());
    const CutTotals totals = run_with_cuts(ssd, workload, 30);
    EXPECT_EQ(totals.recovered, 30u);
    if (std::string(buffer) == "volatile")
      EXPECT_GT(totals.buffered_lost, 0u);
    else
      EXPECT_EQ(totals.buffered_lost, 0u);
    EXPECT_GT(ssd.ftl().stats().blocks_cleaned, 0u);
    EXPECT_NO_THROW(ssd.ftl().check_invariants());
  }
}

// DFTL with map units: data and translation units share the unit pages of
// their kinds, cleaning's victims are erased once their moved units are on
// flash, and a mount rebuilds both from the OOB area. Writes and trims
// (a fifth) through cleaning, cut 30 times; on the TLC device through a
// protected buffer (acknowledged on arrival, nothing lost).
TEST(PowerCutMapUnits, DftlCutsLoseNoAcknowledgedWriteOrTrim) {
  for (const char* preset : {"tiny", "tiny-tlc"}) {
    SCOPED_TRACE(preset);
    std::vector<std::string> sets{"ftl.type=\"dftl\"", "geometry.page_size=16KiB",
                                  "ftl.stripe_size=16KiB", "ftl.logical_page_size=4KiB"};
    const bool buffered = std::string(preset) == "tiny-tlc";
    if (buffered)
      sets.insert(sets.end(), {"controller.write_buffer=131072",
                               "controller.write_buffer_power_protected=true"});
    Ssd ssd(load_config(testing::preset(preset), sets));
    ASSERT_EQ(ssd.core().map_units_per_page(), 4u);
    ssd.enable_power_cuts();
    ssd.prefill(0, ssd.logical_bytes());
    const CutTotals totals =
        run_with_cuts(ssd, "RW:io_size=4096,count=6000,queue_depth=4,trim_share=0.2", 30);
    EXPECT_EQ(totals.recovered, 30u);
    EXPECT_EQ(totals.lost, 0u);
    EXPECT_EQ(totals.buffered_lost, 0u);
    EXPECT_GT(buffered ? totals.checked : totals.torn, 0u);
    EXPECT_GT(ssd.ftl().stats().blocks_cleaned, 0u);
    EXPECT_GT(ssd.ftl().stats().translation_pages_written, 0u);
    EXPECT_GT(ssd.ftl().stats().trimmed_pages, 0u);
    EXPECT_NO_THROW(ssd.ftl().check_invariants());
  }
}

// The same in trace replay, with a protected buffer: an open-loop trace of
// 4 KiB-unit writes (1 to 4 units), reads and trims in bursts with idle gaps
// (which flush the buffer, padding), cut 40 times.
TEST(PowerCutMapUnits, TraceReplayLosesNoAcknowledgedWrite) {
  Ssd ssd(load_config(testing::preset("tiny-tlc"),
                      {"geometry.page_size=16KiB", "ftl.stripe_size=16KiB",
                       "ftl.logical_page_size=4KiB", "controller.write_buffer=131072",
                       "controller.write_buffer_power_protected=true"}));
  ssd.enable_power_cuts();
  ssd.prefill(0, ssd.logical_bytes());
  Rng rng(53);
  std::vector<traces::TraceRecord> records;
  TimeNs time = 0;
  const std::uint64_t units = ssd.logical_bytes() / 4096;
  for (int k = 0; k < 4000; ++k) {
    time += k % 64 == 63 ? 20'000'000 : 50'000;
    const std::uint64_t draw = rng.uniform(10);
    const IoMode mode = draw < 7 ? IoMode::kWrite : draw < 9 ? IoMode::kRead : IoMode::kTrim;
    const auto size = static_cast<std::uint32_t>(1 + rng.uniform(mode == IoMode::kTrim ? 16 : 4));
    records.push_back({time, rng.uniform(units - size) * 4096, size * 4096, mode, 0});
  }
  testing::VectorReader trace(records);
  Simulator simulator(ssd, nullptr);
  simulator.plan_power_cuts(parse_power_cuts({"random:40"}, records.size(), 1));
  const ReplayResult result = replay(simulator, trace, ReplaySettings{"mixed"});  // a loss throws
  const CutTotals totals = testing_power::totals_of(simulator);
  EXPECT_EQ(totals.cuts, 40u);
  EXPECT_EQ(totals.recovered, 40u);
  EXPECT_EQ(totals.lost, 0u);
  EXPECT_EQ(result.run.stats.count, records.size());
  EXPECT_GT(result.trims, 0u);
  EXPECT_GT(ssd.ftl().stats().padding_pages, 0u);  // the idle flushes padded
}

// Bursts with idle pauses: preemptible rounds start in the pauses and are
// preempted by the next burst, so cuts find rounds partly reserved.
// With map units too (4 KiB in 16 KiB pages): a round's moves are units,
// recorded as such, each completing with the page move that carries it.
TEST(PowerCutBackgroundCleaning, PendingPreemptibleRoundsAreUndoneAndRecover) {
  for (const bool units : {false, true}) {
    SCOPED_TRACE(units);
    std::vector<std::string> sets{"ftl.clean_high_water=0.2",
                                  "controller.background_cleaning_preempt=true"};
    if (units)
      sets.insert(sets.end(), {"geometry.page_size=16KiB", "ftl.stripe_size=16KiB",
                               "ftl.logical_page_size=4KiB"});
    Ssd ssd(tiny(sets));
    ssd.enable_power_cuts();
    ssd.prefill(0, ssd.logical_bytes());
    const CutTotals totals =
        run_with_cuts(ssd, "RW:io_size=4096,count=6000,queue_depth=1,burst=50,pause_us=3000", 40);
    EXPECT_EQ(totals.recovered, 40u);
    EXPECT_GT(ssd.core().cleaning_time().background_ns, 0);
    EXPECT_GT(totals.erases_undone + totals.torn, 0u);
    EXPECT_NO_THROW(ssd.ftl().check_invariants());
  }
}

// Sub-page writes on a synchronous gang are copy-backs that program the
// host's data (flash/command.h, host_data): cuts tear such merges too.
TEST(PowerCutGang, SynchronousGangCopyBackMergesRecover) {
  Ssd ssd(load_config(testing::preset("agrawal-gang8-shared-control-sync"),
                      {"geometry.blocks_per_plane=32"}));
  ssd.enable_power_cuts();
  ssd.prefill(0, ssd.logical_bytes());
  const CutTotals totals = run_with_cuts(ssd, "RW:io_size=4096,count=3000,queue_depth=4", 40);
  EXPECT_EQ(totals.recovered, 40u);
  EXPECT_GT(totals.torn, 0u);
  EXPECT_GT(ssd.ftl().stats().rmw_pages_read, 0u);  // merges ran
  EXPECT_GT(ssd.core().timeline().stats().commands[static_cast<std::size_t>(flash::Op::kCopyBack)],
            0u);
}

TEST(PowerCutCli, PrintsBufferedWritesLost) {
  const auto dir = testing::temp_dir_for_this_test("power-cut-buffer");
  auto options = testing::sim_options("RW:io_size=4096,count=2000,queue_depth=2",
                                      {"controller.write_buffer=65536"});
  options.power_cuts = {"random:5"};
  options.seed = 4;
  std::string printed;
  const auto out = testing::run_tiny(dir, "out", options, &printed);
  const auto cuts = testing::summary_of(out)["power_cuts"];
  const auto lost = cuts.at("buffered_writes_lost").get<std::uint64_t>();
  EXPECT_GT(lost, 0u);
  EXPECT_NE(printed.find(fmt::format("{} buffered writes lost", lost)), std::string::npos)
      << printed;
  if (const auto checked = testing::check_output(out)) {
    EXPECT_EQ(checked->exit_code, 0) << checked->output;
  }
}

TEST(PowerCutConfig, RefusesANonBooleanProtectedFlag) {
  const auto result = testing::in_process([](std::ostream& out) {
    run_config(testing::preset("tiny"), {"controller.write_buffer_power_protected=3"}, out);
  });
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_NE(result.output.find("write_buffer_power_protected"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace ssdlab::sim
