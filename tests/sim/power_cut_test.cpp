// Power-loss simulation: every FTL mounts again from its OOB alone and loses
// no acknowledged write; the scan time follows its formula; a recovery that
// ignores sequence numbers is caught; bad --power-cut-at values are refused.
#include "sim/controller/power_cut.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "power_cut_support.h"
#include "run_support.h"
#include "sim/controller/ssd.h"
#include "sim/engine/simulator.h"
#include "sim/state/power_cut_plan.h"
#include "test_support.h"
#include "workloads/plan.h"

namespace ssdlab::sim {
namespace {

using testing_power::CutTotals;
using testing_power::run_with_cuts;

DeviceConfig tiny(const std::string& ftl, std::vector<std::string> overrides = {}) {
  overrides.push_back("ftl.type=\"" + ftl + "\"");
  return load_config(testing::preset("tiny"), overrides);
}

workloads::ExperimentSpec inline_spec(const std::string& text) {
  return workloads::parse_inline(text).experiments.front();
}

// Cuts the power at `at` under `ftl`, mounts it again (the OOB scan) and
// checks every logical page against what `recorder` saw acknowledged.
PowerCutReport cut_mount_and_check(ftl::Ftl& ftl, PowerCutRecorder& recorder, TimeNs at) {
  flash::NandArray& nand = *ftl.flash_for_power_cut();
  PowerCutReport report;
  recorder.cut(at, nand, report);
  flash::CommandList commands;
  ftl::RecoveryReport recovery;
  ftl.recover(ftl::RecoveryPolicy::kSequenceNumbers, commands, recovery);
  recorder.apply({}, commands, nand.take_erased_images(), Acknowledge::kAtOnce);
  recorder.check(ftl, report);
  return report;
}

class EveryFtl : public ::testing::TestWithParam<std::string> {};

// Random cuts during random multi-page writes at queue depth 4 on a device
// kept full (cleaning and merges run): every cut tears programs, some
// interrupt erases (mid-cleaning, mid-merge), all recover.
TEST_P(EveryFtl, RecoversEveryAcknowledgedWriteAfterRandomCuts) {
  const bool example = GetParam() == "example";
  Ssd ssd(tiny(GetParam()));
  ssd.enable_power_cuts();
  if (!example) ssd.prefill(0, ssd.logical_bytes());  // cleaning and merges from the start
  const std::string workload = example ? "RW:io_size=8192,count=600,queue_depth=4"
                                       : "RW:io_size=12288,count=3000,queue_depth=4";
  const CutTotals totals = run_with_cuts(ssd, workload, 40, 7);
  EXPECT_EQ(totals.cuts, 40u);
  EXPECT_EQ(totals.recovered, 40u);
  EXPECT_GT(totals.torn, 0u);
  EXPECT_GT(totals.in_flight, 0u);
  EXPECT_EQ(totals.checked, 40 * ssd.ftl().logical_pages());
  if (!example) {
    EXPECT_GT(ssd.ftl().stats().erases, 0u);
    EXPECT_GT(totals.erases_undone, 0u);
  }
  EXPECT_NO_THROW(ssd.ftl().check_invariants());
}

INSTANTIATE_TEST_SUITE_P(PowerCut, EveryFtl,
                         ::testing::Values("page-mapped", "block-mapped", "bast", "fast",
                                           "example"));

// The same cuts with a summary page per block (ftl.summary_page, Agrawal et
// al. §3.4): the mount reads it for each closed block, the OOB of the open
// ones (and of a block whose summary page the cut tore), and loses nothing.
class SummaryPageFtl : public ::testing::TestWithParam<std::string> {};

TEST_P(SummaryPageFtl, RecoversEveryAcknowledgedWriteAfterRandomCuts) {
  Ssd ssd(tiny(GetParam(), {"ftl.summary_page=true"}));
  ssd.enable_power_cuts();
  ssd.prefill(0, ssd.logical_bytes());
  const CutTotals totals = run_with_cuts(ssd, "RW:io_size=12288,count=3000,queue_depth=4", 40, 7);
  EXPECT_EQ(totals.recovered, 40u);
  EXPECT_GT(totals.torn, 0u);
  EXPECT_GT(totals.erases_undone, 0u);
  EXPECT_EQ(totals.checked, 40 * ssd.ftl().logical_pages());
  EXPECT_GT(ssd.ftl().stats().summary_pages_written, 0u);
  EXPECT_NO_THROW(ssd.ftl().check_invariants());
}

INSTANTIATE_TEST_SUITE_P(PowerCut, SummaryPageFtl, ::testing::Values("page-mapped", "dftl"));

TEST(PowerCut, TornLogicalPagesOfTwoFlashPagesResolveToOneVersion) {
  Ssd ssd(tiny("page-mapped", {"ftl.logical_page_size=\"8KiB\"", "ftl.stripe_size=\"8KiB\""}));
  ssd.enable_power_cuts();
  ssd.prefill(0, ssd.logical_bytes());
  const CutTotals totals = run_with_cuts(ssd, "RW:io_size=16384,count=2000,queue_depth=4", 40, 3);
  EXPECT_EQ(totals.recovered, 40u);
  EXPECT_GT(totals.torn, 0u);
}

TEST(PowerCut, SameSeedAndCutsGiveByteIdenticalIoCsv) {
  auto run = [](const std::string& name) {
    const auto dir = testing::temp_dir(name);
    {
      Ssd ssd(tiny("bast"));
      ssd.enable_power_cuts();
      IoLog log(dir / "io.csv");
      Simulator simulator(ssd, &log);
      const auto spec = inline_spec("RW:io_size=4096,count=1500,queue_depth=2");
      simulator.plan_power_cuts(parse_power_cuts({"random:10", "5ms"}, spec.count, 11));
      simulator.run(spec, 0, 11);
      log.commit();
    }
    return testing::read_file(dir / "io.csv");
  };
  EXPECT_EQ(run("cut-a"), run("cut-b"));
}

// What the scan model charges, computed here from its definition: per block
// its written pages plus the first erased one; per channel the longer of its
// busiest die's array reads and its OOB transfers, plus one transfer.
TEST(PowerCut, ScanTimeIsPagesReadTimesReadAndOobTransferPerChannel) {
  Ssd ssd(tiny("page-mapped"));
  ssd.enable_power_cuts();
  const auto& g = ssd.config().geometry;
  const auto& t = ssd.config().timing;
  const ScanCost empty = scan_cost(ssd.ftl().nand(), t);
  EXPECT_EQ(empty.pages_read, g.blocks());
  const std::uint64_t die_pages = std::uint64_t{g.planes_per_die} * g.blocks_per_plane;
  const TimeNs oob = t.transfer_ns(g.oob_size);
  const std::uint64_t dies_per_channel = g.packages_per_channel * g.dies_per_package;
  EXPECT_EQ(empty.scan_ns,
            std::max<TimeNs>(static_cast<TimeNs>(die_pages) * (t.read_ns + t.command_ns),
                             static_cast<TimeNs>(die_pages * dies_per_channel) * oob) +
                oob);
  ssd.prefill(0, ssd.logical_bytes());
  std::uint64_t expected = 0;
  for (flash::BlockId block = 0; block < g.blocks(); ++block) {
    const std::uint32_t written = ssd.ftl().nand().write_pointer(block);
    expected += written + (written < g.pages_per_block ? 1 : 0);
  }
  const ScanCost full = scan_cost(ssd.ftl().nand(), t);
  EXPECT_EQ(full.pages_read, expected);
  EXPECT_GT(full.scan_ns, empty.scan_ns);
  const PowerCutReport cut = ssd.power_cut(0);
  EXPECT_EQ(cut.pages_scanned, expected);
  EXPECT_EQ(cut.scan_ns, full.scan_ns);
  EXPECT_EQ(cut.mount_done, cut.scan_ns + cut.merge_ns);
}

// Overwrites with cleaning, then a cut: trusting block order instead of the
// OOB sequence numbers brings stale versions back (and the check sees it).
TEST(PowerCut, RecoveryIgnoringSequenceNumbersLosesWrites) {
  for (const auto policy :
       {ftl::RecoveryPolicy::kSequenceNumbers, ftl::RecoveryPolicy::kLastInBlockOrder}) {
    Ssd ssd(tiny("page-mapped"));
    ssd.enable_power_cuts();
    ssd.prefill(0, ssd.logical_bytes());
    Rng rng(5);
    TimeNs now = 0;
    for (int i = 0; i < 4000; ++i)
      now = *ssd.start({rng.uniform(ssd.logical_bytes() / 4096) * 4096, 4096, IoMode::kWrite}, now);
    ASSERT_GT(ssd.ftl().stats().blocks_cleaned, 0u);
    const PowerCutReport cut = ssd.power_cut(now, policy);
    if (policy == ftl::RecoveryPolicy::kSequenceNumbers) {
      EXPECT_TRUE(cut.recovered()) << cut.first_problem;
    } else {
      EXPECT_GT(cut.lost_writes, 0u);
      EXPECT_FALSE(cut.first_problem.empty());
    }
  }
}

// Trims are persisted as records: a trimmed page does not come back after a
// cut, and one written again after its trim does.
TEST(PowerCut, TrimmedPagesStayTrimmedAfterRecovery) {
  for (const std::string name : {"page-mapped", "block-mapped", "bast", "fast", "example"}) {
    SCOPED_TRACE(name);
    const DeviceConfig config = tiny(name);
    const auto ftl = ftl::make_ftl({config.geometry, config.ftl, 0});
    flash::NandArray& nand = *ftl->flash_for_power_cut();
    nand.record_sequence_numbers();
    const std::uint32_t ppl = config.ftl.logical_page_size / config.geometry.page_size;
    PowerCutRecorder recorder(config.geometry, ftl->logical_pages(), ppl);
    flash::CommandList commands;
    auto write = [&](ftl::Lpn first, std::uint32_t count) {
      const ftl::PageRange range{first, count};
      commands.clear();
      ftl->write(range, commands);
      recorder.apply(ftl::PageRuns{&range, 1}, commands, nand.take_erased_images(), Acknowledge::kAtOnce);
    };
    write(0, 40);
    write(10, 5);
    const ftl::PageRange trimmed{8, 20};
    commands.clear();
    ftl->trim(trimmed, commands);
    recorder.apply({}, commands, nand.take_erased_images(), Acknowledge::kAtOnce);
    recorder.trimmed(trimmed);
    write(12, 2);
    const PowerCutReport report = cut_mount_and_check(*ftl, recorder, 0);
    EXPECT_TRUE(report.recovered()) << report.first_problem;
    EXPECT_FALSE(ftl->is_mapped(9));
    EXPECT_FALSE(ftl->is_mapped(27));
    EXPECT_TRUE(ftl->is_mapped(12));
    EXPECT_TRUE(ftl->is_mapped(7));
    EXPECT_TRUE(ftl->is_mapped(28));
    EXPECT_NO_THROW(ftl->check_invariants());
  }
}

// A write and a trim of one page in flight together (the review's H2): the
// device took the write first, then the trim, and the write completes after
// the trim. The page is trimmed, cut or no cut: the write's late completion
// does not make its data the host's again.
TEST(PowerCut, AWriteCompletingAfterATrimOfItsPageIsNotExpectedBack) {
  for (const std::string name : {"page-mapped", "dftl", "block-mapped", "bast", "fast",
                                 "example"}) {
    SCOPED_TRACE(name);
    const DeviceConfig config = tiny(name);
    const auto ftl = ftl::make_ftl({config.geometry, config.ftl, 0});
    flash::NandArray& nand = *ftl->flash_for_power_cut();
    nand.record_sequence_numbers();
    PowerCutRecorder recorder(config.geometry, ftl->logical_pages(), 1);
    flash::CommandList commands;
    const ftl::PageRange page{5, 1};
    ftl->write(page, commands);
    const std::uint64_t first = recorder.apply(ftl::PageRuns{&page, 1}, commands, nand.take_erased_images());
    const std::size_t write_commands = commands.size();
    recorder.host_write_done(3000);  // acknowledged at 3 us, after the trim below
    commands.clear();
    ftl->trim(page, commands);
    recorder.apply({}, commands, nand.take_erased_images(), Acknowledge::kAtOnce);
    recorder.trimmed(page);
    for (std::size_t i = 0; i < write_commands; ++i) recorder.completes(first + i, 3000);
    // The write has completed by the cut: it settles before the cut.
    const PowerCutReport report = cut_mount_and_check(*ftl, recorder, 5000);
    EXPECT_TRUE(report.recovered()) << report.first_problem;
    EXPECT_FALSE(ftl->is_mapped(5));
    EXPECT_EQ(report.pages_checked, ftl->logical_pages());
  }
}

// The review's H2 end to end: trims and writes of a 1 MiB hot range at queue
// depth 4, with and without a write buffer, every FTL, 30 random cuts.
TEST(PowerCut, TrimsInFlightAtQueueDepthFourLoseNoAcknowledgedWrite) {
  for (const std::string name : {"page-mapped", "dftl", "block-mapped", "bast", "fast"}) {
    for (const bool buffer : {false, true}) {
      SCOPED_TRACE(name + (buffer ? " with a write buffer" : ""));
      Ssd ssd(buffer ? tiny(name, {"controller.write_buffer=\"64KiB\""}) : tiny(name));
      ssd.enable_power_cuts();
      ssd.prefill(0, ssd.logical_bytes());
      const CutTotals totals = run_with_cuts(
          ssd, "RW:io_size=4096,target_size=1MiB,trim_share=0.3,count=3000,queue_depth=4", 30, 3);
      EXPECT_EQ(totals.cuts, 30u);
      EXPECT_EQ(totals.recovered, 30u);
      EXPECT_GT(totals.torn, 0u);
    }
  }
}

TEST(PowerCutPlan, ParsesIoNumbersTimesAndRandomPoints) {
  const PowerCutPlan plan = parse_power_cuts({"12", "1.5s", "250ms", "300us", "7ns"}, 100, 1);
  ASSERT_EQ(plan.ios.size(), 1u);
  EXPECT_EQ(plan.ios[0].io, 12u);
  EXPECT_DOUBLE_EQ(plan.ios[0].fraction, 0.5);
  EXPECT_EQ(plan.times, (std::vector<TimeNs>{1'500'000'000, 250'000'000, 300'000, 7}));
  const PowerCutPlan random = parse_power_cuts({"random:100"}, 100, 1);
  std::set<std::uint64_t> ios;
  for (const auto& cut : random.ios) ios.insert(cut.io);
  EXPECT_EQ(ios.size(), 100u);  // distinct: every I/O once
}

TEST(PowerCutPlan, RefusesBadValues) {
  for (const std::string bad :
       {"random:0", "random:x", "random:101", "100", "-1", "1.5", "1.5h", "ms", "abc", "1e400s"}) {
    SCOPED_TRACE(bad);
    EXPECT_THROW(parse_power_cuts({bad}, 100, 1), Error);
  }
  EXPECT_THROW(parse_power_cuts({"5", "5"}, 100, 1), Error);
}

TEST(PowerCutCli, WritesPowerCutsToTheSummaryAndConformingOutputs) {
  const auto parent = testing::temp_dir_for_this_test("power-cut");
  auto options =
      testing::sim_options("RW:io_size=4096,count=2000,queue_depth=2", {"ftl.type=\"fast\""});
  options.power_cuts = {"random:5", "3ms"};
  options.seed = 4;
  std::string printed;
  const auto dir = testing::run_tiny(parent, "out", options, &printed);
  EXPECT_NE(printed.find("power cuts: 6 (6 recovered, 0 acknowledged writes lost"),
            std::string::npos)
      << printed;
  const auto summary = nlohmann::json::parse(testing::read_file(dir / "summary.json"));
  const auto& cuts = summary.at("power_cuts");
  EXPECT_EQ(cuts.at("count"), 6);
  EXPECT_EQ(cuts.at("recovered"), 6);
  EXPECT_EQ(cuts.at("lost_writes"), 0);
  EXPECT_GT(cuts.at("scan_pages").get<std::uint64_t>(), 0u);
  EXPECT_GT(cuts.at("scan_time_us").get<double>(), 0.0);
  EXPECT_EQ(cuts.at("cuts").size(), 6u);
  if (const auto checked = testing::check_output(dir)) {
    EXPECT_EQ(checked->exit_code, 0) << checked->output;
  }
}

TEST(PowerCutCli, ReportsCutsPastTheEndOfTheWorkloadAsNotReached) {
  const auto parent = testing::temp_dir_for_this_test("power-cut-late");
  auto options = testing::sim_options("RW:io_size=4096,count=200");
  options.power_cuts = {"1000s", "20"};
  const auto dir = testing::run_tiny(parent, "out", options);
  const auto cuts = nlohmann::json::parse(testing::read_file(dir / "summary.json"))["power_cuts"];
  EXPECT_EQ(cuts.at("count"), 1);
  EXPECT_EQ(cuts.at("not_reached"), 1);
}

TEST(PowerCutCli, TraceReplaySurvivesRandomCuts) {
  // The one host loop cuts traces as it cuts plans: every in-flight request
  // is resubmitted after the mount, and no acknowledged write is lost.
  const auto dir = testing::temp_dir_for_this_test("power-cut-trace");
  std::string lines;
  for (int k = 0; k < 400; ++k)
    lines += fmt::format("{},hm,0,{},{},4096,26\n", 128166372003061629LL + 1000LL * k,
                         k % 5 == 4 ? "Read" : "Write", (k * 7919 % 1500) * 4096);
  const auto trace = testing::write_file(dir / "t.csv", lines);
  auto options = testing::sim_options("trace:" + trace.string());
  options.power_cuts = {"random:25"};
  testing::run_tiny(dir, "out", options);
  const auto summary =
      nlohmann::json::parse(testing::read_file(dir / "out" / "summary.json"));
  EXPECT_EQ(summary["power_cuts"]["count"].get<int>() + summary["power_cuts"]["not_reached"].get<int>(), 25);
  EXPECT_GT(summary["power_cuts"]["count"].get<int>(), 0);
  EXPECT_EQ(summary["power_cuts"]["lost_writes"].get<int>(), 0);
  EXPECT_EQ(testing::csv_rows(testing::read_file(dir / "out" / "io.csv")).size(), 400u);
}

TEST(PowerCutCli, RefusesBadCombinationsWithOneClearLine) {
  const auto dir = testing::temp_dir("power-cut-bad");
  struct Case {
    std::string cut;
    bool verify;
    std::string message;
  };
  for (const Case& c :
       std::vector<Case>{{"soon", false, "--power-cut-at 'soon': expected an I/O number"},
                         {"100", false, "the workload issues only 100 I/Os"},
                         {"random:0", false, "random:K with K a positive"},
                         {"5", true, "power cuts and --verify cannot be combined"}}) {
    SCOPED_TRACE(c.cut);
    auto options = testing::sim_options("RW:io_size=4096,count=100");
    options.power_cuts = {c.cut};
    options.verify = c.verify;
    const std::string error = testing::error_of([&] { testing::run_tiny(dir, "out", options); });
    EXPECT_NE(error.find(c.message), std::string::npos) << error;
  }
}

}  // namespace
}  // namespace ssdlab::sim
