// Several traces replayed together: merged by time (each from its own first
// request, ties in the order given), per-trace statistics, closed loop per
// trace, shared and partitioned layouts; and a single trace replays exactly as
// it did before multi-trace replay existed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "run_support.h"
#include "sim/engine/replay.h"
#include "test_support.h"
#include "trace_support.h"

namespace ssdlab::sim {
namespace {

namespace fs = std::filesystem;
namespace support = ssdlab::testing;
using ::testing::HasSubstr;
using traces::TraceRecord;

struct Row {
  std::string experiment;
  std::uint64_t io;
  std::string submit_us, rt_us;
  std::uint64_t offset, size;
};

std::vector<Row> Rows(const std::string& io_csv) {
  std::vector<Row> rows;
  for (const auto& f : support::csv_rows(io_csv))
    rows.push_back(Row{f[0], std::stoull(f[3]), f[4], f[5], std::stoull(f[7]), std::stoull(f[8])});
  return rows;
}

// experiment -> io -> row
std::map<std::string, std::map<std::uint64_t, Row>> ByTrace(const std::vector<Row>& rows) {
  std::map<std::string, std::map<std::uint64_t, Row>> by;
  for (const Row& row : rows) by[row.experiment][row.io] = row;
  return by;
}

TraceRecord Write(TimeNs time_ns, std::uint64_t offset) {
  return TraceRecord{time_ns, offset, 4096, IoMode::kWrite, 0};
}

constexpr TimeNs kMs = 1000000;

class ReplayTogether : public ::testing::Test {
 protected:
  std::vector<Row> Run(std::vector<std::vector<TraceRecord>> traces, std::vector<std::string> names,
                       ReplaySettings settings = {}) {
    const auto dir = support::temp_dir_for_this_test("replay-multi-");
    Ssd ssd(support::load_preset("tiny"));
    {
      IoLog log(dir / "io.csv");
      Simulator simulator(ssd, &log);
      std::vector<support::VectorReader> readers;
      for (auto& records : traces) readers.emplace_back(std::move(records));
      std::vector<ReplaySource> sources;
      for (std::size_t k = 0; k < readers.size(); ++k)
        sources.push_back(ReplaySource{&readers[k], names[k]});
      results_ = replay(simulator, sources, settings);
      log.commit();
    }
    return Rows(support::read_file(dir / "io.csv"));
  }
  std::vector<ReplayResult> results_;
};

// A at 0, 2, 5 ms; B at 1000, 1001, 1003 ms, i.e. 0, 1, 3 ms from its first.
// Merged: A0 and B0 at 0 (A first: given first), B1 at 1, A1 at 2, B2 at 3,
// A2 at 5 ms. A0 and B0 write the same page, so whichever goes second waits.
const std::vector<TraceRecord> kA = {Write(0, 0), Write(2 * kMs, 65536), Write(5 * kMs, 131072)};
const std::vector<TraceRecord> kB = {Write(1000 * kMs, 0), Write(1001 * kMs, 196608),
                                     Write(1003 * kMs, 262144)};
constexpr const char* kUnloadedWrite = "305.600";  // a 4 KiB write on the tiny preset

TEST_F(ReplayTogether, MergesByTimeFromEachTracesFirstRequest) {
  auto by = ByTrace(Run({kA, kB}, {"a", "b"}));
  ASSERT_EQ(by["a"].size(), 3u);
  ASSERT_EQ(by["b"].size(), 3u);
  EXPECT_EQ(by["a"][0].submit_us, "0.000");
  EXPECT_EQ(by["b"][0].submit_us, "0.000");
  EXPECT_EQ(by["b"][1].submit_us, "1000.000");
  EXPECT_EQ(by["a"][1].submit_us, "2000.000");
  EXPECT_EQ(by["b"][2].submit_us, "3000.000");
  EXPECT_EQ(by["a"][2].submit_us, "5000.000");
  EXPECT_EQ(by["a"][0].rt_us, kUnloadedWrite);  // submitted first
  EXPECT_NE(by["b"][0].rt_us, kUnloadedWrite);  // queued behind it
  EXPECT_EQ(results_[1].trace_start_ns, 1000 * kMs);
}

TEST_F(ReplayTogether, EqualTimesGoInTheOrderTheTracesWereGiven) {
  auto by = ByTrace(Run({kB, kA}, {"b", "a"}));
  EXPECT_EQ(by["b"][0].rt_us, kUnloadedWrite);
  EXPECT_NE(by["a"][0].rt_us, kUnloadedWrite);
}

TEST_F(ReplayTogether, EachTraceHasItsOwnStatistics) {
  Run({kA, {kB[0], kB[1]}}, {"a", "b"});
  ASSERT_EQ(results_.size(), 2u);
  EXPECT_EQ(results_[0].requests, 3u);
  EXPECT_EQ(results_[0].run.stats.count, 3u);
  EXPECT_EQ(results_[1].requests, 2u);
  EXPECT_EQ(results_[1].run.stats.count, 2u);
  EXPECT_EQ(results_[0].run.stats.min_ns, 305600);
  EXPECT_GT(results_[1].run.stats.max_ns, 305600);  // b's first queued
  // The device is shared: both carry the whole run's counters.
  EXPECT_EQ(results_[0].run.device.ftl.host_pages_written, 5u);
  EXPECT_EQ(nlohmann::json(results_[0].run.device), nlohmann::json(results_[1].run.device));
}

TEST_F(ReplayTogether, ClosedLoopKeepsQueueDepthOutstandingPerTrace) {
  std::vector<TraceRecord> a, b;
  for (int i = 0; i < 6; ++i) {
    a.push_back(Write(0, static_cast<std::uint64_t>(i) * 4096));
    b.push_back(Write(0, (100 + static_cast<std::uint64_t>(i)) * 4096));
  }
  ReplaySettings closed;
  closed.mode = ReplayMode::kClosed;
  closed.queue_depth = 2;
  auto by = ByTrace(Run({a, b}, {"a", "b"}, closed));
  for (const std::string name : {"a", "b"}) {
    SCOPED_TRACE(name);
    ASSERT_EQ(by[name].size(), 6u);
    EXPECT_EQ(by[name][0].submit_us, "0.000");
    EXPECT_EQ(by[name][1].submit_us, "0.000");
    EXPECT_NE(by[name][2].submit_us, "0.000");  // waits for one of its own two
  }
}

// `ssdlab sim` as the command line runs it, in-process.
class ReplayTogetherCli : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = support::temp_dir_for_this_test("replay-multi-cli-"); }
  // `ssdlab sim -c configs/tiny.toml -w ... -o DIR/out [--layout LAYOUT]`:
  // its exit status and what it printed, or its error line.
  support::CommandResult Sim(const std::vector<std::string>& workloads, const std::string& out,
                             const std::string& layout = "") {
    const SimOptions options;
    TraceOptions trace;
    trace.layout = layout;
    return support::in_process([&](std::ostream& printed) {
      support::sim_preset("tiny", dir_ / out, options, workloads, trace, printed);
    });
  }
  static std::string Trace(const std::string& example) {
    return "trace:" + std::string(SSDLAB_SOURCE_DIR) + "/traces/examples/" + example;
  }
  nlohmann::json Summary(const std::string& out) {
    return nlohmann::json::parse(support::read_file(dir_ / out / "summary.json"));
  }
  std::vector<Row> IoRows(const std::string& out) {
    return Rows(support::read_file(dir_ / out / "io.csv"));
  }
  fs::path dir_;
};

TEST_F(ReplayTogetherCli, SingleTraceIoCsvIsUnchanged) {
  // Written by ssdlab before multi-trace replay existed (commit 755a68b),
  // but for I/O 5: since the flash scheduler (flash/scheduler.h) decides at
  // dispatch time, its program takes the bus before a read of I/O 4 that
  // waits for its die, where booking at arrival put it behind (558.0 us).
  const fs::path trace = support::write_file(dir_ / "small.csv",
                                             "133444736000000000,h,0,Write,0,4096,10\n"
                                             "133444736000001000,h,0,Write,65536,8192,10\n"
                                             "133444736000001500,h,0,Read,0,4096,10\n"
                                             "133444736000004000,h,0,Write,4096,4096,10\n"
                                             "133444736000004100,h,0,Read,65536,16384,10\n"
                                             "133444736000004200,h,0,Write,131072,512,10\n");
  const auto result = Sim({"trace:" + trace.string()}, "out");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(support::read_file(dir_ / "out" / "io.csv"),
            "experiment,run,process,io,submit_us,rt_us,mode,offset,size\n"
            "small,0,0,0,0.000,305.600,W,0,4096\n"
            "small,0,0,1,100.000,311.200,W,65536,8192\n"
            "small,0,0,2,150.000,286.200,R,0,4096\n"
            "small,0,0,3,400.000,305.600,W,4096,4096\n"
            "small,0,0,4,410.000,426.200,R,65536,16384\n"
            "small,0,0,5,420.000,427.400,W,131072,512\n");
  EXPECT_FALSE(Summary("out").contains("layout"));
}

TEST_F(ReplayTogetherCli, SharedLayoutTagsRowsAndSummarisesEachTrace) {
  const auto result = Sim({Trace("synthetic.csv"), Trace("synthetic.spc")}, "out");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("2 traces on"));
  const auto summary = Summary("out");
  EXPECT_EQ(summary["layout"], "shared");
  ASSERT_EQ(summary["experiments"].size(), 2u);
  EXPECT_EQ(summary["experiments"][0]["name"], "synthetic");
  EXPECT_EQ(summary["experiments"][1]["name"], "synthetic-2");  // the same name, made unique
  for (const auto& experiment : summary["experiments"]) {
    EXPECT_EQ(experiment["count"], 200);
    EXPECT_EQ(experiment["runs"][0]["count"], 200);
    EXPECT_EQ(experiment["trace"]["replayed"], 200);
  }
  auto by = ByTrace(IoRows("out"));
  ASSERT_EQ(by["synthetic"].size(), 200u);
  ASSERT_EQ(by["synthetic-2"].size(), 200u);
  // One trace in two formats, on the whole device each: the same addresses,
  // submitted at the same times.
  for (std::uint64_t io = 0; io < 200; ++io) {
    EXPECT_EQ(by["synthetic"][io].offset, by["synthetic-2"][io].offset) << io;
    EXPECT_EQ(by["synthetic"][io].submit_us, by["synthetic-2"][io].submit_us) << io;
  }
}

TEST_F(ReplayTogetherCli, PartitionedLayoutPutsEachTraceInItsOwnRange) {
  const auto result =
      Sim({Trace("synthetic.csv"), Trace("synthetic.spc"), Trace("web-server.csv.gz")}, "out",
          "partitioned");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto summary = Summary("out");
  EXPECT_EQ(summary["layout"], "partitioned");
  const std::uint64_t bytes = summary["experiments"][0]["trace"]["partition"]["bytes"];
  EXPECT_EQ(bytes, summary["logical_bytes"].get<std::uint64_t>() / 3 / 4096 * 4096);
  std::map<std::string, std::uint64_t> base;
  for (const auto& experiment : summary["experiments"]) {
    EXPECT_EQ(experiment["trace"]["partition"]["bytes"], bytes);
    base[experiment["name"]] = experiment["trace"]["partition"]["offset"];
  }
  EXPECT_EQ(base["synthetic"], 0u);
  EXPECT_EQ(base["synthetic-2"], bytes);
  EXPECT_EQ(base["web-server"], 2 * bytes);
  std::map<std::string, std::size_t> rows;
  for (const Row& row : IoRows("out")) {
    ++rows[row.experiment];
    EXPECT_GE(row.offset, base[row.experiment]) << row.experiment << " " << row.io;
    EXPECT_LE(row.offset + row.size, base[row.experiment] + bytes)
        << row.experiment << " " << row.io;
  }
  EXPECT_EQ(rows["synthetic"], 200u);
  EXPECT_EQ(rows["web-server"], 3000u);
}

TEST_F(ReplayTogetherCli, APlanBesideTracesIsOneExperimentOfOneRun) {
  // A plan and traces run together as tenants (tenant_run.h); a plan of
  // several runs cannot be one tenant.
  for (const std::vector<std::string>& workloads :
       {std::vector<std::string>{Trace("synthetic.csv"), "RW:count=5,runs=2"},
        std::vector<std::string>{"RW:count=5,runs=2", Trace("synthetic.csv")}}) {
    const auto result = Sim(workloads, "out");
    EXPECT_EQ(result.exit_code, 1) << workloads.front() << " " << workloads.back();
    EXPECT_EQ(result.output,
              "ssdlab: -w 'RW:count=5,runs=2': a plan run beside other workloads (a tenant) is "
              "one experiment of one run (it has 1 experiment of 2 runs)\n");
    EXPECT_FALSE(fs::exists(dir_ / "out" / "summary.json"));
  }
  const auto result = Sim({Trace("synthetic.csv"), Trace("synthetic.spc")}, "out", "stacked");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.output, "ssdlab: --layout 'stacked': expected shared or partitioned\n");
}

}  // namespace
}  // namespace ssdlab::sim
