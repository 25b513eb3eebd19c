// `ssdlab sim -w trace:FILE` as a real process: the same trace in every format
// gives the same io.csv, outputs pass the checker, summary.json states how the
// trace was read and placed, and bad input is one line with exit status 1.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "sim/results/response_histogram.h"
#include "test_support.h"
#include "trace_support.h"

namespace {

namespace fs = std::filesystem;
namespace support = ssdlab::testing;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string Quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string Example(const std::string& name) {
  return std::string(SSDLAB_SOURCE_DIR) + "/traces/examples/" + name;
}

std::size_t LineCount(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

class ReplayCli : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = support::temp_dir_for_this_test("replay-cli-"); }

  // `ssdlab sim -w trace:TRACE` on the tiny preset into dir_/OUT.
  support::CommandResult Replay(const std::string& trace, const std::string& out,
                                const std::string& extra = "") {
    return support::run_ssdlab("sim -c " + Quote(support::preset("tiny")) + " -w " +
                               Quote("trace:" + trace) + " -o " + Quote((dir_ / out).string()) +
                               " " + extra);
  }
  std::string IoCsv(const std::string& out) { return support::read_file(dir_ / out / "io.csv"); }
  nlohmann::json Summary(const std::string& out) {
    return nlohmann::json::parse(support::read_file(dir_ / out / "summary.json"));
  }
  nlohmann::json TraceSummary(const std::string& out) {
    return Summary(out)["experiments"][0]["trace"];
  }

  fs::path dir_;
};

TEST_F(ReplayCli, TheSameTraceInEveryFormatGivesByteIdenticalIoCsv) {
  ASSERT_EQ(Replay(Example("synthetic.csv"), "msr").exit_code, 0);
  const std::string expected = IoCsv("msr");
  EXPECT_EQ(LineCount(expected), 201u);  // header and 200 requests
  for (const std::string format : {"disksim", "spc", "blkparse", "iolog", "mqsim"}) {
    SCOPED_TRACE(format);
    const auto result =
        Replay(Example("synthetic." + format), format, format == "mqsim" ? "--format mqsim" : "");
    ASSERT_EQ(result.exit_code, 0) << result.output;
    EXPECT_EQ(IoCsv(format), expected);
  }
}

TEST_F(ReplayCli, GzipTraceGivesTheSameIoCsvAsThePlainOne) {
  const std::string text = support::read_file(Example("synthetic.csv"));
  const auto gz = support::write_gzip(dir_ / "synthetic.csv.gz", text);
  ASSERT_EQ(Replay(Example("synthetic.csv"), "plain").exit_code, 0);
  const auto result = Replay(gz.string(), "gz");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("(msr, detected, gzip)"));
  EXPECT_EQ(IoCsv("gz"), IoCsv("plain"));
  EXPECT_EQ(TraceSummary("gz")["compression"], "gzip");
}

TEST_F(ReplayCli, OutputPassesTheOutputChecker) {
  for (const std::string mode : {"--mode open --speed 4", "--mode closed --qd 8"}) {
    SCOPED_TRACE(mode);
    ASSERT_EQ(Replay(Example("web-server.csv.gz"), "out", mode + " --limit 500").exit_code, 0);
    const auto checked = support::check_output(dir_ / "out");
    if (!checked) GTEST_SKIP() << "../shared/tools/check-output is not there";
    EXPECT_EQ(checked->exit_code, 0) << checked->output;
  }
}

TEST_F(ReplayCli, SummaryStatesHowTheTraceWasReadAndPlaced) {
  ASSERT_EQ(Replay(Example("synthetic.spc"), "out").exit_code, 0);
  const auto summary = Summary("out");
  const auto& experiment = summary["experiments"][0];
  EXPECT_EQ(experiment["name"], "synthetic");
  EXPECT_EQ(experiment["count"], 200);
  EXPECT_EQ(experiment["runs"][0]["count"], 200);
  EXPECT_TRUE(experiment["runs"][0].contains("p99_us"));
  EXPECT_TRUE(experiment["runs"][0]["device"].contains("write_amplification"));
  const auto& trace = experiment["trace"];
  EXPECT_EQ(trace["format"], "spc");
  EXPECT_EQ(trace["format_detected"], true);
  EXPECT_EQ(trace["mode"], "open");
  EXPECT_EQ(trace["speed"], 1.0);
  EXPECT_EQ(trace["map"], "modulo");
  EXPECT_EQ(trace["replayed"], 200);
  EXPECT_GT(summary["prefilled_pages"].get<int>(), 0);  // reads hit written pages

  ASSERT_EQ(Replay(Example("web-server.csv.gz"), "scaled", "--map scale --limit 100").exit_code, 0);
  const auto scaled = TraceSummary("scaled");
  EXPECT_EQ(scaled["map"], "scale");
  EXPECT_GT(scaled["trace_span_bytes"].get<std::uint64_t>(), 16u << 20);
  EXPECT_GT(scaled["remapped"].get<int>(), 0);
}

TEST_F(ReplayCli, ClosedLoopLimitAndStart) {
  auto result = Replay(Example("synthetic.csv"), "closed", "--mode closed --qd 4 --limit 20");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(LineCount(IoCsv("closed")), 21u);
  EXPECT_EQ(TraceSummary("closed")["queue_depth"], 4);
  result = Replay(Example("synthetic.csv"), "start", "--start 190");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(LineCount(IoCsv("start")), 11u);
  EXPECT_EQ(TraceSummary("start")["before_start"], 190);
  result = Replay(Example("synthetic.csv"), "start-time", "--start 50ms");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_GT(TraceSummary("start-time")["before_start"].get<int>(), 0);
  EXPECT_GE(TraceSummary("start-time")["trace_start_us"].get<double>(), 50000.0);
}

TEST_F(ReplayCli, TraceDeviceSelectsOneDisk) {
  ASSERT_EQ(Replay(Example("web-server.csv.gz"), "all", "--no-io-log").exit_code, 0);
  ASSERT_EQ(Replay(Example("web-server.csv.gz"), "disk1", "--trace-device 1 --no-io-log").exit_code,
            0);
  const auto all = TraceSummary("all"), disk1 = TraceSummary("disk1");
  EXPECT_EQ(all["other_device"], 0);
  EXPECT_GT(disk1["other_device"].get<int>(), 0);
  EXPECT_EQ(disk1["replayed"].get<int>() + disk1["other_device"].get<int>(),
            all["replayed"].get<int>());
  EXPECT_EQ(disk1["device_filter"], 1);
}

TEST_F(ReplayCli, BadLineIsOneLineWithFileAndLineAndLeavesTheEarlierOutputsAlone) {
  const fs::path trace = support::write_file(dir_ / "bad.spc",
                                             "0,100,4096,W,0.1\n"
                                             "0,200,4096,R,0.2\n"
                                             "0,300,4096,Q,0.3\n"
                                             "0,400,4096,W,0.4\n");
  ASSERT_EQ(Replay(Example("synthetic.spc"), "out").exit_code, 0);  // outputs of an earlier run
  const std::string io_csv = support::read_file(dir_ / "out" / "io.csv");
  const auto result = Replay(trace.string(), "out");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.output, "ssdlab: " + trace.string() + ":3: Opcode 'Q': expected R or W\n");
  // The bad line is found before the folder is touched (review M5).
  EXPECT_EQ(support::read_file(dir_ / "out" / "io.csv"), io_csv);
  EXPECT_TRUE(fs::exists(dir_ / "out" / "summary.json"));
  for (const auto& entry : fs::directory_iterator(dir_ / "out"))
    EXPECT_FALSE(entry.path().filename().string().ends_with(".partial")) << entry.path();
}

TEST_F(ReplayCli, SkipBadCountsBadLinesInSummaryAndLog) {
  const fs::path trace = support::write_file(dir_ / "bad.spc",
                                             "0,100,4096,W,0.1\n"
                                             "0,200,4096,R,0.2\n"
                                             "0,300,4096,Q,0.3\n"
                                             "0,x,4096,W,0.35\n"
                                             "0,400,4096,W,0.4\n");
  const auto result = Replay(trace.string(), "out", "--skip-bad");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("3 requests replayed, 2 bad lines skipped"));
  EXPECT_THAT(result.output, HasSubstr(trace.string() + ":3: Opcode 'Q'"));  // the log
  EXPECT_EQ(TraceSummary("out")["bad_lines_skipped"], 2);
  EXPECT_EQ(LineCount(IoCsv("out")), 4u);
}

TEST_F(ReplayCli, AmbiguousFormatIsOneLineListingTheCandidates) {
  const auto result = Replay(Example("synthetic.mqsim"), "out");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(LineCount(result.output), 1u) << result.output;
  EXPECT_THAT(result.output, HasSubstr("ambiguous: its first 20 lines fit disksim and mqsim; "
                                       "give --format"));
}

TEST_F(ReplayCli, BadOptionValuesAreOneLineInputErrors) {
  struct Case {
    std::string extra, message;
  };
  const Case cases[] = {
      {"--format csv",
       "ssdlab: --format: unknown trace format 'csv' (known: auto, msr, "
       "disksim, mqsim, spc, blkparse, fio, ssdlab)\n"},
      {"--mode half", "ssdlab: --mode 'half': expected open, closed or dependent\n"},
      {"--qd 4",
       "ssdlab: --qd applies to --mode closed (open-loop replay follows the trace "
       "times)\n"},
      {"--mode closed --speed 2",
       "ssdlab: --speed applies to --mode open (closed-loop replay "
       "ignores trace times)\n"},
      {"--start 5h",
       "ssdlab: --start '5h': expected a request count or a time such as 10s, "
       "500ms\n"},
      {"--map fold", "ssdlab: --map 'fold': expected modulo or scale\n"},
  };
  for (const auto& [extra, message] : cases) {
    const auto result = Replay(Example("synthetic.csv"), "out", extra);
    EXPECT_EQ(result.exit_code, 1) << extra;
    EXPECT_EQ(result.output, message) << extra;
  }
}

TEST_F(ReplayCli, MissingTraceFileIsAnInputError) {
  const auto result = Replay((dir_ / "nope.csv").string(), "out");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.output,
            "ssdlab: -w 'trace:" + (dir_ / "nope.csv").string() + "': no such trace file\n");
}

TEST_F(ReplayCli, TraceOptionsWithAPlanAreAnInputError) {
  const auto result =
      support::run_ssdlab("sim -c " + Quote(support::preset("tiny")) + " -w RW:count=5 -o " +
                          Quote((dir_ / "out").string()) + " --mode closed --qd 2");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(
      result.output,
      "ssdlab: --mode, --qd: only for trace workloads (-w trace:FILE), not -w 'RW:count=5'\n");
}

TEST_F(ReplayCli, NothingToReplayIsAnInputError) {
  const auto result = Replay(Example("synthetic.csv"), "out", "--trace-device 9");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.output, StartsWith("ssdlab: " + Example("synthetic.csv") +
                                        ": no requests to replay (201 lines: 200 requests, 200 "
                                        "on other devices"));
  EXPECT_FALSE(fs::exists(dir_ / "out" / "io.csv"));
}

}  // namespace

namespace {

// --exact-samples: past it the run's percentiles come from the histogram,
// within its stated error of the exact run's, and summary.json says which;
// io.csv is the same either way.
TEST_F(ReplayCli, ATinyExactSampleLimitGivesPercentilesWithinTheHistogramsError) {
  ASSERT_EQ(Replay(Example("synthetic.csv"), "exact").exit_code, 0);
  const auto result = Replay(Example("synthetic.csv"), "folded", "--exact-samples 20");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(IoCsv("folded"), IoCsv("exact"));
  const auto exact = Summary("exact")["experiments"][0]["runs"][0];
  const auto folded = Summary("folded")["experiments"][0]["runs"][0];
  EXPECT_EQ(exact["percentile_method"], "exact");
  EXPECT_THAT(folded["percentile_method"].get<std::string>(),
              StartsWith("histogram, relative error <= 0.195%"));
  // summary.json rounds to 1 ns, hence the 0.001 us beside the relative bound.
  const double bound = ssdlab::sim::ResponseHistogram::kRelativeError;
  for (const auto& [percent, us] : exact["percentiles"].items())
    EXPECT_NEAR(folded["percentiles"][percent].get<double>(), us.get<double>(),
                bound * us.get<double>() + 0.001)
        << "p" << percent;
  for (const char* key : {"count", "min_us", "max_us", "mean_us", "iops", "histogram"})
    EXPECT_EQ(folded[key], exact[key]) << key;
  if (const auto checked = support::check_output(dir_ / "folded")) {
    EXPECT_EQ(checked->exit_code, 0) << checked->output;
  }
}

}  // namespace
