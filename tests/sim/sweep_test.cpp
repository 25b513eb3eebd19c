// `ssdlab sweep` and `ssdlab collect`: a grid run in parallel gives what the
// same runs give one by one, collected into one table. Through the library
// (sim/sweep/sweep.h): the command line adds nothing tested here.
#include "sim/sweep/sweep.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "run_support.h"
#include "sim/sweep/sweep_columns.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
namespace support = ssdlab::testing;
using ::testing::HasSubstr;

std::size_t Lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

class SweepTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = support::temp_dir_for_this_test("sweep-");
    sweep_ =
        support::write_file(dir_ / "sweep.toml", "configs = [\"" + support::preset("tiny") +
                                                     "\"]\n"
                                                     "sets = [[\"ftl.overprovisioning=0.10\"], "
                                                     "[\"ftl.overprovisioning=0.25\"]]\n"
                                                     "workloads = [\"RW:count=3000\"]\n"
                                                     "seeds = [1, 7]\n"
                                                     "precondition = \"random\"\n");
  }
  // run_sweep over sweep.toml into dir_/out; `out` gets what it prints.
  int Sweep(std::string& printed, ssdlab::sim::SweepOptions options = {}) {
    options.plan = sweep_.string();
    options.outdir = (dir_ / "out").string();
    options.quiet = true;
    std::ostringstream out;
    const int status = ssdlab::sim::run_sweep(options, out);
    printed = out.str();
    return status;
  }

  fs::path dir_, sweep_;
};

TEST_F(SweepTest, ParallelJobsMatchSingleRunsAndAreCollected) {
  std::string printed;
  ssdlab::sim::SweepOptions options;
  options.jobs = 2;
  ASSERT_EQ(Sweep(printed, options), 0) << printed;
  EXPECT_THAT(printed, HasSubstr("4 jobs on 2 threads"));
  const std::string csv = support::read_file(dir_ / "out" / "sweep.csv");
  EXPECT_EQ(Lines(csv), 1u + 4);
  EXPECT_THAT(csv, HasSubstr("ftl.overprovisioning=0.25"));
  // Job 3 is the second set with seed 7: the same as running it alone.
  auto alone = support::sim_options("RW:count=3000", {"ftl.overprovisioning=0.25"});
  alone.seed = 7;
  alone.precondition = "random";
  alone.io_log = false;
  support::run_tiny(dir_, "alone", alone);
  const auto a = nlohmann::json::parse(support::read_file(dir_ / "alone" / "summary.json"));
  const auto b =
      nlohmann::json::parse(support::read_file(dir_ / "out" / "job-00003" / "summary.json"));
  EXPECT_EQ(a["experiments"][0]["runs"][0]["mean_us"], b["experiments"][0]["runs"][0]["mean_us"]);
  EXPECT_EQ(a["device"], b["device"]);
}

TEST_F(SweepTest, OneJobAndCollectReportMissingJobs) {
  std::string printed;
  ssdlab::sim::SweepOptions options;
  options.slurm = (dir_ / "run.sh").string();  // freezes the job list
  ASSERT_EQ(Sweep(printed, options), 0) << printed;
  options.slurm.clear();
  options.job = 1;
  ASSERT_EQ(Sweep(printed, options), 0) << printed;
  EXPECT_TRUE(fs::exists(dir_ / "out" / "job-00001" / "summary.json"));
  EXPECT_FALSE(fs::exists(dir_ / "out" / "job-00000"));
  std::ostringstream collected;
  EXPECT_EQ(ssdlab::sim::run_collect_alone((dir_ / "out").string(), collected), 1);
  EXPECT_THAT(collected.str(), HasSubstr("1 rows from 1 jobs (3 missing or not taken)"));
}

TEST_F(SweepTest, SlurmScriptIsAnArrayOverTheJobs) {
  std::string printed;
  ssdlab::sim::SweepOptions options;
  options.slurm = (dir_ / "run.sh").string();
  ASSERT_EQ(Sweep(printed, options), 0) << printed;
  const std::string script = support::read_file(dir_ / "run.sh");
  EXPECT_THAT(script, HasSubstr("#SBATCH --array=0-3"));
  EXPECT_THAT(script, HasSubstr("--job \"$((SLURM_ARRAY_TASK_ID + mode))\""));
  EXPECT_FALSE(fs::exists(dir_ / "out" / "job-00000"));  // nothing run here
}

TEST_F(SweepTest, ARunOverAHostLogGetsItsWriteAmplificationColumns) {
  // Issue 57 item 1: the device's write amplification is 1.00 on a zoned
  // drive; the log's own and the end-to-end one get columns of their own.
  sweep_ = support::write_file(
      dir_ / "log.toml",
      "configs = [\"" + support::preset("tiny") +
          "\"]\n"
          "workloads = [\"RW:count=4000\"]\n"
          "sets = [[\"ftl.type=\\\"zoned\\\"\", \"host.log.overprovisioning=0.2\"], "
          "[\"ftl.overprovisioning=0.15\"]]\n");
  std::string printed;
  const int code = Sweep(printed);
  ASSERT_EQ(code, 0) << printed;
  const std::string csv = support::read_file(dir_ / "out" / "sweep.csv");
  EXPECT_THAT(csv, HasSubstr(",write_amplification,host_log_write_amplification,"
                             "end_to_end_write_amplification"));
  // The zoned job fills them (device 1.0000), the page-mapped one leaves them empty.
  EXPECT_THAT(csv, HasSubstr(",1.0000,"));
  EXPECT_THAT(csv, ::testing::ContainsRegex(",[0-9.]+,,,[0-9.]+\n"));
}

TEST_F(SweepTest, AListOfWorkloadsIsOneJobOfTenantsWithFairnessColumns) {
  sweep_ = support::write_file(
      dir_ / "tenants.toml",
      "configs = [\"" + support::preset("tiny") +
          "\"]\n"
          "workloads = [[\"RR:count=300,name=reader\", \"RW:count=1200,queue_depth=8,name=writer\"],"
          " \"RW:count=500\"]\n"
          "precondition = \"random\"\nfairness = true\n");
  std::string printed;
  ASSERT_EQ(Sweep(printed), 0) << printed;
  const std::string csv = support::read_file(dir_ / "out" / "sweep.csv");
  EXPECT_EQ(Lines(csv), 1u + 3);  // the tenants' job has two experiments
  EXPECT_THAT(csv, HasSubstr(",slowdown_mean,slowdown_p99,fairness_index_mean,fairness_index_p99,"
                             "contended_slowdown_mean,contended_slowdown_p99,"
                             "contended_fairness_index_mean,contended_fairness_index_p99,"
                             "energy_flash_uj\n"));
  // The tenants' rows fill the contended columns (the four before the
  // energy, the last), the single workload's leaves them empty.
  std::istringstream lines(csv);
  std::string header, row;
  std::getline(lines, header);
  std::size_t filled = 0;
  while (std::getline(lines, row)) {
    const std::string contended = row.substr(0, row.rfind(','));
    if (!contended.ends_with(",,,,")) ++filled;
  }
  EXPECT_EQ(filled, 2u);
  EXPECT_THAT(csv, HasSubstr("\"RR:count=300,name=reader + RW:count=1200,queue_depth=8,name=writer\""));
  const auto job = nlohmann::json::parse(support::read_file(dir_ / "out" / "job-00000" / "summary.json"));
  EXPECT_EQ(job["tenants"].size(), 2u);
  EXPECT_TRUE(job.contains("fairness"));
}

// Issue 51 (item 4): the figures count served reads and writes; trims get
// their columns, and a run that wrote nothing has no write amplification
// (was 0.0000).
TEST_F(SweepTest, TrimsAreColumnsOfTheirOwnAndAReadRunHasNoWriteAmplification) {
  sweep_ = support::write_file(dir_ / "trims.toml",
                               "configs = [\"" + support::preset("tiny") +
                                   "\"]\n"
                                   "workloads = [\"RW:count=200,trim_share=0.5\", \"RR:count=50\"]\n");
  std::string printed;
  ASSERT_EQ(Sweep(printed), 0) << printed;
  const std::string csv = support::read_file(dir_ / "out" / "sweep.csv");
  EXPECT_THAT(csv, HasSubstr(",iops,write_amplification,trims,trim_iops,refused,zone_management,"
                             "energy_flash_uj\n"));
  const auto job = nlohmann::json::parse(support::read_file(dir_ / "out" / "job-00000" / "summary.json"));
  const auto trims = job["experiments"][0]["runs"][0]["trims"].get<std::uint64_t>();
  EXPECT_GT(trims, 50u);
  EXPECT_THAT(csv, HasSubstr(fmt::format(",1.0000,{},", trims)));
  EXPECT_THAT(csv, ::testing::ContainsRegex(",RR,RR,,,,,1,[0-9.,]+,,0,0.0,0,0,[0-9.]+\n"));
  EXPECT_THAT(printed, ::testing::ContainsRegex("RR +[0-9.]+ +[0-9.]+ +-\n"));
}

TEST_F(SweepTest, BadSweepFilesAreOneLineErrors) {
  const fs::path bad = support::write_file(dir_ / "bad.toml", "workloads = [\"RW\"]\nfoo = 1\n");
  const auto sweep = [&](const fs::path& plan) {  // one error, nothing printed before it
    ssdlab::sim::SweepOptions options;
    options.plan = plan.string();
    options.outdir = (dir_ / "o").string();
    std::ostringstream out;
    const std::string error = support::error_of([&] { ssdlab::sim::run_sweep(options, out); });
    EXPECT_EQ(out.str(), "");
    return error;
  };
  EXPECT_EQ(sweep(bad), bad.string() +
                            ":2: unknown key 'foo' (known: configs, workloads, seeds, sets, grid, "
                            "exclude, skip_refused, precondition, precondition_threads, "
                            "load_state, io_log, fairness, mode, qd, speed, layout)");
  const fs::path none = support::write_file(dir_ / "none.toml", "workloads = [\"RW\"]\n");
  EXPECT_EQ(sweep(none), none.string() + ":1: configs: required (a list of strings)");
  // A name the OS refuses (longer than a file name may be) is the same kind
  // of error, naming the line and key, never an exception of another type
  // (the sweep fuzzer's finding in CI).
  const std::string long_name(300, 'a');
  const fs::path refused = support::write_file(
      dir_ / "refused.toml", "configs = [\"" + long_name + "\"]\nworkloads = [\"RW\"]\n");
  for (const std::string workloads : {"[[]]", "[[1]]", "[\"RW\", [\"RW\", \"\"]]"}) {
    const fs::path tenants = support::write_file(
        dir_ / "tenants.toml", "configs = [\"" + support::preset("tiny") + "\"]\nworkloads = " +
                                   workloads + "\n");
    EXPECT_EQ(sweep(tenants), tenants.string() +
                                  ":2: workloads: expected a non-empty list of workloads, each a "
                                  "string or a list of strings (tenants)")
        << workloads;
  }
  EXPECT_EQ(sweep(refused), refused.string() + ":1: configs: " + (dir_ / long_name).string() +
                                ": cannot be read: File name too long");
}

// A field with a line break (a carriage return too: a CSV reader ends a
// row there) is quoted, so that a config path holding one stays one field.
TEST(SweepCsv, FieldsWithLineBreaksAreQuoted) {
  EXPECT_EQ(ssdlab::sim::csv_field("a b"), "a b");
  EXPECT_EQ(ssdlab::sim::csv_field("a\rb"), "\"a\rb\"");
  EXPECT_EQ(ssdlab::sim::csv_field("a\nb,\"c\""), "\"a\nb,\"\"c\"\"\"");
}

}  // namespace
