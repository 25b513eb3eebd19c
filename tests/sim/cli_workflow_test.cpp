// The command line's workflow (issue 22): progress on a terminal, more
// percentiles and a latency histogram, help and "did you mean", sweeps as
// grids with typed columns (FTL failures that name the request:
// ftl_failure_test.cpp).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "common/progress.h"
#include "common/suggest.h"
#include "run_support.h"
#include "sim/results/output.h"
#include "sim/results/summary.h"
#include "sim/run/plan_run.h"
#include "sim/sweep/sweep.h"
#include "test_support.h"

namespace ssdlab {
namespace {

namespace fs = std::filesystem;
namespace support = ssdlab::testing;
using support::shell_quote;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using Clock = std::chrono::steady_clock;

// ---- Progress ---------------------------------------------------------------

// A Progress whose clock the test moves and whose output it keeps.
struct FakeTerminal {
  Clock::time_point now{};
  std::string written;
  Progress progress(std::uint64_t total, std::string unit = "pages") {
    return Progress(
        "preconditioning", total, std::move(unit),
        [this](std::string_view text) { written += text; }, [this] { return now; });
  }
};

TEST(Progress, LineShowsCountRateAndEta) {
  FakeTerminal terminal;
  const Progress progress = terminal.progress(1000);
  // 250 of 1000 in 5 s: 50 per second, 750 left: 15 s.
  EXPECT_EQ(progress.line(250, 5.0), "preconditioning: 250/1000 pages (25%), 50 pages/s, ETA 15s");
  EXPECT_EQ(progress.line(0, 0.0), "preconditioning: 0/1000 pages (0%)");
  // Large counts in millions; a given rate (the last window's) wins.
  const Progress big = terminal.progress(456340272);
  EXPECT_EQ(big.line(153616384, 10.0, 2e6),
            "preconditioning: 153.6M/456.3M pages (34%), 2.0M pages/s, ETA 2m31s");
  EXPECT_EQ(format_eta(3725), "1h02m");
  EXPECT_EQ(format_eta(185), "3m05s");
}

TEST(Progress, BytesPrintAsMebibytesAndUnknownTotalsHaveNoEta) {
  FakeTerminal terminal;
  const Progress bytes = terminal.progress(8u << 20, "bytes");
  EXPECT_EQ(bytes.line(2u << 20, 1.0), "preconditioning: 2.0/8.0 MiB (25%), 2.0 MiB/s, ETA 3s");
  const Progress open = terminal.progress(0, "I/Os");
  EXPECT_EQ(open.line(500, 2.0), "preconditioning: 500 I/Os, 250 I/Os/s");
}

TEST(Progress, ReadsTheClockEveryNItemsAndRedrawsAtMostFourTimesASecond) {
  FakeTerminal terminal;
  Progress progress = terminal.progress(1 << 20);
  terminal.now += std::chrono::seconds(1);
  for (std::uint64_t i = 1; i < Progress::kCheckEvery; ++i) progress.tick(i);
  EXPECT_EQ(terminal.written, "");  // the clock was not even looked at
  progress.tick(Progress::kCheckEvery);
  ASSERT_THAT(terminal.written, HasSubstr("\rpreconditioning: 4096/1.0M pages"));
  const std::string once = terminal.written;
  terminal.now += std::chrono::milliseconds(100);  // too soon for another line
  for (std::uint64_t i = 0; i < Progress::kCheckEvery; ++i) progress.tick(5000 + i);
  EXPECT_EQ(terminal.written, once);
  terminal.now += std::chrono::milliseconds(200);
  progress.update(9000);
  EXPECT_THAT(terminal.written, HasSubstr("\rpreconditioning: 9000/1.0M"));
}

TEST(Progress, FinishErasesTheLineAndADisabledOneWritesNothing) {
  FakeTerminal terminal;
  Progress progress = terminal.progress(100);
  terminal.now += std::chrono::seconds(1);
  progress.update(50);
  const std::size_t shown = terminal.written.size() - 1;  // without the leading \r
  progress.finish();
  EXPECT_EQ(terminal.written.substr(shown + 1), "\r" + std::string(shown, ' ') + "\r");
  terminal.now += std::chrono::seconds(1);
  const std::string after = terminal.written;
  progress.update(60);  // finished: nothing more
  EXPECT_EQ(terminal.written, after);
  Progress disabled;
  EXPECT_FALSE(disabled.enabled());
  disabled.tick(1);
  disabled.update(2);
  disabled.finish();
}

TEST(Progress, DrawIgnoresTheIntervalAndSlowRatesKeepTheirDecimals) {
  FakeTerminal terminal;
  Progress progress = terminal.progress(6, "jobs");
  progress.draw(0);  // at once, before anything is done
  EXPECT_EQ(terminal.written, "\rpreconditioning: 0/6 jobs (0%)");
  terminal.now += std::chrono::seconds(20);
  progress.draw(1);
  EXPECT_THAT(terminal.written, HasSubstr("1/6 jobs (17%), 0.05 jobs/s, ETA 1m40s"));
}

TEST(Progress, TheRateIsThatOfTheLastFiveSecondsOnceTheyHavePassed) {
  FakeTerminal terminal;
  Progress progress = terminal.progress(10000000);
  terminal.now += std::chrono::seconds(5);
  progress.update(5000000);  // 1M/s over the first window
  EXPECT_THAT(terminal.written, HasSubstr(", 1.0M pages/s, ETA 5s"));
  terminal.now += std::chrono::seconds(5);
  progress.update(6000000);  // 200k/s now: the average (600k/s) would say 7s
  EXPECT_THAT(terminal.written, HasSubstr("6.0M/10.0M pages (60%), 200000 pages/s, ETA 20s"));
}

TEST(Progress, ClearErasesUntilTheNextUpdateAndShorterLinesPadTheLongerOnes) {
  FakeTerminal terminal;
  Progress progress = terminal.progress(0);
  terminal.now += std::chrono::seconds(1);
  progress.update(123456);
  progress.clear();
  EXPECT_EQ(terminal.written.back(), '\r');
  terminal.written.clear();
  progress.clear();  // nothing on screen: nothing to erase
  EXPECT_EQ(terminal.written, "");
  terminal.now += std::chrono::seconds(1);
  progress.update(7);
  EXPECT_EQ(terminal.written.find('\r'), 0u);
  EXPECT_EQ(terminal.written.find("  "), std::string::npos);  // after a clear: no padding
}

// Off a terminal (the test's pipe) nothing but the usual lines: no \r.
TEST(Progress, RunsOffATerminalPrintNoProgress) {
  const fs::path dir = support::temp_dir_for_this_test("progress-");
  const auto result = support::run_ssdlab(
      "sim -c " + shell_quote(support::preset("tiny")) +
      " --precondition random -w RW:count=20000 --no-io-log -o " + shell_quote(dir / "out"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output.find('\r'), std::string::npos);
  EXPECT_THAT(result.output, Not(HasSubstr("ETA")));
  const auto quiet = support::run_ssdlab("sim --help");
  EXPECT_THAT(quiet.output, AllOf(HasSubstr("--quiet"), HasSubstr("--percentiles")));
}

// ---- Percentiles and the histogram ------------------------------------------

std::vector<TimeNs> Microseconds(int from, int to) {
  std::vector<TimeNs> responses;
  for (int us = to; us >= from; --us) responses.push_back(TimeNs{us} * 1000);  // reversed
  return responses;
}

TEST(Percentiles, NearestRankOfOneToAThousandMicroseconds) {
  auto responses = Microseconds(1, 1000);
  const sim::RunStats stats = sim::compute_stats(responses, 1000, 0, 0);
  // Nearest rank: the ceil(p/100 x 1000)-th smallest.
  ASSERT_EQ(stats.percentiles.size(), 5u);
  const double expected[][2] = {{50, 500}, {90, 900}, {99, 990}, {99.9, 999}, {99.99, 1000}};
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(stats.percentiles[i].percent, expected[i][0]);
    EXPECT_EQ(stats.percentiles[i].ns, static_cast<TimeNs>(expected[i][1] * 1000))
        << expected[i][0];
  }
  EXPECT_EQ(stats.p50_ns, 500000);
  EXPECT_EQ(stats.p99_ns, 990000);
  const nlohmann::json json = sim::RunRecord::of(0, stats);
  EXPECT_EQ(json["p50_us"], 500.0);
  EXPECT_EQ(json["p90_us"], 900.0);
  EXPECT_EQ(json["p99_us"], 990.0);
  EXPECT_EQ(json["p99_9_us"], 999.0);
  EXPECT_EQ(json["p99_99_us"], 1000.0);
  EXPECT_EQ(json["percentiles"]["99.9"], 999.0);
  EXPECT_EQ(json["percentiles"].size(), 5u);
}

TEST(Percentiles, TenSamplesAndAChosenList) {
  std::vector<TimeNs> responses;
  for (int i = 10; i >= 1; --i) responses.push_back(i * 10000);  // 10 .. 100 us
  const double asked[] = {25, 99.9};
  const sim::RunStats stats = sim::compute_stats(responses, 12, 0, 0, asked);
  EXPECT_EQ(stats.ignored, 2u);
  ASSERT_EQ(stats.percentiles.size(), 2u);
  EXPECT_EQ(stats.percentiles[0].ns, 30000);   // rank ceil(2.5) = 3
  EXPECT_EQ(stats.percentiles[1].ns, 100000);  // rank ceil(9.99) = 10
  EXPECT_EQ(stats.p50_ns, 50000);              // always, for compatibility
  const nlohmann::json json = sim::RunRecord::of(0, stats);
  EXPECT_EQ(json["p25_us"], 30.0);
  EXPECT_FALSE(json.contains("p90_us"));
}

TEST(Percentiles, ParsedFromTheOptionWithErrorsNamingIt) {
  EXPECT_EQ(sim::parse_percentiles("50,90,99.9"), (std::vector<double>{50, 90, 99.9}));
  EXPECT_EQ(sim::percentile_key(99.99), "p99_99_us");
  for (const char* bad : {"", "50,", "0", "101", "p99", "50;90"}) {
    SCOPED_TRACE(bad);
    try {
      sim::parse_percentiles(bad);
      ADD_FAILURE() << "accepted";
    } catch (const Error& error) {
      EXPECT_THAT(error.what(), HasSubstr("--percentiles"));
    }
  }
}

TEST(LatencyHistogram, FourLogSpacedBucketsPerDoubling) {
  using H = sim::LatencyHistogram;
  EXPECT_EQ(H::index_of(0), 0u);
  EXPECT_EQ(H::index_of(3), 3u);
  EXPECT_EQ(H::index_of(4), 4u);
  EXPECT_EQ(H::index_of(7), 7u);
  EXPECT_EQ(H::index_of(8), 8u);
  EXPECT_EQ(H::index_of(9), 8u);  // [8, 10)
  EXPECT_EQ(H::index_of(10), 9u);
  EXPECT_EQ(H::lower_bound(9), 10);
  EXPECT_EQ(H::index_of(1000), 35u);  // [896, 1024)
  EXPECT_EQ(H::lower_bound(35), 896);
  EXPECT_EQ(H::lower_bound(36), 1024);
  std::vector<TimeNs> responses = {1000, 900, 8, 9, 10};
  const sim::RunStats stats = sim::compute_stats(responses, 5, 0, 0);
  const nlohmann::json histogram = nlohmann::json(sim::RunRecord::of(0, stats))["histogram"];
  EXPECT_EQ(histogram["counts"], nlohmann::json({2, 1, 2}));
  EXPECT_EQ(histogram["from_us"], nlohmann::json({0.008, 0.01, 0.896}));
  EXPECT_EQ(histogram["to_us"], nlohmann::json({0.01, 0.012, 1.024}));
}

TEST(Percentiles, SimWritesThemAndTheHistogramIntoEveryRun) {
  const fs::path dir = support::temp_dir_for_this_test("percentiles-");
  auto options = support::sim_options("RW:count=2000");
  options.precondition = "seq";
  options.io_log = false;
  options.percentiles = sim::parse_percentiles("50,99.5");  // as --percentiles 50,99.5
  support::run_tiny(dir, "out", options);
  const auto summary = nlohmann::json::parse(support::read_file(dir / "out" / "summary.json"));
  const auto& run = summary["experiments"][0]["runs"][0];
  EXPECT_TRUE(run.contains("p99_5_us"));
  EXPECT_TRUE(run.contains("p99_us"));  // compatibility
  EXPECT_FALSE(run.contains("p99_9_us"));
  EXPECT_LE(run["p99_us"].get<double>(), run["p99_5_us"].get<double>());
  std::uint64_t counted = 0;
  for (const auto& count : run["histogram"]["counts"]) counted += count.get<std::uint64_t>();
  EXPECT_EQ(counted, run["count"].get<std::uint64_t>() - run["ignored"].get<std::uint64_t>());
  EXPECT_THAT(support::error_of([] { sim::parse_percentiles("50,200"); }),
              HasSubstr("--percentiles '50,200': '200' is not a percent"));
}

// ---- Help and "did you mean" -----------------------------------------------

TEST(Suggest, ClosestNameByEditDistance) {
  EXPECT_EQ(edit_distance("smi", "sim"), 1u);  // a transposition
  EXPECT_EQ(edit_distance("SIM", "sim"), 0u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  const std::string_view names[] = {"sim", "sweep", "config", "compare"};
  EXPECT_EQ(did_you_mean("smi", names), "; did you mean 'sim'?");
  EXPECT_EQ(did_you_mean("comapre", names), "; did you mean 'compare'?");
  EXPECT_EQ(did_you_mean("plotting", names), "");
}

TEST(Help, HelpCommandAndMistypedSubcommands) {
  const auto help = support::run_ssdlab("help sim");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.output,
              AllOf(HasSubstr("--precondition"), HasSubstr("uflip:NAME"), HasSubstr("seq[:N]"),
                    HasSubstr("none"), HasSubstr("trace:FILE"), HasSubstr("Examples:")));
  EXPECT_EQ(support::run_ssdlab("sim --help").output, help.output);
  const auto top = support::run_ssdlab("help");
  EXPECT_EQ(top.exit_code, 0);
  EXPECT_THAT(top.output, AllOf(HasSubstr("sweep"), HasSubstr("ssdlab help COMMAND")));
  const auto typo = support::run_ssdlab("smi -c x");
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_THAT(typo.output, HasSubstr("ssdlab: unknown subcommand 'smi'; did you mean 'sim'?"));
  const auto unknown_topic = support::run_ssdlab("help comapre");
  EXPECT_EQ(unknown_topic.exit_code, 2);
  EXPECT_THAT(unknown_topic.output, HasSubstr("did you mean 'compare'?"));
  const auto nothing_close = support::run_ssdlab("--log-level warn frobnicate");
  EXPECT_EQ(nothing_close.exit_code, 2);
  EXPECT_THAT(nothing_close.output,
              AllOf(HasSubstr("unknown subcommand 'frobnicate'"), Not(HasSubstr("did you mean"))));
}

TEST(Suggest, MistypedConfigAndPlanKeysGetTheClosestName) {
  EXPECT_THAT(support::preset_error("tiny", {"geometry.chanels=1"}),
              HasSubstr("unknown key 'geometry.chanels'; did you mean 'geometry.channels'?"));
  EXPECT_THAT(support::preset_error("tiny", {"timign.read_us=30"}),
              HasSubstr("unknown table 'timign'; did you mean 'timing'?"));
  const fs::path dir = support::temp_dir_for_this_test("suggest-");
  EXPECT_THAT(
      support::error_of([&] { support::run_tiny(dir, "out", support::sim_options("RW:cuont=5")); }),
      HasSubstr("cuont: unknown key; did you mean 'count'?"));
}

TEST(Help, EverySubcommandHasExamples) {
  for (const char* command :
       {"sim", "config", "probe", "calibrate", "sweep", "collect", "trace-info", "state-info",
        "plot", "compare", "export-fio", "reproduce", "help", "completion", "cache"}) {
    SCOPED_TRACE(command);
    const auto help = support::run_ssdlab(std::string(command) + " --help");
    EXPECT_EQ(help.exit_code, 0);
    EXPECT_THAT(help.output, HasSubstr("Examples:\n  ssdlab"));
  }
}

TEST(Help, BashCompletionNamesSubcommandsAndTheirOptions) {
  const auto script = support::run_ssdlab("completion bash");
  ASSERT_EQ(script.exit_code, 0);
  EXPECT_THAT(script.output,
              AllOf(HasSubstr("complete -o filenames -o bashdefault -F _ssdlab ssdlab"),
                    HasSubstr("sim) options=\""), HasSubstr("--precondition"),
                    HasSubstr("compare) options=\""), HasSubstr("--match")));
  // bash accepts it, and it completes a subcommand and an option.
  const fs::path dir = support::temp_dir_for_this_test("completion-");
  support::write_file(dir / "ssdlab.bash", script.output);
  const auto completed = support::run_shell(
      "bash -c " +
      shell_quote("source " + (dir / "ssdlab.bash").string() +
                  " && COMP_WORDS=(ssdlab sw) COMP_CWORD=1 && _ssdlab && echo \"${COMPREPLY[@]}\""
                  " && COMP_WORDS=(ssdlab sim --prec) COMP_CWORD=2 && _ssdlab && "
                  "echo \"${COMPREPLY[@]}\""));
  EXPECT_EQ(completed.exit_code, 0) << completed.output;
  EXPECT_EQ(completed.output, "sweep\n--precondition --precondition-threads\n");
}

// ---- Sweeps as grids --------------------------------------------------------

TEST(SweepGrid, AxesCrossAndSweepCsvHasATypedColumnPerKey) {
  const fs::path dir = support::temp_dir_for_this_test("grid-");
  const fs::path sweep = support::write_file(
      dir / "grid.toml", "configs = [\"" + support::preset("tiny") +
                             "\"]\n"
                             "workloads = [\"RW:count=500\"]\n"
                             "[grid]\n"
                             "\"ftl.overprovisioning\" = [0.1, 0.25]\n"
                             "\"ftl.type\" = [\"page-mapped\", \"fast\"]\n"
                             "\"controller.write_buffer\" = [\"128KiB\", \"32KiB\"]\n");
  sim::SweepOptions options;
  options.plan = sweep.string();
  options.outdir = (dir / "out").string();
  options.jobs = 2;
  std::ostringstream printed;
  ASSERT_EQ(sim::run_sweep(options, printed), 0) << printed.str();
  EXPECT_THAT(printed.str(), HasSubstr("8 jobs on 2 threads"));
  const auto rows = support::csv_rows(support::read_file(dir / "out" / "sweep.csv"));
  ASSERT_EQ(rows.size(), 8u);  // after the header
  const auto header = support::csv_rows("\n" + support::read_file(dir / "out" / "sweep.csv"))[0];
  ASSERT_GE(header.size(), 6u);
  // Axes in key order (a TOML table's keys are sorted), the first slowest.
  EXPECT_EQ(header[3], "controller.write_buffer");
  EXPECT_EQ(header[4], "ftl.overprovisioning");
  EXPECT_EQ(header[5], "ftl.type");
  // Sizes in bytes, fractions as numbers, text as is.
  EXPECT_EQ(rows[0][3], "131072");
  EXPECT_EQ(rows[0][4], "0.1");
  EXPECT_EQ(rows[0][5], "page-mapped");
  EXPECT_EQ(rows[1][5], "fast");
  EXPECT_EQ(rows[2][4], "0.25");
  EXPECT_EQ(rows[4][3], "32768");
  EXPECT_EQ(rows[7][5], "fast");
  const auto manifest = nlohmann::json::parse(support::read_file(dir / "out" / "jobs.json"));
  EXPECT_EQ(manifest["jobs"][7]["sets"],
            nlohmann::json(
                {"controller.write_buffer=32KiB", "ftl.overprovisioning=0.25", "ftl.type=fast"}));
}

TEST(SweepGrid, BadGridsAndUnknownKeysAreNamed) {
  const fs::path dir = support::temp_dir_for_this_test("grid-bad-");
  const std::string head =
      "configs = [\"" + support::preset("tiny") + "\"]\nworkloads = [\"RW:count=10\"]\n";
  const auto run = [&](const std::string& text) {
    const fs::path sweep = support::write_file(dir / "bad.toml", head + text);
    sim::SweepOptions options;
    options.plan = sweep.string();
    options.outdir = (dir / "out").string();
    options.quiet = true;
    return support::error_of([&] {
      std::ostringstream out;
      sim::run_sweep(options, out);
    });
  };
  EXPECT_THAT(run("[grid]\n\"ftl.type\" = []\n"),
              HasSubstr("grid.\"ftl.type\": expected a non-empty list of values"));
  EXPECT_THAT(run("[grid]\noverprovisioning = [0.1]\n"),
              HasSubstr("expected a config key \"table.key\""));
  EXPECT_THAT(run("seed = [1]\n"), HasSubstr("unknown key 'seed'; did you mean 'seeds'?"));
}

}  // namespace
}  // namespace ssdlab
