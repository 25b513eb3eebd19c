// The ssdlab command line, run as a real process: exit status, the one-line
// errors, and the output files of `ssdlab sim` (DESIGN.md, "Command line").
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "sim/results/output.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
namespace support = ssdlab::testing;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// Single-quotes `text` for the shell.
std::string Quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string Quote(const fs::path& path) {
  return Quote(path.string());
}

std::size_t LineCount(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

std::string FirstLine(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = support::temp_dir_for_this_test("cli-"); }

  // `ssdlab sim` on the tiny preset; `extra` (already shell-quoted) goes at the end.
  support::CommandResult Sim(const std::string& workload, const fs::path& outdir,
                             const std::string& extra = "") {
    return support::run_ssdlab("sim -c " + Quote(support::preset("tiny")) + " -w " +
                               Quote(workload) + " -o " + Quote(outdir) + " " + extra);
  }

  fs::path dir_;
};

TEST_F(CliTest, ConfigPrintsTheDerivedGeometry) {
  const auto result = support::run_ssdlab("config " + Quote(support::preset("tiny")));
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output,
              AllOf(StartsWith(support::preset("tiny")),
                    HasSubstr("2 channels x 1 packages x 2 dies x 2 planes x 32 blocks x 16 "
                              "pages of 4096 + 128 B"),
                    HasSubstr("2 packages, 4 dies, 8 planes, 256 blocks, 4096 pages"),
                    HasSubstr("16 MiB (16777216 bytes)"), HasSubstr("3480 logical pages of 4 KiB"),
                    HasSubstr("unloaded read 130.600 us, write 305.600 us")));
}

TEST_F(CliTest, ConfigAppliesSetOverrides) {
  const auto result =
      support::run_ssdlab("config " + Quote(support::preset("tiny")) + " --set timing.read_us=30");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("read 30.000 us"));
}

TEST_F(CliTest, SimWritesIoCsvAndSummaryJson) {
  const auto result = Sim("RW:count=20", dir_ / "out");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::string io_csv = support::read_file(dir_ / "out" / "io.csv");
  EXPECT_EQ(FirstLine(io_csv), "experiment,run,process,io,submit_us,rt_us,mode,offset,size");
  EXPECT_EQ(FirstLine(io_csv), ssdlab::sim::kIoCsvHeader);
  EXPECT_EQ(LineCount(io_csv), 21u);  // the header and one row per I/O
  const auto summary = nlohmann::json::parse(support::read_file(dir_ / "out" / "summary.json"));
  ASSERT_EQ(summary["experiments"].size(), 1u);
  EXPECT_EQ(summary["experiments"][0]["name"], "RW");
  EXPECT_EQ(summary["experiments"][0]["count"], 20);
}

TEST_F(CliTest, SimOutputPassesTheOutputChecker) {
  const auto result = Sim("RR:count=20,queue_depth=4,processes=2", dir_ / "out");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto checked = support::check_output(dir_ / "out");
  if (!checked) GTEST_SKIP() << "../shared/tools/check-output is not there";
  EXPECT_EQ(checked->exit_code, 0) << checked->output;
}

TEST_F(CliTest, UflipPlanWritesNamedExperimentsAndBenchmarkTables) {
  const auto result = Sim("uflip:granularity:count=40,runs=2", dir_ / "out");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  // The state is enforced first (uFLIP §4.1), and a table printed at the end.
  EXPECT_THAT(result.output, AllOf(HasSubstr("preconditioned (uflip)"),
                                   HasSubstr("granularity: mean response time (us) by io_size"),
                                   HasSubstr("SR linear cost:")));
  const std::string io_csv = support::read_file(dir_ / "out" / "io.csv");
  EXPECT_THAT(io_csv, AllOf(HasSubstr("\ngranularity-SR/io_size=512,0,0,0,"),
                            HasSubstr("\ngranularity-RW/io_size=262144,1,0,39,")));
  EXPECT_EQ(LineCount(io_csv), 1u + 17 * 4 * 40 * 2);
  const auto summary = nlohmann::json::parse(support::read_file(dir_ / "out" / "summary.json"));
  ASSERT_EQ(summary["benchmarks"].size(), 1u);
  const auto& table = summary["benchmarks"][0];
  EXPECT_EQ(table["name"], "granularity");
  EXPECT_EQ(table["columns"], nlohmann::json({"SR", "RR", "SW", "RW"}));
  EXPECT_EQ(table["rows"].size(), 17u);
  EXPECT_EQ(table["rows"][0]["value"], "512");
  // Unloaded 512 B reads cost one page read: 130.6 us.
  EXPECT_DOUBLE_EQ(table["rows"][0]["mean_us"]["SR"].get<double>(), 130.6);
  EXPECT_GT(table["linear_cost"]["SR"]["per_kib_us"].get<double>(), 0.0);
  const auto& experiment = summary["experiments"][0];
  EXPECT_EQ(experiment["benchmark"], "granularity");
  EXPECT_EQ(experiment["io_ignore"], "auto");
  EXPECT_TRUE(experiment["runs"][0].contains("startup_ios"));
  if (const auto checked = support::check_output(dir_ / "out")) {
    EXPECT_EQ(checked->exit_code, 0) << checked->output;
  }
}

TEST_F(CliTest, UflipPlanIsDeterministic) {
  const std::string workload = "uflip:mix:count=24,runs=1";
  ASSERT_EQ(Sim(workload, dir_ / "a").exit_code, 0);
  ASSERT_EQ(Sim(workload, dir_ / "b").exit_code, 0);
  EXPECT_EQ(support::read_file(dir_ / "a" / "io.csv"), support::read_file(dir_ / "b" / "io.csv"));
}

TEST_F(CliTest, PlotDrawsTheBenchmarkFigures) {
  if (!support::has_matplotlib()) GTEST_SKIP() << "python3-matplotlib is not installed";
  ASSERT_EQ(Sim("uflip:pause:count=20,runs=1", dir_ / "out").exit_code, 0);
  const auto result = support::run_ssdlab("plot " + Quote(dir_ / "out"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  for (const char* name : {"pause.png", "pause-series.png"}) {
    const fs::path path = dir_ / "out" / "plots" / name;
    EXPECT_THAT(result.output, HasSubstr(path.string()));
    ASSERT_TRUE(fs::is_regular_file(path)) << path;
    EXPECT_EQ(support::read_file(path).substr(0, 8), "\x89PNG\r\n\x1a\n");
  }
}

TEST_F(CliTest, PlotOfAFolderWithoutSummaryIsAnError) {
  fs::create_directories(dir_ / "empty");
  const auto result = support::run_ssdlab("plot " + Quote(dir_ / "empty"));
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.output, "ssdlab: " + (dir_ / "empty").string() +
                               ": no summary.json: not an ssdlab output folder\n");
}

TEST_F(CliTest, BadUflipPlanPrintsOneLine) {
  const auto result = Sim("uflip:granularity:count=0", dir_ / "out");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.output,
            "ssdlab: -w 'uflip:granularity:count=0': count: must be between 1 and "
            "1099511627776 (got 0)\n");
  EXPECT_FALSE(fs::exists(dir_ / "out" / "io.csv"));
}

TEST_F(CliTest, BadConfigPrintsOneLineNamingFileAndLine) {
  const fs::path config = support::write_file(dir_ / "bad.toml", "[geometry]\nchannels = 0\n");
  const std::string expected = "ssdlab: " + config.string() +
                               ":2: geometry.channels: 0 is out of range: allowed 1 to 1024\n";

  const auto checked = support::run_ssdlab("config " + Quote(config));
  EXPECT_EQ(checked.exit_code, 1);
  EXPECT_EQ(checked.output, expected);

  const auto simulated =
      support::run_ssdlab("sim -c " + Quote(config) + " -w RW:count=5 -o " + Quote(dir_ / "out"));
  EXPECT_EQ(simulated.exit_code, 1);
  EXPECT_EQ(simulated.output, expected);
}

TEST_F(CliTest, BadSetOverridePrintsOneLineNamingTheOverride) {
  const auto result = Sim("RW:count=5", dir_ / "out", "--set timing.read_us=-1");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(LineCount(result.output), 1u) << result.output;
  EXPECT_THAT(result.output, StartsWith("ssdlab: --set timing.read_us=-1: timing.read_us: "));
}

TEST_F(CliTest, MalformedWorkloadPrintsOneLine) {
  const auto result = Sim("RW:count=0", dir_ / "out");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.output,
            "ssdlab: -w 'RW:count=0': count: must be between 1 and 1099511627776 (got 0)\n");
}

TEST_F(CliTest, WorkloadThatDoesNotFitTheDevicePrintsOneLine) {
  const auto result = Sim("RW:target_offset=1GiB,count=5", dir_ / "out");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(LineCount(result.output), 1u) << result.output;
  EXPECT_THAT(result.output,
              AllOf(StartsWith("ssdlab: -w 'RW:target_offset=1GiB,count=5': target_offset "),
                    HasSubstr("beyond the device")));
}

TEST_F(CliTest, MissingRequiredOptionExitsNonZeroAndNamesIt) {
  const auto result = support::run_ssdlab("sim -c " + Quote(support::preset("tiny")) + " -o " +
                                          Quote(dir_ / "out"));
  EXPECT_NE(result.exit_code, 0);
  EXPECT_THAT(result.output, HasSubstr("--workload is required"));
}

TEST_F(CliTest, MissingRequiredOptionExitsWithTheUsageStatus) {
  // main.cpp: "2 command-line usage error".
  const auto result = support::run_ssdlab("sim -c " + Quote(support::preset("tiny")) + " -o " +
                                          Quote(dir_ / "out"));
  EXPECT_EQ(result.exit_code, 2) << result.output;
}

TEST_F(CliTest, FailedRunLeavesNoOutputs) {
  const auto result = Sim("RW:count=0", dir_ / "out");
  ASSERT_EQ(result.exit_code, 1);
  EXPECT_FALSE(fs::exists(dir_ / "out" / "io.csv"));
  EXPECT_FALSE(fs::exists(dir_ / "out" / "summary.json"));
}

TEST_F(CliTest, RunRefusedForABadInputLeavesTheEarlierOutputsAlone) {
  // The inputs are validated before the folder is touched (review M5).
  ASSERT_EQ(Sim("RW:count=5", dir_ / "out").exit_code, 0);
  const std::string io_csv = support::read_file(dir_ / "out" / "io.csv");
  const std::string summary = support::read_file(dir_ / "out" / "summary.json");
  const auto result = Sim("RW:count=0", dir_ / "out");
  ASSERT_EQ(result.exit_code, 1);
  EXPECT_EQ(support::read_file(dir_ / "out" / "io.csv"), io_csv);
  EXPECT_EQ(support::read_file(dir_ / "out" / "summary.json"), summary);
}

TEST_F(CliTest, RunFailingAfterItStartedLeavesNoOutputsOfAnEarlierRun) {
  // Outputs of an earlier run must not pass for this run's (DESIGN.md: "no
  // partial output left that looks complete").
  ASSERT_EQ(Sim("RW:count=5", dir_ / "out").exit_code, 0);
  ASSERT_TRUE(fs::exists(dir_ / "out" / "io.csv"));
  ::setenv("SSDLAB_TEST_FAIL_WRITE", "summary.json", 1);  // a full disk at the end
  const auto result = Sim("RW:count=7", dir_ / "out");
  ::unsetenv("SSDLAB_TEST_FAIL_WRITE");
  ASSERT_EQ(result.exit_code, 1) << result.output;
  EXPECT_FALSE(fs::exists(dir_ / "out" / "io.csv"));
  EXPECT_FALSE(fs::exists(dir_ / "out" / "summary.json"));
}

TEST_F(CliTest, SameSeedGivesByteIdenticalIoCsv) {
  ASSERT_EQ(Sim("RW:count=50,queue_depth=2", dir_ / "a", "--seed 7").exit_code, 0);
  ASSERT_EQ(Sim("RW:count=50,queue_depth=2", dir_ / "b", "--seed 7").exit_code, 0);
  const std::string a = support::read_file(dir_ / "a" / "io.csv");
  EXPECT_EQ(LineCount(a), 51u);
  EXPECT_EQ(a, support::read_file(dir_ / "b" / "io.csv"));
}

TEST_F(CliTest, DifferentSeedGivesADifferentRandomIoCsv) {
  ASSERT_EQ(Sim("RW:count=50", dir_ / "a", "--seed 7").exit_code, 0);
  ASSERT_EQ(Sim("RW:count=50", dir_ / "b", "--seed 8").exit_code, 0);
  EXPECT_NE(support::read_file(dir_ / "a" / "io.csv"), support::read_file(dir_ / "b" / "io.csv"));
}

TEST_F(CliTest, VerifyChecksEveryReadAndSaysSo) {
  const auto result = Sim("SR:count=10", dir_ / "out", "--verify");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("verification: 10 page reads checked against the latest "
                                       "write, all correct"));
  const auto summary = nlohmann::json::parse(support::read_file(dir_ / "out" / "summary.json"));
  EXPECT_EQ(summary["verification"]["enabled"], true);
  EXPECT_EQ(summary["verification"]["pages_checked"], 10);
}

TEST_F(CliTest, NoIoLogWritesSummaryJsonOnly) {
  const auto result = Sim("RW:count=10", dir_ / "out", "--no-io-log");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(fs::exists(dir_ / "out" / "summary.json"));
  EXPECT_FALSE(fs::exists(dir_ / "out" / "io.csv"));
  EXPECT_THAT(result.output, Not(HasSubstr("io.csv:")));
}

}  // namespace
