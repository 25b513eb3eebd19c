// `ssdlab sweep` and `ssdlab collect`: a grid run in parallel gives what the
// same runs give one by one, collected into one table.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

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
  fs::path dir_, sweep_;
};

TEST_F(SweepTest, ParallelJobsMatchSingleRunsAndAreCollected) {
  const auto result = support::run_ssdlab("sweep " + support::shell_quote(sweep_) + " -j 2 -o " +
                                          support::shell_quote(dir_ / "out"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("4 jobs on 2 threads"));
  const std::string csv = support::read_file(dir_ / "out" / "sweep.csv");
  EXPECT_EQ(Lines(csv), 1u + 4);
  EXPECT_THAT(csv, HasSubstr("ftl.overprovisioning=0.25"));
  // Job 3 is the second set with seed 7: the same as running it alone.
  const auto alone = support::run_ssdlab("sim -c " + support::shell_quote(support::preset("tiny")) +
                                         " --set ftl.overprovisioning=0.25 --seed 7 "
                                         "--precondition random --no-io-log -w RW:count=3000 -o " +
                                         support::shell_quote(dir_ / "alone"));
  ASSERT_EQ(alone.exit_code, 0) << alone.output;
  const auto a = nlohmann::json::parse(support::read_file(dir_ / "alone" / "summary.json"));
  const auto b =
      nlohmann::json::parse(support::read_file(dir_ / "out" / "job-00003" / "summary.json"));
  EXPECT_EQ(a["experiments"][0]["runs"][0]["mean_us"], b["experiments"][0]["runs"][0]["mean_us"]);
  EXPECT_EQ(a["device"], b["device"]);
}

TEST_F(SweepTest, OneJobAndCollectReportMissingJobs) {
  const auto one = support::run_ssdlab("sweep " + support::shell_quote(sweep_) + " --job 1 -o " +
                                       support::shell_quote(dir_ / "out"));
  ASSERT_EQ(one.exit_code, 0) << one.output;
  EXPECT_TRUE(fs::exists(dir_ / "out" / "job-00001" / "summary.json"));
  EXPECT_FALSE(fs::exists(dir_ / "out" / "job-00000"));
  const auto collected = support::run_ssdlab("collect " + support::shell_quote(dir_ / "out"));
  EXPECT_EQ(collected.exit_code, 1);
  EXPECT_THAT(collected.output, HasSubstr("1 rows from 1 jobs (3 missing)"));
}

TEST_F(SweepTest, SlurmScriptIsAnArrayOverTheJobs) {
  const auto result = support::run_ssdlab("sweep " + support::shell_quote(sweep_) + " -o " +
                                          support::shell_quote(dir_ / "out") + " --slurm " +
                                          support::shell_quote(dir_ / "run.sh"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::string script = support::read_file(dir_ / "run.sh");
  EXPECT_THAT(script, HasSubstr("#SBATCH --array=0-3"));
  EXPECT_THAT(script, HasSubstr("--job \"$SLURM_ARRAY_TASK_ID\""));
  EXPECT_FALSE(fs::exists(dir_ / "out" / "job-00000"));  // nothing run here
}

TEST_F(SweepTest, BadSweepFilesAreOneLineErrors) {
  const fs::path bad = support::write_file(dir_ / "bad.toml", "workloads = [\"RW\"]\nfoo = 1\n");
  const auto unknown = support::run_ssdlab("sweep " + support::shell_quote(bad) + " -o " +
                                           support::shell_quote(dir_ / "o"));
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_EQ(unknown.output,
            "ssdlab: " + bad.string() +
                ":2: unknown key 'foo' (known: configs, workloads, seeds, sets, grid, "
                "precondition, load_state, io_log)\n");
  const fs::path none = support::write_file(dir_ / "none.toml", "workloads = [\"RW\"]\n");
  const auto missing = support::run_ssdlab("sweep " + support::shell_quote(none) + " -o " +
                                           support::shell_quote(dir_ / "o"));
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.output,
            "ssdlab: " + none.string() + ":1: configs: required (a list of strings)\n");
}

}  // namespace
