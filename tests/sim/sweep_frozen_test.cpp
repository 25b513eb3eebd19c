// A sweep's frozen job list (sim/sweep/sweep_frozen.h) and its Slurm scripts
// (sim/sweep/sweep_slurm.h): tasks run what was submitted whatever happens to
// the sweep file and configs after, collect takes only the frozen jobs'
// results, a folder of another sweep is refused unless replaced, a sweep
// larger than MaxArraySize is submitted in chunks, and every FTL's summary
// reads back through collect and compare.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "analysis/compare.h"
#include "ftl/ftl.h"
#include "sim/sweep/sweep.h"
#include "sim/sweep/sweep_frozen.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
namespace support = ssdlab::testing;
using ::testing::HasSubstr;
using ::testing::Not;

class SweepFrozenTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = support::temp_dir_for_this_test("sweep-frozen-");
    fs::copy_file(support::preset("tiny"), dir_ / "device.toml");
    Write({"ftl.overprovisioning=0.10", "ftl.overprovisioning=0.25"});
  }
  void Write(const std::vector<std::string>& sets, const std::string& extra = "") {
    std::string text = "configs = [\"device.toml\"]\nsets = [";
    for (const std::string& set : sets) text += "[\"" + set + "\"], ";
    text += "]\nworkloads = [\"RW:count=1500\"]\nseeds = [1, 2]\n" + extra;
    support::write_file(dir_ / "sweep.toml", text);
  }
  // run_sweep into dir_/`out`; returns its status, `printed` what it printed.
  int Sweep(ssdlab::sim::SweepOptions options, const std::string& out = "out",
            std::string* printed = nullptr) {
    if (!options.job && !options.state) options.plan = (dir_ / "sweep.toml").string();
    options.outdir = (dir_ / out).string();
    options.quiet = true;
    std::ostringstream text;
    const int status = ssdlab::sim::run_sweep(options, text);
    if (printed) *printed = text.str();
    return status;
  }
  int Submit(const std::string& out = "out") {
    ssdlab::sim::SweepOptions options;
    options.slurm = (dir_ / (out + ".sbatch")).string();
    return Sweep(options, out);
  }
  int Task(std::uint64_t job, const std::string& out = "out") {
    ssdlab::sim::SweepOptions options;
    options.job = job;
    return Sweep(options, out);
  }
  int Collect(std::string& printed, const std::string& out = "out") {
    std::ostringstream text;
    const int status = ssdlab::sim::run_collect_alone((dir_ / out).string(), text);
    printed = text.str();
    return status;
  }
  nlohmann::json Summary(const std::string& job, const std::string& out = "out") {
    return nlohmann::json::parse(support::read_file(dir_ / out / job / "summary.json"));
  }
  fs::path dir_;
};

TEST_F(SweepFrozenTest, EditingTheSweepAndConfigAfterSubmissionChangesNothing) {
  ASSERT_EQ(Submit(), 0);
  // The next experiment's edits while the tasks wait in the queue.
  Write({"ftl.overprovisioning=0.40", "ftl.overprovisioning=0.10", "ftl.overprovisioning=0.25"});
  support::write_file(dir_ / "device.toml", "this is not a config\n");
  for (std::uint64_t job = 0; job < 4; ++job) ASSERT_EQ(Task(job), 0) << job;
  EXPECT_EQ(Summary("job-00000")["config"]["ftl"]["overprovisioning"], 0.10);
  EXPECT_EQ(Summary("job-00003")["config"]["ftl"]["overprovisioning"], 0.25);
  std::string printed;
  EXPECT_EQ(Collect(printed), 0) << printed;
  EXPECT_THAT(printed, HasSubstr("4 rows from 4 jobs"));
  EXPECT_THAT(printed, Not(HasSubstr("0.40")));
  // A task needs no sweep file at all: it reads the list, never rewrites it.
  const auto list = support::read_file(dir_ / "out" / "jobs.json");
  fs::remove(dir_ / "sweep.toml");
  ASSERT_EQ(Task(1), 0);
  EXPECT_EQ(support::read_file(dir_ / "out" / "jobs.json"), list);
}

TEST_F(SweepFrozenTest, CollectTakesNoResultOfAnotherSweepOrRun) {
  ASSERT_EQ(Sweep({}, "a"), 0);  // OP 0.10 and 0.25
  Write({"ftl.overprovisioning=0.40", "ftl.overprovisioning=0.60"});
  ASSERT_EQ(Submit("b"), 0);
  ASSERT_EQ(Task(0, "b"), 0);
  // Job 1 of b never ran; its folder holds a's job 1 (a reused folder, a
  // copy): collect must not pass it off as b's.
  fs::copy(dir_ / "a" / "job-00001", dir_ / "b" / "job-00001");
  // Job 2's summary was replaced by another run of another seed.
  ASSERT_EQ(Task(2, "b"), 0);
  fs::copy_file(dir_ / "a" / "job-00003" / "summary.json",
                dir_ / "b" / "job-00002" / "summary.json", fs::copy_options::overwrite_existing);
  std::string printed;
  EXPECT_EQ(Collect(printed, "b"), 1);
  EXPECT_THAT(printed, HasSubstr("job-00001 not taken"));
  EXPECT_THAT(printed, HasSubstr("a result of another sweep"));
  EXPECT_THAT(printed, HasSubstr("job-00002 not taken"));
  EXPECT_THAT(printed, HasSubstr("job-00003 missing"));
  EXPECT_THAT(printed, HasSubstr("1 rows from 1 jobs (3 missing or not taken)"));
}

TEST_F(SweepFrozenTest, AFolderOfAnotherSweepIsRefusedUnlessReplaced) {
  ASSERT_EQ(Sweep({}), 0);
  ASSERT_EQ(Sweep({}), 0);  // the same sweep again: its own folder
  Write({"ftl.overprovisioning=0.40"});
  ssdlab::sim::SweepOptions options;
  options.slurm = (dir_ / "b.sbatch").string();
  const std::string error = support::error_of([&] { Sweep(options); });
  EXPECT_THAT(error, HasSubstr("holds the jobs.json of another sweep"));
  EXPECT_THAT(error, HasSubstr("--replace"));
  EXPECT_TRUE(fs::exists(dir_ / "out" / "job-00003"));
  options.replace = true;
  ASSERT_EQ(Sweep(options), 0);
  EXPECT_FALSE(fs::exists(dir_ / "out" / "job-00000"));
  EXPECT_FALSE(fs::exists(dir_ / "out" / "job-00003"));
}

TEST_F(SweepFrozenTest, ASweepLargerThanMaxArraySizeIsSubmittedInChunks) {
  std::string seeds;
  for (int seed = 0; seed < 1250; ++seed) seeds += std::to_string(seed) + ",";
  support::write_file(dir_ / "sweep.toml",
                      "configs = [\"device.toml\"]\nworkloads = [\"RW:count=1000\"]\nseeds = [" +
                          seeds + "]\n[grid]\n\"ftl.overprovisioning\" = [0.1, 0.2]\n");
  ssdlab::sim::SweepOptions options;
  options.slurm = (dir_ / "big.sbatch").string();
  options.cluster.max_array_size = 1001;
  std::string printed;
  ASSERT_EQ(Sweep(options, "out", &printed), 0);
  EXPECT_THAT(printed, HasSubstr("2500 jobs as a Slurm array in 3 chunks of at most 1001"));
  EXPECT_THAT(support::read_file(dir_ / "big.sbatch"), HasSubstr("#SBATCH --array=0-1000\n"));
  const std::string submit = support::read_file(dir_ / "big-submit.sh");
  EXPECT_THAT(submit, HasSubstr("--array=0-1000 \"$script\" 0)"));
  EXPECT_THAT(submit, HasSubstr("--array=0-1000 \"$script\" 1001)"));
  EXPECT_THAT(submit, HasSubstr("--array=0-497 \"$script\" 2002)"));
  EXPECT_THAT(submit, HasSubstr("--dependency=afterany:$deps"));
}

TEST_F(SweepFrozenTest, TheScriptQuotesPathsAndAsksForResources) {
  ssdlab::sim::SweepOptions options;
  options.slurm = (dir_ / "run.sbatch").string();
  options.cluster.partition = "short";
  options.cluster.account = "lab";
  options.cluster.extra = {"--constraint=avx2"};
  options.cluster.cpus = 4;
  ASSERT_EQ(Sweep(options, "my o'ut"), 0);
  const std::string script = support::read_file(dir_ / "run.sbatch");
  for (const char* line :
       {"#SBATCH --partition=short\n", "#SBATCH --account=lab\n", "#SBATCH --constraint=avx2\n",
        "#SBATCH --cpus-per-task=4\n", "#SBATCH --mem=", "#SBATCH --time=0-00:05:00\n",
        "/logs/slurm-%A_%a.log\"\n", "my o'\\''ut'"})
    EXPECT_THAT(script, HasSubstr(line));
  options.cluster.mem = "3G";
  options.cluster.time = "1:00:00";
  ASSERT_EQ(Sweep(options, "my o'ut"), 0);
  EXPECT_THAT(support::read_file(dir_ / "run.sbatch"),
              HasSubstr("#SBATCH --mem=3G\n#SBATCH --time=1:00:00\n"));
}

// A task runs every key a job has beside its config and workload (issue
// 44's trace keys and precondition_threads, tenants with a layout): the
// summary of `sweep --job N` from the frozen list is the local sweep's,
// and shows the keys took effect (closed loop at qd 8, speed 4).
TEST_F(SweepFrozenTest, ATaskRunsTheTraceKeysOfTheLocalSweep) {
  const std::string trace = std::string(SSDLAB_SOURCE_DIR) + "/traces/examples/synthetic.csv";
  const std::string base = "configs = [\"device.toml\"]\nprecondition = \"random\"\n"
                           "precondition_threads = 2\n";
  const std::pair<const char*, std::string> sweeps[] = {
      {"closed", base + "workloads = [\"trace:" + trace + "\"]\nmode = \"closed\"\nqd = 8\n"},
      {"open", base + "workloads = [\"trace:" + trace + "\", [\"trace:" + trace +
                   ",name=a\", \"trace:" + trace + ",name=b\"]]\nspeed = 4\n"
                   "layout = \"partitioned\"\n"}};
  for (const auto& [name, text] : sweeps) {
    support::write_file(dir_ / "sweep.toml", text);
    const std::string local = std::string("local-") + name, slurm = std::string("slurm-") + name;
    std::string printed;
    ASSERT_EQ(Sweep({}, local, &printed), 0) << printed;
    ASSERT_EQ(Submit(slurm), 0);
    const auto list = nlohmann::json::parse(support::read_file(dir_ / slurm / "jobs.json"));
    ASSERT_EQ(list["jobs"].size(), name == std::string("open") ? 2u : 1u);
    for (std::uint64_t job = 0; job < list["jobs"].size(); ++job) {
      ASSERT_EQ(Task(job, slurm), 0) << name << " job " << job;
      const std::string dir = fmt::format("job-{:05}", job);
      const nlohmann::json a = Summary(dir, local), b = Summary(dir, slurm);
      EXPECT_EQ(a["experiments"], b["experiments"]) << name << " " << dir;
      // (The state comes from the state cache: its threads are its maker's.)
      const auto frozen = ssdlab::sim::frozen_job(list, job, dir_ / slurm).job;
      EXPECT_EQ(frozen.precondition_threads, 2u);
      EXPECT_EQ(frozen.layout, name == std::string("open") ? "partitioned" : "");
      const nlohmann::json& replayed = b["experiments"][0]["trace"];
      if (name == std::string("closed")) {
        EXPECT_EQ(replayed["mode"], "closed");
        EXPECT_EQ(replayed["queue_depth"], 8);
      } else {
        EXPECT_EQ(replayed["speed"], 4.0) << dir;
      }
    }
    EXPECT_EQ(Collect(printed, slurm), 0) << printed;
    EXPECT_EQ(support::read_file(dir_ / slurm / "sweep.csv"),
              support::read_file(dir_ / local / "sweep.csv"));
  }
}

TEST_F(SweepFrozenTest, EveryFtlsSummaryReadsBackThroughCollectAndCompare) {
  std::string sets;
  const auto names = ssdlab::ftl::ftl_names();
  for (const std::string& name : names) sets += "[\"ftl.type=" + name + "\"], ";
  support::write_file(dir_ / "sweep.toml", "configs = [\"device.toml\"]\nsets = [" + sets +
                                               "]\nworkloads = [\"RW:count=1000\"]\n");
  std::string printed;
  ASSERT_EQ(Sweep({}, "out", &printed), 0) << printed;
  EXPECT_THAT(printed, HasSubstr(std::to_string(names.size()) + " rows from " +
                                 std::to_string(names.size()) + " jobs"));
  for (std::size_t job = 0; job < names.size(); ++job) {
    ssdlab::analysis::CompareOptions compare;
    compare.a = (dir_ / "out" / "job-00000").string();
    compare.b = (dir_ / "out" / fmt::format("job-{:05}", job)).string();
    std::ostringstream out;
    EXPECT_EQ(ssdlab::analysis::run_compare(compare, out), 0) << names[job] << out.str();
  }
}

}  // namespace
