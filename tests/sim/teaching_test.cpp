// The teaching views of `ssdlab sim` (README, "Teaching"), run in-process
// on the tiny preset: the --timeline trace-event JSON, its bounds, io.csv
// unchanged by it, the --trace-ftl step log (on stderr), and the plots.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>

#include "analysis/plot.h"
#include "run_support.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
namespace support = ssdlab::testing;
using nlohmann::json;
using ::testing::AllOf;
using ::testing::HasSubstr;

using ssdlab::sim::SimOptions;

// A used device, so that the first writes clean (copy-back and erases).
SimOptions CleaningRun() {
  auto options = support::sim_options("RW:count=300,queue_depth=2");
  options.precondition = "random";
  return options;
}

class TeachingTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = support::temp_dir_for_this_test("teaching-"); }

  // `ssdlab sim -c configs/tiny.toml -o DIR/out` with `options`: its exit
  // status, and what it printed and wrote on stderr (the --trace-ftl log).
  support::CommandResult Sim(const SimOptions& options, const std::string& out = "out") {
    return support::in_process_with_stderr([&](std::ostream& printed) {
      support::sim_preset("tiny", dir_ / out, options, {options.workload}, {}, printed);
    });
  }

  json Timeline(SimOptions options) {
    options.teaching.timeline = (dir_ / "t.json").string();
    const auto result = Sim(options);
    EXPECT_EQ(result.exit_code, 0) << result.output;
    return json::parse(support::read_file(dir_ / "t.json"));  // throws if not JSON
  }

  static std::vector<json> Complete(const json& trace) {
    std::vector<json> events;
    for (const auto& event : trace["traceEvents"])
      if (event["ph"] == "X") events.push_back(event);
    return events;
  }

  fs::path dir_;
};

TEST_F(TeachingTest, TimelineHasATrackPerChannelDieAndPlane) {
  const json trace = Timeline(CleaningRun());
  EXPECT_EQ(trace["displayTimeUnit"], "ns");
  std::set<std::string> processes, threads;
  std::set<std::pair<int, int>> named;
  for (const auto& event : trace["traceEvents"]) {
    if (event["ph"] != "M") continue;
    if (event["name"] == "process_name") processes.insert(event["args"]["name"]);
    if (event["name"] == "thread_name") {
      threads.insert(event["args"]["name"]);
      named.insert({event["pid"].get<int>(), event["tid"].get<int>()});
    }
  }
  EXPECT_EQ(processes, (std::set<std::string>{"Host", "Channel 0", "Channel 1"}));
  // tiny: 2 channels, 4 dies (2 per channel), 2 planes per die.
  for (const char* track : {"Bus 0", "Bus 1", "Die 0 (package 0)", "Die 1 (package 0)",
                            "Die 2 (package 1)", "Die 3 (package 1)", "Die 0 / Plane 0",
                            "Die 0 / Plane 1", "Die 3 / Plane 1", "Requests (lane 0)"})
    EXPECT_TRUE(threads.count(track)) << track;
  std::size_t planes = 0;
  for (const auto& name : threads) planes += name.find(" / Plane ") != std::string::npos;
  EXPECT_EQ(planes, 8u);
  // Every operation sits on a named track, and the kinds a cleaning run
  // needs are all there, cleaning marked as such.
  std::set<std::string> names;
  for (const auto& event : Complete(trace)) {
    EXPECT_TRUE(named.count({event["pid"].get<int>(), event["tid"].get<int>()})) << event.dump();
    EXPECT_GE(event["dur"].get<double>(), 0.0);
    names.insert(event["name"]);
  }
  for (const char* name :
       {"WRITE", "PROGRAM", "DATA IN", "COPY-BACK [cleaning]", "ERASE [cleaning]"})
    EXPECT_TRUE(names.count(name)) << name;
}

TEST_F(TeachingTest, TimelineEventsOnOneTrackDoNotOverlap) {
  std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> tracks;
  for (const auto& event : Complete(Timeline(CleaningRun())))
    tracks[{event["pid"].get<int>(), event["tid"].get<int>()}].push_back(
        {event["ts"].get<double>(), event["ts"].get<double>() + event["dur"].get<double>()});
  ASSERT_GT(tracks.size(), 10u);
  for (auto& [track, spans] : tracks) {
    std::sort(spans.begin(), spans.end());
    for (std::size_t i = 1; i < spans.size(); ++i)
      EXPECT_GE(spans[i].first, spans[i - 1].second - 1e-9)
          << "track " << track.first << "/" << track.second;
  }
}

TEST_F(TeachingTest, TimelineWindowKeepsOnlyOverlappingOperations) {
  auto options = CleaningRun();
  options.teaching.timeline_window = "2000:6000";
  const auto events = Complete(Timeline(options));
  ASSERT_FALSE(events.empty());
  for (const auto& event : events) {
    const double start = event["ts"], end = start + event["dur"].get<double>();
    EXPECT_TRUE(end > 2000 && start < 6000) << event.dump();
  }
}

TEST_F(TeachingTest, TimelineIosRecordsTheFirstHostIos) {
  std::set<std::int64_t> ios;
  auto options = CleaningRun();
  options.teaching.timeline_ios = 7;
  for (const auto& event : Complete(Timeline(options)))
    if (event["cat"] == "request") ios.insert(event["args"]["io"].get<std::int64_t>());
  EXPECT_EQ(ios, (std::set<std::int64_t>{0, 1, 2, 3, 4, 5, 6}));
}

TEST_F(TeachingTest, IoCsvIsTheSameWithAndWithoutTimeline) {
  ASSERT_EQ(Sim(CleaningRun(), "plain").exit_code, 0);
  auto options = CleaningRun();
  options.teaching.trace_ftl = 50;
  options.teaching.trace_ftl_file = (dir_ / "ftl.txt").string();
  Timeline(options);
  const std::string plain = support::read_file(dir_ / "plain" / "io.csv");
  EXPECT_GT(plain.size(), 1000u);
  EXPECT_EQ(plain, support::read_file(dir_ / "out" / "io.csv"));
}

TEST_F(TeachingTest, BadTimelineWindowIsAOneLineError) {
  auto options = support::sim_options("RW:count=5");
  options.teaching.timeline = (dir_ / "t.json").string();
  options.teaching.timeline_window = "50:10";
  const auto result = Sim(options);
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.output, HasSubstr("--timeline-window '50:10': expected START:END"));
  EXPECT_FALSE(fs::exists(dir_ / "t.json"));
}

TEST_F(TeachingTest, TraceFtlLogsEveryDecisionOfACleaningRun) {
  auto options = CleaningRun();
  options.teaching.trace_ftl = 100;
  const auto result = Sim(options);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output,
              AllOf(HasSubstr("io 0: write lpn "), HasSubstr("\n  allocate   lpn "),
                    HasSubstr("\n  invalidate page "), HasSubstr("\n  pick victim block "),
                    HasSubstr("(copy-back)"), HasSubstr("\n  erase      block "),
                    HasSubstr("\n  done       submitted at 0.000 us")));
  EXPECT_THAT(result.output, HasSubstr("io 99: "));
  EXPECT_THAT(result.output, ::testing::Not(HasSubstr("io 100: ")));
}

// A student checks greedy cleaning in the log: after each "pick victim"
// line, the candidates of its plane or pool with the fewest valid pages.
TEST_F(TeachingTest, TraceFtlShowsTheCandidatesEachVictimWasChosenFrom) {
  for (const char* type : {"page-mapped", "dftl"}) {
    auto options = CleaningRun();
    options.teaching.trace_ftl = 100;
    options.overrides = {std::string("ftl.type=") + type};
    const auto result = Sim(options, type);
    ASSERT_EQ(result.exit_code, 0) << result.output;
    const std::regex victim(
        R"(pick victim block (\d+) .*\n  candidates (\d+) sealed blocks of (its plane|pool \d+), )"
        R"(policy greedy; fewest valid: block (\d+) \((\d+)\)(, block \d+ \(\d+\))*\n)");
    int victims = 0;
    for (std::sregex_iterator it(result.output.begin(), result.output.end(), victim), end;
         it != end; ++it, ++victims) {
      const std::smatch& m = *it;
      EXPECT_EQ(m[1], m[4]) << type << ": greedy's victim is the first candidate\n" << m[0];
      EXPECT_GT(std::stoul(m[2]), 1u) << m[0];
    }
    EXPECT_GT(victims, 0) << type << "\n" << result.output.substr(0, 4000);
  }
}

TEST_F(TeachingTest, TraceFtlLogsReads) {
  auto options = support::sim_options("RR:count=3");
  options.teaching.trace_ftl = 3;
  const auto result = Sim(options);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, AllOf(HasSubstr("io 0: read lpn "), HasSubstr("\n  read       lpn ")));
}

bool HasMatplotlib() {
  return support::has_matplotlib();
}

TEST_F(TeachingTest, PlotDrawsCdfWriteAmplificationAndWear) {
  if (!HasMatplotlib()) GTEST_SKIP() << "python3-matplotlib is not installed";
  ASSERT_EQ(Sim(CleaningRun()).exit_code, 0);
  const json summary = json::parse(support::read_file(dir_ / "out" / "summary.json"));
  const json& buckets = summary["wear"]["remaining_life_buckets"];
  std::uint64_t blocks = 0;
  for (const auto& count : buckets["blocks"]) blocks += count.get<std::uint64_t>();
  EXPECT_EQ(blocks, 256u);  // every block of tiny, once
  EXPECT_EQ(buckets["erases_from"].size(), buckets["blocks"].size());
  ASSERT_EQ(ssdlab::analysis::run_plot((dir_ / "out").string(), "png"), 0);
  for (const char* figure : {"cdf.png", "write-amplification.png", "wear.png"})
    EXPECT_GT(fs::file_size(dir_ / "out" / "plots" / figure), 1000u) << figure;
}

TEST_F(TeachingTest, PlotDrawsATimeline) {
  if (!HasMatplotlib()) GTEST_SKIP() << "python3-matplotlib is not installed";
  Timeline(CleaningRun());
  ASSERT_EQ(ssdlab::analysis::run_plot((dir_ / "t.json").string(), "png", "0:5000"), 0);
  EXPECT_GT(fs::file_size(dir_ / "t-0-5000us.png"), 1000u);  // a zoom: a file of its own
}

}  // namespace
