// Sweep files that do what `sim` does (issue 44): grids over combinations
// some FTLs refuse (FTL x victim policy) with exclude, skip_refused or
// several [[grid]] tables, errors at the offending line, trace:FILE,key=...
// workloads and the trace keys, sweep.csv's workload and uFLIP columns, and
// the sweep's progress line with each running job's stage.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/sweep/sweep.h"
#include "sim/sweep/sweep_progress.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
namespace support = ssdlab::testing;
using ::testing::HasSubstr;
using ::testing::Not;

class SweepGridTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = support::temp_dir_for_this_test("sweep-grid-"); }
  fs::path Write(const std::string& name, const std::string& body) {
    return support::write_file(dir_ / name, "configs = [\"" + support::preset("tiny") + "\"]\n" +
                                                body);
  }
  // run_sweep (or its Slurm script only: nothing runs); what it prints.
  // Each sweep file of a test goes into the same folder, replacing the
  // last one's (another sweep's folder is refused without --replace).
  std::string Sweep(const fs::path& file, bool run, int* status = nullptr) {
    ssdlab::sim::SweepOptions options;
    options.plan = file.string();
    options.outdir = (dir_ / "out").string();
    options.replace = true;
    options.quiet = true;
    if (!run) options.slurm = (dir_ / "run.sh").string();
    std::ostringstream out;
    const int result = ssdlab::sim::run_sweep(options, out);
    if (status) *status = result;
    return out.str();
  }
  std::size_t Jobs() {
    return nlohmann::json::parse(support::read_file(dir_ / "out" / "jobs.json"))["jobs"].size();
  }
  std::string Error(const fs::path& file) {
    return support::error_of([&] { Sweep(file, false); });
  }
  fs::path dir_;
};

constexpr const char* kFtlByPolicy =
    "[grid]\n"
    "\"ftl.type\" = [\"page-mapped\", \"dftl\", \"bast\", \"fast\"]\n"
    "\"ftl.victim_policy\" = [\"greedy\", \"cost-benefit\"]\n";

TEST_F(SweepGridTest, ARefusedCombinationIsReportedAtTheLineOfTheValueRefused) {
  const fs::path file = Write("naive.toml", "# a comment\nworkloads = [\"RW:count=100\"]\n" +
                                                std::string(kFtlByPolicy));
  const std::string error = Error(file);
  // Line 6 holds "ftl.victim_policy" (the config is line 1): not line 1.
  EXPECT_THAT(error, HasSubstr(file.string() + ":6: grid.\"ftl.victim_policy\": --set ftl.victim_policy=greedy:"));
  EXPECT_THAT(error, HasSubstr("combination ftl.type=bast, ftl.victim_policy=greedy"));
  EXPECT_THAT(error, HasSubstr("exclude = [...] or skip_refused = true"));
}

TEST_F(SweepGridTest, ExcludeSkipRefusedAndSeveralGridsLeaveTheRefusedCombinationsOut) {
  Sweep(Write("exclude.toml",
              "workloads = [\"RW:count=100\"]\n"
              "exclude = [{ \"ftl.type\" = [\"bast\", \"fast\"], \"ftl.victim_policy\" = "
              "[\"greedy\", \"cost-benefit\"] }]\n" +
                  std::string(kFtlByPolicy)),
        false);
  EXPECT_EQ(Jobs(), 4u);
  const std::string printed =
      Sweep(Write("skip.toml", "workloads = [\"RW:count=100\"]\nskip_refused = true\n" +
                                   std::string(kFtlByPolicy)),
            false);
  EXPECT_EQ(Jobs(), 4u);
  EXPECT_THAT(printed, HasSubstr("skipped (skip_refused): tiny.toml with ftl.type=bast, "
                                 "ftl.victim_policy=greedy: ftl.victim_policy: only"));
  // Kept in the frozen list, which the Slurm tasks and collect read.
  const auto list = nlohmann::json::parse(support::read_file(dir_ / "out" / "jobs.json"));
  ASSERT_EQ(list["skipped"].size(), 4u);
  EXPECT_THAT(list["skipped"][0].get<std::string>(), HasSubstr("ftl.type=bast"));
  // page-mapped and DFTL with each policy, then BAST and FAST: 6 variants.
  Sweep(Write("grids.toml", "workloads = [\"RW:count=100\"]\n"
                            "[[grid]]\n\"ftl.type\" = [\"page-mapped\", \"dftl\"]\n"
                            "\"ftl.victim_policy\" = [\"greedy\", \"cost-benefit\"]\n"
                            "[[grid]]\n\"ftl.type\" = [\"bast\", \"fast\"]\n"),
        false);
  EXPECT_EQ(Jobs(), 6u);
}

TEST_F(SweepGridTest, MistakesInExcludeAndSkipRefusedAreErrorsAtTheirLines) {
  // A value no combination accepts is a mistake, not a refusal.
  const fs::path typo = Write("typo.toml", "workloads = [\"RW:count=100\"]\nskip_refused = true\n"
                                           "[grid]\n\"ftl.type\" = [\"page-mapped\"]\n"
                                           "\"ftl.victim_policy\" = [\"greedy\", \"cost-benfit\"]\n");
  EXPECT_THAT(Error(typo), HasSubstr(typo.string() + ":6: grid.\"ftl.victim_policy\": --set ftl.victim_policy=cost-benfit"));
  const fs::path unmatched =
      Write("unmatched.toml", "workloads = [\"RW:count=100\"]\n"
                              "exclude = [{ \"ftl.type\" = \"bsat\" }]\n" + std::string(kFtlByPolicy));
  EXPECT_EQ(Error(unmatched), unmatched.string() +
                                  ":3: exclude: this entry matches no combination (a misspelt value?)");
  const fs::path after = Write("after.toml", "workloads = [\"RW:count=100\"]\n" +
                                                 std::string(kFtlByPolicy) + "skip_refused = true\n");
  EXPECT_THAT(Error(after), HasSubstr(":6: grid: 'skip_refused' is a key of the sweep file"));
  const fs::path speed = Write("speed.toml", "workloads = [\"trace:x.csv\"]\nmode = \"closed\"\n"
                                             "speed = 2\n");
  EXPECT_THAT(Error(speed), HasSubstr(speed.string() + ":4: speed: applies to mode = \"open\""));
  const fs::path plans = Write("plans.toml", "workloads = [\"RW:count=100\"]\nqd = 4\n");
  EXPECT_THAT(Error(plans), HasSubstr(plans.string() + ":3: qd: applies to mode = \"closed\""));
  // A recorded io.csv replayed by its dependencies keeps its own pace.
  const fs::path dependent = Write("dependent.toml",
                                   "workloads = [\"trace:x.csv\"]\n"
                                   "mode = \"dependent\"\nspeed = 2\n");
  EXPECT_THAT(Error(dependent),
              HasSubstr(dependent.string() + ":4: speed: applies to mode = \"open\" (dependent "
                                             "replay ignores trace times)"));
  const fs::path half = Write("half.toml", "workloads = [\"trace:x.csv\"]\nmode = \"half\"\n");
  EXPECT_THAT(Error(half), HasSubstr(":3: mode: 'half': expected \"open\", \"closed\" or "
                                     "\"dependent\""));
}

TEST_F(SweepGridTest, TraceKeysRunAsInSimAndBecomeTypedColumns) {
  const std::string trace = std::string(SSDLAB_SOURCE_DIR) + "/traces/examples/synthetic.csv";
  int status = 0;
  const std::string printed = Sweep(
      Write("traces.toml", "workloads = [\"trace:" + trace + ",name=slow\", \"trace:" + trace +
                               ",speed=200,name=fast\", \"uflip:granularity:count=64,runs=1\"]\n"
                               "precondition = \"random\"\n"),
      true, &status);
  ASSERT_EQ(status, 0) << printed;
  EXPECT_THAT(printed, HasSubstr("job-00001 done in "));
  const std::string csv = support::read_file(dir_ / "out" / "sweep.csv");
  EXPECT_THAT(csv, HasSubstr(",workload,workload.name,workload.speed,workload.count,"
                             "workload.runs,seed,experiment,pattern,benchmark,column,parameter,"
                             "value,runs,"));
  EXPECT_THAT(csv, HasSubstr(",fast,200,,,1,fast,trace,,,,,1,"));
  EXPECT_THAT(csv, HasSubstr("\"uflip:granularity:count=64,runs=1\",,,64,1,1,"));
  EXPECT_THAT(csv, HasSubstr(",granularity,SR,io_size,4096,"));  // a number, not "4KiB"
  const auto first = nlohmann::json::parse(
      support::read_file(dir_ / "out" / "job-00000" / "summary.json"));
  const auto second = nlohmann::json::parse(
      support::read_file(dir_ / "out" / "job-00001" / "summary.json"));
  EXPECT_NE(first["experiments"][0]["runs"][0]["end_us"],
            second["experiments"][0]["runs"][0]["end_us"]);  // speed=200 took effect
}

TEST(SweepProgressTest, TheLineCountsRunningJobsPartsAndNamesTheirStages) {
  std::string shown;
  auto now = std::chrono::steady_clock::time_point{};
  ssdlab::Progress line("sweep", 2 * ssdlab::sim::SweepProgress::kScale, "jobs",
                        [&shown](std::string_view text) { shown = std::string(text); },
                        [&now] { return now += std::chrono::seconds(1); });
  ssdlab::sim::SweepProgress progress(std::move(line), 2);
  const auto second = progress.observer(1);
  ASSERT_TRUE(second);
  second("preconditioning (random)", 60, 100);  // its first half: 0.3 of a job
  EXPECT_THAT(shown, HasSubstr("sweep: 0.3/2.0 jobs (15%)"));
  EXPECT_THAT(shown, HasSubstr("; job-00001 preconditioning 60%"));
  std::string printed;
  progress.finished(0, [&printed] { printed = "job 0"; });
  EXPECT_EQ(printed, "job 0");
  EXPECT_THAT(shown, HasSubstr("sweep: 1.3/2.0 jobs (65%)"));
  EXPECT_THAT(shown, HasSubstr("ETA "));
  second("simulating", 50, 100);  // the second half
  EXPECT_THAT(shown, HasSubstr("1.8/2.0 jobs"));
  EXPECT_THAT(shown, HasSubstr("job-00001 simulating 50%"));
  EXPECT_THAT(shown, Not(HasSubstr("job-00000")));
  EXPECT_EQ(ssdlab::sim::SweepProgress::parts(false, "simulating", 1, 4), 250u);
}

}  // namespace
