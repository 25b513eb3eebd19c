// `ssdlab compare`, `ssdlab export-fio` and `sim --fio-lat-log`, run as real
// processes on small simulated runs of the tiny preset.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.h"

namespace {

namespace fs = std::filesystem;
namespace support = ssdlab::testing;
using support::shell_quote;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

// Percentiles above p99 that both sides have (summary.json's defaults
// p99.9 and p99.99) come last.
constexpr const char* kCsvHeader =
    "experiment,a_mean_us,b_mean_us,mean_ratio,a_p50_us,b_p50_us,p50_ratio,a_p99_us,b_p99_us,"
    "p99_ratio,mean_error,a_p99_9_us,b_p99_9_us,p99_9_ratio,a_p99_99_us,b_p99_99_us,"
    "p99_99_ratio";

// Two experiments on a fresh device: writes cost a program, reads do not.
constexpr const char* kPlan = R"([[experiment]]
name = "rw"
pattern = "RW"
count = 40
runs = 2

[[experiment]]
name = "sr"
pattern = "SR"
count = 40
)";

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, separator);) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.push_back("");
  return parts;
}

// The CSV's lines, each split into fields.
std::vector<std::vector<std::string>> ReadCsv(const fs::path& path) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& line : Split(support::read_file(path), '\n'))
    if (!line.empty()) rows.push_back(Split(line, ','));
  return rows;
}

// Mean over runs of summary.json's `key`, per experiment name.
double MeanOverRuns(const nlohmann::json& summary, const std::string& name,
                    const std::string& key) {
  for (const auto& experiment : summary["experiments"])
    if (experiment["name"] == name) {
      double sum = 0;
      for (const auto& run : experiment["runs"]) sum += run[key].get<double>();
      return sum / static_cast<double>(experiment["runs"].size());
    }
  ADD_FAILURE() << "no experiment " << name;
  return 0;
}

class CompareTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = support::temp_dir_for_this_test("compare-"); }

  support::CommandResult Sim(const std::string& workload, const fs::path& outdir,
                             const std::string& extra = "") {
    return support::run_ssdlab("sim -c " + shell_quote(support::preset("tiny")) + " -w " +
                               shell_quote(workload) + " -o " + shell_quote(outdir.string()) + " " +
                               extra);
  }
  support::CommandResult Compare(const fs::path& a, const fs::path& b,
                                 const std::string& extra = "") {
    return support::run_ssdlab("compare " + shell_quote(a.string()) + " " +
                               shell_quote(b.string()) + " " + extra);
  }
  std::string Plan() { return support::write_file(dir_ / "plan.toml", kPlan).string(); }

  fs::path dir_;
};

TEST_F(CompareTest, IdenticalRunsHaveRatiosOfOneAndNoError) {
  ASSERT_EQ(Sim(Plan(), dir_ / "a").exit_code, 0);
  ASSERT_EQ(Sim(Plan(), dir_ / "b").exit_code, 0);
  const auto result =
      Compare(dir_ / "a", dir_ / "b", "--csv " + shell_quote((dir_ / "c.csv").string()));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output,
              AllOf(HasSubstr("geometric mean of B/A over 2 experiments: mean 1.000, p50 1.000, "
                              "p99 1.000\n"),
                    HasSubstr("mean absolute relative error of the means, |B-A|/A: 0.0000 (0.00%)"),
                    Not(HasSubstr("only in"))));
  EXPECT_EQ(support::read_file(dir_ / "c.csv"),
            std::string(kCsvHeader) +
                "\nrw,305.600,305.600,1.000000,305.600,305.600,1.000000,305.600,305.600,1.000000,"
                "0.000000,305.600,305.600,1.000000,305.600,305.600,1.000000\n"
                "sr,130.600,130.600,1.000000,130.600,130.600,1.000000,130.600,130.600,1.000000,"
                "0.000000,130.600,130.600,1.000000,130.600,130.600,1.000000\n"
                "(total),,,1.000000,,,1.000000,,,1.000000,0.000000,,,1.000000,,,1.000000\n");
}

TEST_F(CompareTest, SlowerProgramsShowInTheWriteRatioOnly) {
  ASSERT_EQ(Sim(Plan(), dir_ / "a").exit_code, 0);
  ASSERT_EQ(Sim(Plan(), dir_ / "b", "--set timing.program_us=300").exit_code, 0);
  const auto result =
      Compare(dir_ / "a", dir_ / "b", "--csv " + shell_quote((dir_ / "c.csv").string()));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  // A write costs a 105.6 us transfer and the program: 305.6 us, then 405.6 us.
  // Geometric mean sqrt(405.6 / 305.6 * 1); error (100 / 305.6 + 0) / 2.
  EXPECT_EQ(support::read_file(dir_ / "c.csv"),
            std::string(kCsvHeader) +
                "\nrw,305.600,405.600,1.327225,305.600,405.600,1.327225,305.600,405.600,1.327225,"
                "0.327225,305.600,405.600,1.327225,305.600,405.600,1.327225\n"
                "sr,130.600,130.600,1.000000,130.600,130.600,1.000000,130.600,130.600,1.000000,"
                "0.000000,130.600,130.600,1.000000,130.600,130.600,1.000000\n"
                "(total),,,1.152053,,,1.152053,,,1.152053,0.163613,,,1.152053,,,1.152053\n");
  EXPECT_THAT(result.output,
              AllOf(HasSubstr("A: " + (dir_ / "a").string() + " (ssdlab output, summary.json)\n"),
                    HasSubstr("mean 1.152, p50 1.152, p99 1.152"), HasSubstr("0.1636 (16.36%)")));
}

TEST_F(CompareTest, RatiosAreThoseOfTheSummaryMeansOverRuns) {
  // Cleaning makes every run's figures different.
  const std::string workload = "RW:count=300,runs=2,queue_depth=2";
  ASSERT_EQ(Sim(workload, dir_ / "a", "--precondition random").exit_code, 0);
  ASSERT_EQ(Sim(workload, dir_ / "b", "--precondition random:2 --seed 5").exit_code, 0);
  const auto result =
      Compare(dir_ / "a", dir_ / "b", "--csv " + shell_quote((dir_ / "c.csv").string()));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto a = nlohmann::json::parse(support::read_file(dir_ / "a" / "summary.json"));
  const auto b = nlohmann::json::parse(support::read_file(dir_ / "b" / "summary.json"));
  const auto rows = ReadCsv(dir_ / "c.csv");
  ASSERT_EQ(rows.size(), 3u);
  const auto& row = rows[1];
  const std::string name = "RW/runs=2/queue_depth=2";
  EXPECT_EQ(row[0], name);
  int column = 1;
  for (const char* key : {"mean_us", "p50_us", "p99_us"}) {
    const double mean_a = MeanOverRuns(a, name, key), mean_b = MeanOverRuns(b, name, key);
    EXPECT_NEAR(std::stod(row[column]), mean_a, 5e-4) << key;
    EXPECT_NEAR(std::stod(row[column + 1]), mean_b, 5e-4) << key;
    EXPECT_NEAR(std::stod(row[column + 2]), mean_b / mean_a, 5e-7) << key;
    column += 3;
  }
  const double a_mean = MeanOverRuns(a, name, "mean_us"), b_mean = MeanOverRuns(b, name, "mean_us");
  EXPECT_NEAR(std::stod(row[10]), std::abs(b_mean - a_mean) / a_mean, 5e-7);
  EXPECT_GT(std::abs(std::stod(row[3]) - 1), 1e-3);  // the runs did differ
}

TEST_F(CompareTest, ExperimentsInOneSideOnlyAreListed) {
  ASSERT_EQ(Sim(Plan(), dir_ / "a").exit_code, 0);
  ASSERT_EQ(Sim("RW:count=10", dir_ / "b").exit_code, 0);
  const auto result = Compare(dir_ / "a", dir_ / "b");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.output,
            "ssdlab: " + (dir_ / "a").string() + " and " + (dir_ / "b").string() +
                " have no experiment in common (A: rw, ...; B: RW); pair them with --match "
                "order or --map A-NAME=B-NAME\n");
  const fs::path plan2 =
      support::write_file(dir_ / "plan2.toml",
                          "[[experiment]]\nname = \"rw\"\npattern = \"RW\"\ncount = 10\n\n"
                          "[[experiment]]\nname = \"sw\"\npattern = \"SW\"\ncount = 10\n");
  ASSERT_EQ(Sim(plan2.string(), dir_ / "c").exit_code, 0);
  const auto listed = Compare(dir_ / "a", dir_ / "c");
  ASSERT_EQ(listed.exit_code, 0) << listed.output;
  EXPECT_THAT(listed.output, AllOf(HasSubstr("  only in A: sr\n"), HasSubstr("  only in B: sw\n"),
                                   HasSubstr("over 1 experiment:")));
}

TEST_F(CompareTest, IoCsvAloneGivesTheSummaryFigures) {
  const std::string workload = "RW:count=300,runs=2,queue_depth=2";
  ASSERT_EQ(Sim(workload, dir_ / "a", "--precondition random").exit_code, 0);
  fs::create_directories(dir_ / "csv-only");
  fs::copy_file(dir_ / "a" / "io.csv", dir_ / "csv-only" / "io.csv");
  const auto result =
      Compare(dir_ / "a", dir_ / "csv-only", "--csv " + shell_quote((dir_ / "c.csv").string()));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("B: " + (dir_ / "csv-only").string() +
                                       " (ssdlab output, io.csv (no summary.json: every read "
                                       "and write counted))\n"));
  const auto rows = ReadCsv(dir_ / "c.csv");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1][1], rows[1][2]);  // mean, to the nanosecond
  EXPECT_EQ(rows[1][4], rows[1][5]);  // p50
  EXPECT_EQ(rows[1][7], rows[1][8]);  // p99
  EXPECT_EQ(rows[1][11], rows[1][12]);  // p99.9, read back from io.csv as summary.json has it
  EXPECT_EQ(rows[2], (std::vector<std::string>{"(total)", "", "", "1.000000", "", "", "1.000000",
                                               "", "", "1.000000", "0.000000", "", "", "1.000000",
                                               "", "", "1.000000"}));
}

TEST_F(CompareTest, MalformedIoCsvNamesFileAndLine) {
  fs::create_directories(dir_ / "bad");
  support::write_file(dir_ / "bad" / "io.csv",
                      "experiment,run,process,io,submit_us,rt_us,mode,offset,size\n"
                      "RW,0,0,0,0.000,305.600,W,0,4096\n"
                      "RW,0,0,1,305.600,W,0,4096\n");
  ASSERT_EQ(Sim("RW:count=10", dir_ / "a").exit_code, 0);
  const auto result = Compare(dir_ / "a", dir_ / "bad");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.output,
            "ssdlab: " + (dir_ / "bad" / "io.csv").string() + ":3: expected 9 fields, got 8\n");
}

TEST_F(CompareTest, MissingInputsAreOneLineErrors) {
  ASSERT_EQ(Sim("RW:count=10", dir_ / "a").exit_code, 0);
  const auto missing = Compare(dir_ / "a", dir_ / "nope");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.output, "ssdlab: " + (dir_ / "nope").string() + ": no such file or folder\n");
  fs::create_directories(dir_ / "empty");
  const auto empty = Compare(dir_ / "empty", dir_ / "a");
  EXPECT_EQ(empty.exit_code, 1);
  EXPECT_EQ(empty.output, "ssdlab: " + (dir_ / "empty").string() +
                              ": no summary.json or io.csv: not an ssdlab output folder\n");
  fs::create_directories(dir_ / "none");
  support::write_file(dir_ / "none" / "summary.json", "{\"experiments\": []}\n");
  const auto none = Compare(dir_ / "a", dir_ / "none");
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_EQ(none.output, "ssdlab: " + (dir_ / "none").string() + ": no experiment with runs\n");
  support::write_file(dir_ / "none" / "summary.json", "{\"experiments\": [\n  {\"name\": }]}\n");
  const auto malformed = Compare(dir_ / "a", dir_ / "none");
  EXPECT_EQ(malformed.exit_code, 1);
  EXPECT_EQ(malformed.output,
            "ssdlab: " + (dir_ / "none" / "summary.json").string() + ":2: malformed JSON\n");
  const auto plot = Compare(dir_ / "a", dir_ / "a", "--plot out.pdf");
  EXPECT_EQ(plot.exit_code, 1);
  EXPECT_EQ(plot.output, "ssdlab: --plot out.pdf: expected a .png or .svg file name\n");
  const auto usage = support::run_ssdlab("compare " + shell_quote((dir_ / "a").string()));
  EXPECT_EQ(usage.exit_code, 2) << usage.output;
}

TEST_F(CompareTest, FioJsonSideIsComparedByJobName) {
  ASSERT_EQ(Sim("RW:count=20", dir_ / "a").exit_code, 0);  // 305.6 us each
  const fs::path json = support::write_file(dir_ / "fio.json", R"({"fio version" : "fio-3.33",
  "jobs" : [{"jobname" : "RW", "write" : {"total_ios" : 20, "clat_ns" : {"mean" : 611200.0,
      "N" : 20, "percentile" : {"50.000000" : 458400, "99.000000" : 916800}}}}]})");
  const auto result = Compare(dir_ / "a", json, "--csv " + shell_quote((dir_ / "c.csv").string()));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("B: " + json.string() + " (fio JSON)\n"));
  EXPECT_EQ(ReadCsv(dir_ / "c.csv")[1],
            (std::vector<std::string>{"RW", "305.600", "611.200", "2.000000", "305.600", "458.400",
                                      "1.500000", "305.600", "916.800", "3.000000", "1.000000"}));
}

TEST_F(CompareTest, SimRunExportedAsFioLogComparesEqualToItself) {
  const std::string workload = "RW:count=300,queue_depth=2";
  const fs::path prefix = dir_ / "fio" / "sim";
  const auto sim = Sim(workload, dir_ / "a",
                       "--precondition random --fio-lat-log " + shell_quote(prefix.string()));
  ASSERT_EQ(sim.exit_code, 0) << sim.output;
  EXPECT_THAT(sim.output,
              HasSubstr("  fio lat logs: 1 file, " + prefix.string() + "-*_lat.*.log\n"));
  const fs::path log = dir_ / "fio" / "sim-RW_queue_depth=2-run0_lat.1.log";
  ASSERT_TRUE(fs::is_regular_file(log));
  const auto result = Compare(
      dir_ / "a", log, "--name RW/queue_depth=2 --csv " + shell_quote((dir_ / "c.csv").string()));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("B: " + log.string() + " (fio latency log)\n"));
  const auto rows = ReadCsv(dir_ / "c.csv");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[2], (std::vector<std::string>{"(total)", "", "", "1.000000", "", "", "1.000000",
                                               "", "", "1.000000", "0.000000", "", "", "1.000000",
                                               "", "", "1.000000"}));
  EXPECT_NE(rows[1][1], rows[1][4]);  // cleaning: the mean is not the median
  // Without --name, the log's experiment is its job name: nothing in common.
  const auto unnamed = Compare(dir_ / "a", log);
  EXPECT_EQ(unnamed.exit_code, 1);
  EXPECT_EQ(unnamed.output, "ssdlab: " + (dir_ / "a").string() + " and " + log.string() +
                                " have no experiment in common (A: RW/queue_depth=2; B: "
                                "sim-RW_queue_depth=2-run0); pair them with --match order or "
                                "--map A-NAME=B-NAME\n");
}

TEST_F(CompareTest, ExportFioWritesALogPerProcess) {
  ASSERT_EQ(Sim("RR:count=25,processes=2", dir_ / "a").exit_code, 0);
  const auto result = support::run_ssdlab("export-fio " + shell_quote((dir_ / "a").string()) + " " +
                                          shell_quote((dir_ / "x").string()));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  // Each process's rows of io.csv, in order, as fio writes them (FORMATS.md).
  std::string expected[2];
  const auto lines = Split(support::read_file(dir_ / "a" / "io.csv"), '\n');
  for (std::size_t i = 1; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    const auto f = Split(lines[i], ',');  // experiment,run,process,io,submit_us,rt_us,mode,...
    const auto ns = [](const std::string& us) { return std::llround(std::stod(us) * 1000); };
    expected[std::stoi(f[2])] += std::to_string((ns(f[4]) + ns(f[5])) / 1000000) + ", " +
                                 std::to_string(ns(f[5])) + ", 0, " + f[8] + ", " + f[7] + ", 0\n";
  }
  for (int process = 0; process < 2; ++process) {
    const std::string name = "x-RR_processes=2-run0_lat." + std::to_string(process + 1) + ".log";
    const std::string text = support::read_file(dir_ / name);
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 25) << name;
    EXPECT_EQ(text, expected[process]) << name;
  }
  ASSERT_EQ(Sim("RW:count=5", dir_ / "b", "--no-io-log").exit_code, 0);
  const auto missing = support::run_ssdlab("export-fio " + shell_quote((dir_ / "b").string()) +
                                           " " + shell_quote((dir_ / "y").string()));
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.output, "ssdlab: " + (dir_ / "b").string() +
                                ": no io.csv to export (written with --no-io-log?)\n");
}

TEST_F(CompareTest, FioLatLogNeedsTheIoLog) {
  const auto result = Sim("RW:count=5", dir_ / "a", "--no-io-log --fio-lat-log x");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.output, HasSubstr("--no-io-log excludes --fio-lat-log"));
}

TEST_F(CompareTest, PlotDrawsTheComparison) {
  if (!support::has_matplotlib()) GTEST_SKIP() << "python3-matplotlib is not installed";
  ASSERT_EQ(Sim(Plan(), dir_ / "a").exit_code, 0);
  ASSERT_EQ(Sim(Plan(), dir_ / "b", "--set timing.program_us=300").exit_code, 0);
  const fs::path png = dir_ / "plots" / "compare.png";
  const auto result = Compare(dir_ / "a", dir_ / "b", "--plot " + shell_quote(png.string()));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr(png.string() + "\n"));
  ASSERT_TRUE(fs::is_regular_file(png));
  EXPECT_EQ(support::read_file(png).substr(0, 8), "\x89PNG\r\n\x1a\n");
}

}  // namespace

// Matching (analysis/compare_match.h): a fio job or another plan's names
// against uFLIP experiments.
class CompareMatchTest : public CompareTest {
 protected:
  void SetUp() override {
    CompareTest::SetUp();
    ASSERT_EQ(Sim(Plan(), dir_ / "a").exit_code, 0);                // rw, sr
    ASSERT_EQ(Sim("RW:count=40,runs=2", dir_ / "b").exit_code, 0);  // RW/runs=2
  }
};

TEST_F(CompareMatchTest, ByOrderPairsTheIthExperiments) {
  const auto result = Compare(dir_ / "a", dir_ / "b", "--match order");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  // The same writes on the same fresh device: 305.6 us on both sides.
  EXPECT_THAT(result.output, AllOf(HasSubstr("  rw ~ RW/runs=2     305.600     305.600   1.000"),
                                   HasSubstr("  only in A: sr\n"), Not(HasSubstr("only in B"))));
}

TEST_F(CompareMatchTest, AnExplicitMapPairsNamesHoldingEqualsSigns) {
  const auto result = Compare(dir_ / "a", dir_ / "b",
                              "--map rw=RW/runs=2 --csv " + shell_quote((dir_ / "c.csv").string()));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto rows = ReadCsv(dir_ / "c.csv");
  ASSERT_EQ(rows.size(), 3u);  // header, the pair, totals
  EXPECT_EQ(rows[1][0], "rw ~ RW/runs=2");
  EXPECT_EQ(rows[1][1], "305.600");
  EXPECT_EQ(rows[1][3], "1.000000");
  EXPECT_THAT(result.output, HasSubstr("  only in A: sr\n"));
}

TEST_F(CompareMatchTest, AMapNamingNoExperimentSuggestsTheClosest) {
  const auto result = Compare(dir_ / "a", dir_ / "b", "--map rw=RW/run=2");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.output,
            "ssdlab: --map 'rw=RW/run=2': B has no experiment 'RW/run=2'; did you mean "
            "'RW/runs=2'?\n");
  const auto twice = Compare(dir_ / "a", dir_ / "b", "--map rw=RW/runs=2 --map sr=RW/runs=2");
  EXPECT_EQ(twice.exit_code, 1);
  EXPECT_THAT(twice.output, HasSubstr("'RW/runs=2' is already mapped"));
  const auto bad = Compare(dir_ / "a", dir_ / "b", "--match size");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_THAT(bad.output, HasSubstr("--match 'size': expected name or order"));
}

TEST_F(CompareMatchTest, PercentilesAboveP99ShowWhereBothSidesHaveThem) {
  const auto result = Compare(dir_ / "a", dir_ / "b", "--match order");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, AllOf(HasSubstr("p99.9_us A"), HasSubstr("p99.99_us B")));
  // A side read from a summary without them (an older ssdlab): no such columns.
  auto summary = nlohmann::json::parse(support::read_file(dir_ / "b" / "summary.json"));
  for (auto& experiment : summary["experiments"])
    for (auto& run : experiment["runs"]) run.erase("percentiles");
  fs::create_directories(dir_ / "old");
  support::write_file(dir_ / "old" / "summary.json", summary.dump());
  const auto old = Compare(dir_ / "a", dir_ / "old", "--match order");
  ASSERT_EQ(old.exit_code, 0) << old.output;
  EXPECT_THAT(old.output, Not(HasSubstr("p99.9_us")));
}
