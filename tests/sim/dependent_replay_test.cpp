// --mode dependent: a recorded io.csv replayed with its programs'
// dependencies. A closed-loop run replayed on the same device gives its own
// rows back; a process that waited for each I/O issues the next one its
// think time after the simulated completion, not at the recorded time; a
// process's depth is the most it had outstanding.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "run_support.h"
#include "sim/results/io_csv.h"

namespace ssdlab::sim {
namespace {

namespace support = ssdlab::testing;
using ::testing::HasSubstr;

constexpr const char* kHeader = "experiment,run,process,io,submit_us,rt_us,mode,offset,size\n";

// io.csv rows by (process, io).
std::map<std::pair<std::uint32_t, std::uint64_t>, IoRow> Rows(const std::filesystem::path& dir) {
  std::map<std::pair<std::uint32_t, std::uint64_t>, IoRow> rows;
  IoCsvReader reader(dir / "io.csv");
  IoRow row;
  while (reader.next(row)) rows[{row.process, row.io}] = row;
  return rows;
}

class DependentReplay : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = support::temp_dir_for_this_test("dependent-"); }

  // `ssdlab sim -c configs/tiny.toml --mode MODE -w trace:TRACE -o dir_/OUT`.
  std::filesystem::path Replay(const std::filesystem::path& trace, const std::string& out,
                               const std::string& mode, const std::string& precondition = "") {
    SimOptions options;
    options.precondition = precondition;
    options.state_cache = false;
    options.quiet = true;
    TraceOptions replay;
    replay.mode = mode;
    std::ostringstream printed;
    support::sim_preset("tiny", dir_ / out, options, {"trace:" + trace.string()}, replay, printed);
    return dir_ / out;
  }
  std::filesystem::path dir_;
};

TEST_F(DependentReplay, AClosedLoopRunReplayedOnTheSameDeviceGivesItsOwnRows) {
  // Two processes of depth 3 under cleaning, with pauses and without (each
  // I/O submitted at the instant a slot frees: that slot is free, so the
  // depth stays 3): the replay must take each slot's freeing and each pause
  // from the recording.
  for (const std::string pause : {",pause_us=20", ""}) {
    SCOPED_TRACE(pause);
    SimOptions options;
    options.precondition = "random";
    options.state_cache = false;
    options.quiet = true;
    options.workload = "RW:count=600,processes=2,queue_depth=3" + pause;
    const std::string name = pause.empty() ? "no-pause" : "pause";
    const auto recorded = support::run_tiny(dir_, name, options);
    const auto replayed = Replay(recorded / "io.csv", name + "-replayed", "dependent", "random");
    const auto before = Rows(recorded), after = Rows(replayed);
    ASSERT_EQ(before.size(), 1200u);
    ASSERT_EQ(after.size(), before.size());
    for (const auto& [key, row] : before) {
      const IoRow& again = after.at(key);
      EXPECT_EQ(std::tie(again.experiment, again.submit_ns, again.response_ns, again.offset),
                std::tie(row.experiment, row.submit_ns, row.response_ns, row.offset))
          << "process " << key.first << " io " << key.second;
    }
    const auto summary =
        nlohmann::json::parse(support::read_file(replayed / "summary.json"))["experiments"][0];
    EXPECT_EQ(summary["processes"], 2);
    EXPECT_EQ(summary["trace"]["mode"], "dependent");
    EXPECT_EQ(summary["trace"]["queue_depth_by_process"], nlohmann::json({{"0", 3}, {"1", 3}}));
  }
}

TEST_F(DependentReplay, TheNextIoWaitsItsThinkTimeAfterTheSimulatedCompletion) {
  // Recorded on a slow device: each read took 1 ms, and the program thought
  // 200 us before the next. The tiny device reads in about 0.1 ms.
  const auto trace =
      support::write_file(dir_ / "slow.csv", std::string(kHeader) +
                                                 "app,0,0,0,0.000,1000.000,R,0,4096\n"
                                                 "app,0,0,1,1200.000,1000.000,R,"
                                                 "8192,4096\n");
  const auto dependent = Rows(Replay(trace, "dependent", "dependent"));
  const IoRow& first = dependent.at({0, 0});
  ASSERT_LT(first.response_ns, 1000000);
  EXPECT_EQ(dependent.at({0, 1}).submit_ns, first.response_ns + 200000);
  EXPECT_EQ(Rows(Replay(trace, "open", "open")).at({0, 1}).submit_ns, 1200000);
}

TEST_F(DependentReplay, ADepthIsTheMostOutstandingAndASlotFreesAtTheFirstCompletion) {
  // Three at once, then a fourth 50 us after the first of them completed:
  // io 1, although io 0 was submitted first.
  const auto trace =
      support::write_file(dir_ / "deep.csv", std::string(kHeader) +
                                                 "app,0,0,2,0.000,200.000,R,8192,4096\n"
                                                 "app,0,0,0,0.000,300.000,R,0,4096\n"
                                                 "app,0,0,1,0.000,100.000,R,4096,4096\n"
                                                 "app,0,0,3,150.000,10.000,R,0,4096\n");
  const auto out = Replay(trace, "deep", "dependent");
  const auto rows = Rows(out);
  TimeNs first_done = INT64_MAX;
  for (std::uint64_t io = 0; io < 3; ++io)
    first_done = std::min(first_done, rows.at({0, io}).submit_ns + rows.at({0, io}).response_ns);
  EXPECT_EQ(rows.at({0, 3}).submit_ns, first_done + 50000);
  const auto summary = nlohmann::json::parse(support::read_file(out / "summary.json"));
  EXPECT_EQ(summary["experiments"][0]["trace"]["queue_depth_by_process"]["0"], 3);
}

TEST_F(DependentReplay, OnlyAnIoCsvHasTheCompletionsItNeeds) {
  const auto msr = support::write_file(dir_ / "t.csv", "128166372003061629,hm,0,Write,0,4096,26\n");
  const auto result = support::in_process([&](std::ostream&) { Replay(msr, "msr", "dependent"); });
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.output, HasSubstr("--mode dependent: needs each request's recorded "
                                       "completion, which only ssdlab's own io.csv has"));
}

}  // namespace
}  // namespace ssdlab::sim
