// `ssdlab compare`'s inputs told by their content, not their names: fio JSON
// in each output mode (json, json+, normal,json; after fio's notes) whatever
// the file is called, latency logs by their line shape, averaged logs
// refused, per-job logs (numjobs) pooled, and non-grouped jobs pooled from
// their histograms. Expected figures are computed by hand from the samples.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <string>

#include "analysis/compare.h"
#include "analysis/fio_import.h"
#include "common/error.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
namespace support = ssdlab::testing;
using ssdlab::analysis::load_side;
using ::testing::HasSubstr;

std::string ErrorOf(const std::function<void()>& body) {
  try {
    body();
  } catch (const ssdlab::Error& error) {
    return error.what();
  }
  return "no error";
}

// One fio >= 3.0 job that read 4 I/Os; bins only in json+.
std::string Job(const std::string& name, bool bins) {
  return R"({"jobname" : ")" + name + R"(", "groupid" : 0,
  "read" : {"io_bytes" : 16384, "total_ios" : 4,
    "clat_ns" : {"min" : 1000, "max" : 4000, "mean" : 2500.0, "N" : 4,
                 "percentile" : {"50.000000" : 2000, "99.000000" : 4000})" +
         (bins ? R"(, "bins" : {"1000" : 1, "2000" : 1, "3000" : 1, "4000" : 1})" : "") +
         R"(}}})";
}

std::string FioJson(const std::string& jobs) {
  return "{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [\n" + jobs + "\n  ]\n}\n";
}

// What fio's normal format prints around the JSON with --output-format=normal,json.
constexpr const char* kNormalBefore =
    "seq: (g=0): rw=read, bs=(R) 4096B-4096B, ioengine=psync, iodepth=1\n"
    "fio-3.33\nStarting 1 process\n";
constexpr const char* kNormalAfter =
    "seq: (groupid=0, jobs=1): err= 0: pid=4242: Tue Nov 24 01:00:00 2026\n"
    "  read: IOPS=400, BW=1600KiB/s (1638kB/s)(16.0KiB/10msec)\n"
    "    clat (nsec): min=1000, max=4000, avg=2500.00, stdev=1118.03\n"
    "    clat percentiles (nsec):\n"
    "     |  1.00th=[ 1000],  5.00th=[ 1000], 10.00th=[ 1000], 20.00th=[ 1000],\n"
    "Run status group 0 (all jobs):\n"
    "   READ: bw=1600KiB/s (1638kB/s), io=16.0KiB (16.4kB), run=10-10msec\n";

class FioDetect : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = support::temp_dir_for_this_test("fio-detect-"); }
  std::string Write(const std::string& name, const std::string& text) {
    return support::write_file(dir_ / name, text).string();
  }
  fs::path dir_;
};

TEST_F(FioDetect, JsonSavedAsTxtAfterANoteLine) {
  const auto path = Write("seq.txt",
                          "note: both iodepth >= 1 and synchronous I/O engine are selected, "
                          "queue depth will be capped at 1\n" +
                              FioJson(Job("seq", false)));
  const auto side = load_side(path, "");
  EXPECT_EQ(side.kind, "fio JSON");
  ASSERT_EQ(side.experiments.size(), 1u);
  EXPECT_DOUBLE_EQ(side.experiments[0].runs[0].p99_us, 4.0);
}

TEST_F(FioDetect, JsonInsideNormalOutput) {
  const auto path =
      Write("seq.out", std::string(kNormalBefore) + FioJson(Job("seq", false)) + kNormalAfter);
  const auto side = load_side(path, "");
  EXPECT_EQ(side.kind, "fio JSON");
  EXPECT_DOUBLE_EQ(side.experiments[0].runs[0].mean_us, 2.5);
  EXPECT_DOUBLE_EQ(side.experiments[0].runs[0].p50_us, 2.0);
}

TEST_F(FioDetect, JsonPlusReadsTheSameFigures) {
  const auto path = Write("seq.log", FioJson(Job("seq", true)));  // named like a log
  const auto side = load_side(path, "");
  EXPECT_EQ(side.kind, "fio JSON");
  EXPECT_DOUBLE_EQ(side.experiments[0].runs[0].p99_us, 4.0);
  EXPECT_EQ(side.experiments[0].runs[0].count, 4u);
}

// numjobs=2 without group_reporting, json+: the histograms are summed.
//   job 1: 1000 x50, 2000 x40, 5000 x10 (N 100, mean 1800 ns)
//   job 2: 3000 x90, 9000 x10           (N 100, mean 3600 ns)
// Pooled, cumulative: 1000:50 2000:90 3000:180 5000:190 9000:200.
// p50: first cumulative >= 100 -> 3000 ns; p99: first >= 198 -> 9000 ns;
// mean (1800 + 3600) / 2 = 2700 ns. (The mean of the jobs' own p99s, 5000
// and 9000, would be 7000 ns; of their p50s, 1000 and 3000, 2000 ns.)
TEST_F(FioDetect, JobsOfOneNamePooledFromHistograms) {
  const std::string one = R"({"jobname" : "rr", "read" : {"clat_ns" : {"mean" : 1800.0, "N" : 100,
      "percentile" : {"50.000000" : 1000, "99.000000" : 5000},
      "bins" : {"1000" : 50, "2000" : 40, "5000" : 10}}}})";
  const std::string two = R"({"jobname" : "rr", "read" : {"clat_ns" : {"mean" : 3600.0, "N" : 100,
      "percentile" : {"50.000000" : 3000, "99.000000" : 9000},
      "bins" : {"3000" : 90, "9000" : 10}}}})";
  const auto path = Write("plus.json", FioJson(one + ",\n" + two));
  const auto side = load_side(path, "");
  ASSERT_EQ(side.experiments.size(), 1u);
  ASSERT_EQ(side.experiments[0].runs.size(), 1u);
  const auto& run = side.experiments[0].runs[0];
  EXPECT_EQ(run.count, 200u);
  EXPECT_DOUBLE_EQ(run.mean_us, 2.7);
  EXPECT_DOUBLE_EQ(run.p50_us, 3.0);
  EXPECT_DOUBLE_EQ(run.p99_us, 9.0);
}

TEST_F(FioDetect, JobsOfOneNameWithoutHistogramsAreRefused) {
  const auto path = Write("plain.json", FioJson(Job("seq", false) + ",\n" + Job("seq", false)));
  EXPECT_THAT(ErrorOf([&] { load_side(path, ""); }),
              HasSubstr("2 jobs named seq (numjobs without group_reporting)"));
}

TEST(FindFioJson, BracesInsideStringsDoNotEndTheObject) {
  const std::string text = "note: x\n{\"jobs\" : [{\"jobname\" : \"a}b{\\\"\"}]}\nafter {\n";
  const auto [begin, end] = ssdlab::analysis::find_fio_json(text, "f");
  EXPECT_EQ(begin, 8u);
  EXPECT_EQ(text.substr(end), "\nafter {\n");
}

TEST_F(FioDetect, LatencyLogToldByItsLinesWhateverItsName) {
  const auto path = Write("latencies.json", "1, 250000, 1, 4096, 0, 0\n2, 350000, 1, 4096, 0, 0\n");
  const auto side = load_side(path, "x");
  EXPECT_EQ(side.kind, "fio latency log");
  EXPECT_DOUBLE_EQ(side.experiments[0].runs[0].mean_us, 300.0);
}

TEST_F(FioDetect, AveragedLogIsRefused) {
  // log_avg_msec=1000: one line per second and direction, bs 0.
  const auto path = Write("avg_clat.1.log", "1000, 82800, 0, 0, 0\n2000, 83100, 0, 0, 0\n");
  EXPECT_THAT(ErrorOf([&] { load_side(path, ""); }),
              HasSubstr("an averaged fio log (log_avg_msec: 2 of its 2 lines have bs 0"));
}

TEST_F(FioDetect, UnknownContentIsNamed) {
  const auto path = Write("notes.txt", "hello world\n");
  EXPECT_THAT(ErrorOf([&] { load_side(path, ""); }),
              HasSubstr("cannot tell what it is: not fio JSON"));
}

// numjobs=2: seq_clat.1.log and seq_clat.2.log.
//   job 1: 100 200 300 400 500 us; job 2: 600 700 800 900 1000 us.
// Pooled (10 samples, nearest rank): p50 = 5th = 500 us, p99 = 10th = 1000 us,
// mean 550 us. Job 1 alone: p99 500 us.
class PerJobLogs : public FioDetect {
 protected:
  void SetUp() override {
    FioDetect::SetUp();
    std::string one, two;
    for (int k = 1; k <= 5; ++k) {
      one += std::to_string(k) + ", " + std::to_string(k * 100000) + ", 0, 4096, 0, 0\n";
      two += std::to_string(k) + ", " + std::to_string((k + 5) * 100000) + ", 0, 4096, 0, 0\n";
    }
    Write("seq_clat.1.log", one);
    Write("seq_clat.2.log", two);
    Write("seq_slat.1.log", "1, 5, 0, 4096, 0, 0\n");  // not a response time: not pooled
  }
};

TEST_F(PerJobLogs, PooledWhenGivenTheJobName) {
  const auto side = load_side((dir_ / "seq").string(), "");
  EXPECT_THAT(side.kind, HasSubstr("fio latency logs, 2 pooled"));
  ASSERT_EQ(side.experiments.size(), 1u);
  EXPECT_EQ(side.experiments[0].name, "seq");
  const auto& run = side.experiments[0].runs[0];
  EXPECT_EQ(run.count, 10u);
  EXPECT_DOUBLE_EQ(run.mean_us, 550.0);
  EXPECT_DOUBLE_EQ(run.p50_us, 500.0);
  EXPECT_DOUBLE_EQ(run.p99_us, 1000.0);
}

TEST_F(PerJobLogs, PooledWhenGivenAPattern) {
  const auto side = load_side((dir_ / "seq_clat.*.log").string(), "");
  EXPECT_DOUBLE_EQ(side.experiments[0].runs[0].p99_us, 1000.0);
  EXPECT_EQ(side.experiments[0].runs[0].count, 10u);
}

TEST_F(PerJobLogs, OneOfThemSaysTheOthersExist) {
  const auto side = load_side((dir_ / "seq_clat.1.log").string(), "");
  EXPECT_THAT(side.kind, HasSubstr("1 of 2 per-job logs: give " + (dir_ / "seq").string()));
  EXPECT_DOUBLE_EQ(side.experiments[0].runs[0].p99_us, 500.0);
}

TEST_F(PerJobLogs, CompareReadsThemFromTheCommandLine) {
  const auto result = support::run_ssdlab("compare " + support::shell_quote(dir_ / "seq") + " " +
                                          support::shell_quote(dir_ / "seq_clat.2.log"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("fio latency logs, 2 pooled"));
  // p99: pooled 1000 us against job 2's 1000 us; p50: 500 against 800.
  EXPECT_THAT(result.output, HasSubstr("1000.000"));
  EXPECT_THAT(result.output, HasSubstr("800.000"));
}

// A quoted pattern over the logs of different jobs (the performance
// engineer's 'fio/logs/*_lat.*.log' over rw4k, rr4k, ...) mixed their
// workloads into one experiment named after the first; it is refused, and
// --pool-jobs pools them when that is what is wanted.
TEST_F(PerJobLogs, PatternOverDifferentJobsIsRefusedUnlessAskedToPool) {
  Write("rand_clat.1.log", "1, 9000000, 1, 4096, 0, 0\n");
  const std::string pattern = (dir_ / "*_clat.*.log").string();
  EXPECT_THAT(ErrorOf([&] { load_side(pattern, ""); }),
              HasSubstr(pattern + ": matches the logs of 2 different fio jobs (rand, seq): "
                                  "pooling them would mix their workloads"));
  const auto cli = support::run_ssdlab("compare " + support::shell_quote(pattern) + " " +
                                       support::shell_quote(dir_ / "seq"));
  EXPECT_EQ(cli.exit_code, 1) << cli.output;
  EXPECT_THAT(cli.output, HasSubstr("--pool-jobs pools them anyway"));
  const auto pooled = load_side(pattern, "", true);
  ASSERT_EQ(pooled.experiments.size(), 1u);
  EXPECT_EQ(pooled.experiments[0].runs[0].count, 11u);
  EXPECT_DOUBLE_EQ(pooled.experiments[0].runs[0].p99_us, 9000.0);
}

}  // namespace
