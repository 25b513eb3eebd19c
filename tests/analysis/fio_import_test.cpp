// The readers behind `ssdlab compare`: io.csv read back, fio latency logs and
// fio JSON output, on small hand-written samples (shared/FORMATS.md).
#include "analysis/fio_import.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "common/error.h"
#include "sim/results/fio_export.h"
#include "sim/results/io_csv.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
namespace support = ssdlab::testing;
using ssdlab::Error;
using ssdlab::TimeNs;
using ssdlab::analysis::ExperimentFigures;

// Runs `body`, expecting an ssdlab::Error with exactly `message`.
template <typename Body>
void ExpectError(Body body, const std::string& message) {
  try {
    body();
    ADD_FAILURE() << "no error; expected: " << message;
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()), message);
  }
}

class FioImportTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = support::temp_dir_for_this_test("fio-"); }
  fs::path Write(const std::string& name, const std::string& text) {
    return support::write_file(dir_ / name, text);
  }
  fs::path dir_;
};

// A fio >= 3.0 job with writes only; values in nanoseconds.
constexpr const char* kWriteJob = R"({
  "jobname" : "randwrite",
  "groupid" : 0,
  "error" : 0,
  "read" : {"io_bytes" : 0, "total_ios" : 0,
            "clat_ns" : {"min" : 0, "max" : 0, "mean" : 0.0, "stddev" : 0.0, "N" : 0},
            "lat_ns" : {"min" : 0, "max" : 0, "mean" : 0.0, "stddev" : 0.0, "N" : 0}},
  "write" : {"io_bytes" : 40960, "total_ios" : 10,
             "clat_ns" : {"min" : 200000, "max" : 400000, "mean" : 250000.5, "stddev" : 1.0,
                          "N" : 10, "percentile" : {"1.000000" : 200704, "50.000000" : 250880,
                                                    "99.000000" : 399360}},
             "lat_ns" : {"min" : 201000, "max" : 401000, "mean" : 251000.0, "stddev" : 1.0,
                         "N" : 10}}
})";

TEST_F(FioImportTest, JsonJobWithWritesIsOneExperimentOfClatFigures) {
  const auto path = Write(
      "out.json", std::string(R"({"fio version" : "fio-3.33", "jobs" : [)") + kWriteJob + "]}\n");
  const auto experiments = ssdlab::analysis::read_fio_json(path);
  ASSERT_EQ(experiments.size(), 1u);
  EXPECT_EQ(experiments[0].name, "randwrite");
  ASSERT_EQ(experiments[0].runs.size(), 1u);
  // clat, since fio reported percentiles for clat only (its default).
  EXPECT_DOUBLE_EQ(experiments[0].runs[0].mean_us, 250.0005);
  EXPECT_DOUBLE_EQ(experiments[0].runs[0].p50_us, 250.88);
  EXPECT_DOUBLE_EQ(experiments[0].runs[0].p99_us, 399.36);
  EXPECT_EQ(experiments[0].runs[0].count, 10u);
}

TEST_F(FioImportTest, JsonPrefersLatWhereFioReportedItsPercentiles) {
  const auto path = Write("lat.json", R"({"jobs" : [{"jobname" : "j", "write" : {"total_ios" : 4,
      "clat_ns" : {"mean" : 1000.0, "N" : 4, "percentile" : {"50.000000" : 1000, "99.000000" : 2000}},
      "lat_ns" : {"mean" : 3000.0, "N" : 4, "percentile" : {"50.000000" : 3000, "99.000000" : 4000}}}}]})");
  const auto experiments = ssdlab::analysis::read_fio_json(path);
  ASSERT_EQ(experiments.size(), 1u);
  EXPECT_DOUBLE_EQ(experiments[0].runs[0].mean_us, 3.0);
  EXPECT_DOUBLE_EQ(experiments[0].runs[0].p99_us, 4.0);
}

// fio's JSON holds p99.9 and p99.99 (its default percentile_list); they
// were dropped, so compare showed no tail columns for fio JSON while the
// latency logs of the same run gave them.
TEST_F(FioImportTest, JsonKeepsTheTailPercentilesFioReported) {
  const auto path = Write("tail.json", R"({"jobs" : [{"jobname" : "j", "write" : {"total_ios" : 4,
      "clat_ns" : {"mean" : 1000.0, "N" : 4, "percentile" : {"50.000000" : 1000,
                   "99.000000" : 2000, "99.900000" : 3000, "99.990000" : 5000}}}}]})");
  const auto experiments = ssdlab::analysis::read_fio_json(path);
  ASSERT_EQ(experiments.size(), 1u);
  using Tail = std::vector<std::pair<double, double>>;
  EXPECT_EQ(experiments[0].runs[0].percentiles, (Tail{{99.9, 3.0}, {99.99, 5.0}}));
}

TEST_F(FioImportTest, JsonMixedJobSplitsByDirection) {
  const auto path =
      Write("mixed.json", R"(note: both iodepth >= 1 and synchronous I/O engine are selected
{"jobs" : [
  {"jobname" : "mix", "read" : {"clat_ns" : {"mean" : 100000.0, "N" : 2,
       "percentile" : {"50.000000" : 90000, "99.000000" : 110000}}},
   "write" : {"clat_ns" : {"mean" : 300000.0, "N" : 2,
       "percentile" : {"50.000000" : 290000, "99.000000" : 310000}}}},
  {"jobname" : "mix", "read" : {"clat_ns" : {"mean" : 200000.0, "N" : 2,
       "percentile" : {"50.000000" : 190000, "99.000000" : 210000}}}}]})");
  const auto experiments = ssdlab::analysis::read_fio_json(path);
  ASSERT_EQ(experiments.size(), 3u);
  EXPECT_EQ(experiments[0].name, "mix:read");
  EXPECT_EQ(experiments[1].name, "mix:write");
  EXPECT_EQ(experiments[2].name, "mix");  // the second job only read
  ASSERT_EQ(experiments[0].runs.size(), 1u);
  EXPECT_DOUBLE_EQ(experiments[0].runs[0].p50_us, 90.0);
  EXPECT_DOUBLE_EQ(experiments[1].runs[0].mean_us, 300.0);
  EXPECT_DOUBLE_EQ(experiments[2].runs[0].p99_us, 210.0);
}

// numjobs without group_reporting: fio's per-job percentiles cannot be
// pooled, so the reader refuses rather than average them
// (fio_detect_test.cpp pools json+ histograms).
TEST_F(FioImportTest, JsonJobsOfOneNameWithoutHistogramsAreRefused) {
  const std::string job = R"({"jobname" : "r", "read" : {"clat_ns" : {"mean" : MEAN, "N" : 1,
       "percentile" : {"50.000000" : 1000, "99.000000" : 2000}}}})";
  auto with_mean = [&job](const char* mean) {
    return std::string(job).replace(job.find("MEAN"), 4, mean);
  };
  const auto path =
      Write("runs.json", "{\"jobs\" : [" + with_mean("1000.0") + ", " + with_mean("3000.0") + "]}");
  ExpectError([&] { ssdlab::analysis::read_fio_json(path); },
              path.string() +
                  ": 2 jobs named r (numjobs without group_reporting): their percentiles cannot "
                  "be pooled from fio's per-job percentiles; rerun fio with group_reporting=1, "
                  "or with --output-format=json+ (latency histograms, pooled exactly)");
}

TEST_F(FioImportTest, JsonOfOldFioIsInMicroseconds) {
  const auto path = Write("fio2.json", R"({"jobs" : [{"jobname" : "old", "write" : {
      "total_ios" : 8, "clat" : {"mean" : 250.5, "percentile" : {"50.000000" : 249, "99.000000" : 400}},
      "lat" : {"mean" : 251.0}}}]})");
  const auto experiments = ssdlab::analysis::read_fio_json(path);
  ASSERT_EQ(experiments.size(), 1u);
  EXPECT_DOUBLE_EQ(experiments[0].runs[0].mean_us, 250.5);
  EXPECT_DOUBLE_EQ(experiments[0].runs[0].p99_us, 400.0);
  EXPECT_EQ(experiments[0].runs[0].count, 8u);
}

TEST_F(FioImportTest, JsonErrorsNameTheFileAndWhatIsWrong) {
  const auto malformed = Write("bad.json", "{\"jobs\" : [\n  {\"jobname\" : }\n]}\n");
  ExpectError([&] { ssdlab::analysis::read_fio_json(malformed); },
              malformed.string() + ":2: malformed JSON");
  const auto no_jobs = Write("nojobs.json", "{\"fio version\" : \"fio-3.33\"}");
  ExpectError([&] { ssdlab::analysis::read_fio_json(no_jobs); },
              no_jobs.string() + ": not fio JSON output: no jobs[]");
  const auto no_p99 = Write("nop99.json", R"({"jobs" : [{"jobname" : "j", "read" : {"clat_ns" :
      {"mean" : 1.0, "N" : 3, "percentile" : {"50.000000" : 1}}}}]})");
  ExpectError([&] { ssdlab::analysis::read_fio_json(no_p99); },
              no_p99.string() +
                  ": jobs[0] (j): read.clat_ns.percentile has no 99.000000 (fio's "
                  "percentile_list leaves it out)");
  const auto idle =
      Write("idle.json", R"({"jobs" : [{"jobname" : "j", "read" : {"total_ios" : 0}}]})");
  ExpectError([&] { ssdlab::analysis::read_fio_json(idle); },
              idle.string() + ": no fio job did any I/O");
}

TEST_F(FioImportTest, LatencyLogFiguresUseNearestRankOverEverySample) {
  // fio >= 3.0 with log_offset=1: time_ms, ns, ddir, bs, offset, prio.
  const auto path = Write("job_lat.1.log",
                          "1, 250000, 1, 4096, 0, 0\n"
                          "2, 300000, 1, 4096, 4096, 0\n"
                          "3, 350000, 0, 4096, 8192, 0\n"
                          "4, 1000000, 1, 4096, 12288, 0\n");
  const ExperimentFigures figures = ssdlab::analysis::read_fio_lat_log(path, "job");
  EXPECT_EQ(figures.name, "job");
  ASSERT_EQ(figures.runs.size(), 1u);
  EXPECT_DOUBLE_EQ(figures.runs[0].mean_us, 475.0);
  EXPECT_DOUBLE_EQ(figures.runs[0].p50_us, 300.0);  // rank ceil(0.5 * 4) = 2
  EXPECT_DOUBLE_EQ(figures.runs[0].p99_us, 1000.0);
  EXPECT_EQ(figures.runs[0].count, 4u);
}

TEST_F(FioImportTest, LatencyLogColumnsAfterBlockSizeMayBeAbsent) {
  // Without log_offset (older fio): time, value, ddir, bs.
  const auto path = Write("short_clat.log", "0, 1500, 0, 512\n5, 2500, 0, 512\n");
  const ExperimentFigures figures = ssdlab::analysis::read_fio_lat_log(path, "short");
  EXPECT_DOUBLE_EQ(figures.runs[0].mean_us, 2.0);
}

TEST_F(FioImportTest, LatencyLogJobNameComesFromTheFileName) {
  EXPECT_EQ(ssdlab::analysis::fio_log_job_name("/x/seqwrite_clat.2.log"), "seqwrite");
  EXPECT_EQ(ssdlab::analysis::fio_log_job_name("a_b_lat.log"), "a_b");
  EXPECT_EQ(ssdlab::analysis::fio_log_job_name("latencies.log"), "latencies");
  ExpectError([] { ssdlab::analysis::fio_log_job_name("job_slat.1.log"); },
              "job_slat.1.log: a fio slat log holds no response times: use the _lat or _clat "
              "log");
  ExpectError([] { ssdlab::analysis::fio_log_job_name("job_bw.1.log"); },
              "job_bw.1.log: a fio bw log holds no response times: use the _lat or _clat log");
}

TEST_F(FioImportTest, LatencyLogErrorsNameFileAndLine) {
  const auto value = Write("v_lat.1.log", "1, 250000, 1, 4096\n2, abc, 1, 4096\n");
  ExpectError([&] { ssdlab::analysis::read_fio_lat_log(value, "v"); },
              value.string() + ":2: value: 'abc' is not a non-negative integer");
  const auto ddir = Write("d_lat.1.log", "\n1, 250000, 7, 4096\n");
  ExpectError([&] { ssdlab::analysis::read_fio_lat_log(ddir, "d"); },
              ddir.string() + ":2: ddir: 7 is not 0 (read), 1 (write) or 2 (trim)");
  const auto fields = Write("f_lat.1.log", "1, 250000\n");
  ExpectError([&] { ssdlab::analysis::read_fio_lat_log(fields, "f"); },
              fields.string() +
                  ":1: expected 4 to 8 comma-separated fields (time, value, ddir, bs, ...), got 2");
  const auto empty = Write("e_lat.1.log", "");
  ExpectError([&] { ssdlab::analysis::read_fio_lat_log(empty, "e"); },
              empty.string() + ": no latency samples");
}

TEST_F(FioImportTest, ParseUsIsExactToTheNanosecond) {
  TimeNs ns = -1;
  EXPECT_TRUE(ssdlab::sim::parse_us("305.600", ns));
  EXPECT_EQ(ns, 305600);
  EXPECT_TRUE(ssdlab::sim::parse_us("0.001", ns));
  EXPECT_EQ(ns, 1);
  EXPECT_TRUE(ssdlab::sim::parse_us("12.5", ns));
  EXPECT_EQ(ns, 12500);
  EXPECT_TRUE(ssdlab::sim::parse_us("7", ns));
  EXPECT_EQ(ns, 7000);
  for (const char* bad : {"", "1.", ".5", "-1.000", "1.0001", "1.-00", "1.2x", "abc"})
    EXPECT_FALSE(ssdlab::sim::parse_us(bad, ns)) << bad;
}

TEST_F(FioImportTest, IoCsvReaderReadsRowsAndNamesBadLines) {
  const auto path = Write("io.csv",
                          "experiment,run,process,io,submit_us,rt_us,mode,offset,size\n"
                          "RW,0,1,2,10.000,305.600,W,4096,4096\n"
                          "RW,0,1,3,315.600,bad,W,8192,4096\n");
  ssdlab::sim::IoCsvReader reader(path);
  ssdlab::sim::IoRow row;
  ASSERT_TRUE(reader.next(row));
  EXPECT_EQ(row.experiment, "RW");
  EXPECT_EQ(row.process, 1u);
  EXPECT_EQ(row.io, 2u);
  EXPECT_EQ(row.submit_ns, 10000);
  EXPECT_EQ(row.response_ns, 305600);
  EXPECT_TRUE(row.is_write());
  EXPECT_EQ(row.offset, 4096u);
  ExpectError([&] { reader.next(row); }, path.string() + ":3: rt_us: 'bad' is not microseconds");
  const auto header = Write("header.csv", "experiment,run,rt_us\n");
  ExpectError([&] { ssdlab::sim::IoCsvReader{header}; },
              header.string() +
                  ":1: not an ssdlab io.csv: header 'experiment,run,rt_us', expected "
                  "'experiment,run,process,io,submit_us,rt_us,mode,offset,size'");
}

TEST_F(FioImportTest, ExportWritesOneFioLogPerExperimentRunAndProcess) {
  const auto io_csv = Write("io.csv",
                            "experiment,run,process,io,submit_us,rt_us,mode,offset,size\n"
                            "a/b,0,0,0,0.000,305.600,W,4096,4096\n"
                            "a/b,0,1,0,0.000,1305.600,R,0,512\n"
                            "a/b,0,0,1,305.600,2000.000,W,8192,4096\n"
                            "a/b,1,0,0,0.000,130.600,R,0,4096\n");
  const auto logs = ssdlab::sim::export_fio_lat_logs(io_csv, (dir_ / "fio" / "sim").string());
  const fs::path base = dir_ / "fio";
  ASSERT_EQ(logs,
            (std::vector<fs::path>{base / "sim-a_b-run0_lat.1.log", base / "sim-a_b-run0_lat.2.log",
                                   base / "sim-a_b-run1_lat.1.log"}));
  // time_ms is the completion, truncated to whole milliseconds.
  EXPECT_EQ(support::read_file(logs[0]),
            "0, 305600, 1, 4096, 4096, 0\n2, 2000000, 1, 4096, 8192, 0\n");
  EXPECT_EQ(support::read_file(logs[1]), "1, 1305600, 0, 512, 0, 0\n");
  EXPECT_EQ(support::read_file(logs[2]), "0, 130600, 0, 4096, 0, 0\n");
  for (const auto& entry : fs::directory_iterator(base))
    EXPECT_EQ(entry.path().extension(), ".log") << entry.path();  // no .partial left
}

TEST_F(FioImportTest, FailedExportLeavesNoLogs) {
  const auto io_csv = Write("io.csv",
                            "experiment,run,process,io,submit_us,rt_us,mode,offset,size\n"
                            "RW,0,0,0,0.000,305.600,W,4096,4096\n"
                            "RW,0,0,1,0.000,305.600,Q,4096,4096\n");
  ExpectError(
      [&] { ssdlab::sim::export_fio_lat_logs(io_csv, (dir_ / "sim").string()); },
      io_csv.string() + ":3: mode: 'Q' is not R, W or T (or a zone command: A, Z, F, O, C or X)");
  for (const auto& entry : fs::directory_iterator(dir_))
    EXPECT_EQ(entry.path().filename(), "io.csv") << entry.path();
}

}  // namespace
