// Workload plans: the inline form and plan files accept the same keys, and bad
// input gives one ssdlab::Error that names where it came from and the key.
#include "workloads/plan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>

#include "common/error.h"
#include "test_support.h"

namespace {

using ssdlab::testing::error_of;
namespace support = ssdlab::testing;
using ssdlab::workloads::ExperimentSpec;
using ssdlab::workloads::load_plan;
using ssdlab::workloads::parse_inline;
using ssdlab::workloads::parse_plan_file;
using ssdlab::workloads::Pattern;
using ssdlab::workloads::validate_against_device;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

constexpr std::uint64_t kTinyBytes = 16ull << 20;
constexpr ssdlab::workloads::DeviceInfo kTiny{kTinyBytes, 512, 16 * 4096};

std::string InlineError(const std::string& text) {
  return error_of([&text] { parse_inline(text); });
}

ExperimentSpec OnlyExperiment(const std::string& text) {
  const auto plan = parse_inline(text);
  EXPECT_EQ(plan.experiments.size(), 1u);
  return plan.experiments.at(0);
}

class PlanTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = support::temp_dir_for_this_test("plan-"); }

  // Writes `text` to a plan file in this test's folder; returns its path.
  std::string Write(const std::string& text) {
    return support::write_file(dir_ / "plan.toml", text).string();
  }

  std::string FileError(const std::string& text) {
    const std::string path = Write(text);
    return error_of([&path] { parse_plan_file(path, kTiny); });
  }

  std::filesystem::path dir_;
};

TEST_F(PlanTest, InlinePatternAloneUsesTheDefaults) {
  const auto plan = parse_inline("RW");
  EXPECT_EQ(plan.source, "RW");
  ASSERT_EQ(plan.experiments.size(), 1u);
  const auto& spec = plan.experiments[0];
  EXPECT_EQ(spec.name, "RW");
  EXPECT_EQ(spec.pattern, Pattern::kRW);
  EXPECT_EQ(spec.io_size, 4096u);
  EXPECT_EQ(spec.count, 5120u);  // uFLIP §5.1's IOCount for RW
  EXPECT_EQ(spec.target_offset, 0u);
  EXPECT_EQ(spec.target_size, 0u);
  EXPECT_EQ(spec.queue_depth, 1u);
  EXPECT_EQ(spec.processes, 1u);
  EXPECT_EQ(spec.runs, 1u);
  EXPECT_EQ(spec.io_ignore, 0u);
  EXPECT_FALSE(spec.seed.has_value());
  EXPECT_EQ(spec.origin, "-w 'RW'");
}

TEST_F(PlanTest, InlineKeysAreAppliedAndNameTheExperiment) {
  const auto spec = OnlyExperiment("SR:io_size=32KiB,count=10,queue_depth=4");
  EXPECT_EQ(spec.pattern, Pattern::kSR);
  EXPECT_EQ(spec.io_size, 32768u);
  EXPECT_EQ(spec.count, 10u);
  EXPECT_EQ(spec.queue_depth, 4u);
  EXPECT_EQ(spec.name, "SR/io_size=32KiB/queue_depth=4");
  EXPECT_EQ(spec.origin, "-w 'SR:io_size=32KiB,count=10,queue_depth=4'");
}

TEST_F(PlanTest, InlineDefaultNameLeavesOutCountAndSeed) {
  EXPECT_EQ(OnlyExperiment("RR:count=5,seed=9,processes=2").name, "RR/processes=2");
}

TEST_F(PlanTest, InlinePatternIsCaseInsensitive) {
  const auto spec = OnlyExperiment("sw:count=3");
  EXPECT_EQ(spec.pattern, Pattern::kSW);
  EXPECT_EQ(spec.name, "SW");
}

TEST_F(PlanTest, InlineNameReplacesTheDefaultName) {
  EXPECT_EQ(OnlyExperiment("RW:name=my-run/4k,io_size=4096").name, "my-run/4k");
}

TEST_F(PlanTest, InlineAcceptsEveryKey) {
  const auto spec = OnlyExperiment(
      "RR:name=all,io_size=8KiB,count=20,target_offset=1MiB,target_size=4MiB,queue_depth=8,"
      "processes=2,runs=3,io_ignore=5,seed=42");
  EXPECT_EQ(spec.name, "all");
  EXPECT_EQ(spec.pattern, Pattern::kRR);
  EXPECT_EQ(spec.io_size, 8192u);
  EXPECT_EQ(spec.count, 20u);
  EXPECT_EQ(spec.target_offset, 1u << 20);
  EXPECT_EQ(spec.target_size, 4u << 20);
  EXPECT_EQ(spec.queue_depth, 8u);
  EXPECT_EQ(spec.processes, 2u);
  EXPECT_EQ(spec.runs, 3u);
  EXPECT_EQ(spec.io_ignore, 5u);
  EXPECT_EQ(spec.seed, 42u);
}

TEST_F(PlanTest, SizesAcceptUnits) {
  const std::pair<const char*, std::uint64_t> cases[] = {
      {"4096", 4096}, {"4KiB", 4096},     {"4k", 4096},       {"1.5KiB", 1536},
      {"4KB", 4096},  {"2MiB", 2u << 20}, {"1GiB", 1u << 30}, {"512B", 512},
  };
  for (const auto& [text, bytes] : cases) {
    SCOPED_TRACE(text);
    EXPECT_EQ(OnlyExperiment(std::string("RW:io_size=") + text).io_size, bytes);
  }
}

TEST_F(PlanTest, LoadPlanReadsInlineTextWhenNoSuchFileExists) {
  const auto plan = load_plan("SW:count=7", kTiny);
  ASSERT_EQ(plan.experiments.size(), 1u);
  EXPECT_EQ(plan.experiments[0].pattern, Pattern::kSW);
  EXPECT_EQ(plan.experiments[0].count, 7u);
}

TEST_F(PlanTest, PlanFileWithTwoExperimentsGivesTheirNamesAndLines) {
  const std::string path = Write(
      "# two experiments\n"
      "[[experiment]]\n"
      "name = \"seq-write\"\n"
      "pattern = \"SW\"\n"
      "io_size = \"32KiB\"\n"
      "count = 100\n"
      "\n"
      "[[experiment]]\n"
      "pattern = \"RR\"\n"
      "target_size = \"1MiB\"\n"
      "seed = 42\n");
  for (const auto& plan : {parse_plan_file(path, kTiny), load_plan(path, kTiny)}) {
    EXPECT_EQ(plan.source, path);
    ASSERT_EQ(plan.experiments.size(), 2u);
    const auto& first = plan.experiments[0];
    EXPECT_EQ(first.name, "seq-write");
    EXPECT_EQ(first.pattern, Pattern::kSW);
    EXPECT_EQ(first.io_size, 32768u);
    EXPECT_EQ(first.count, 100u);
    EXPECT_EQ(first.origin, path + ":2");
    const auto& second = plan.experiments[1];
    EXPECT_EQ(second.name, "RR-1");
    EXPECT_EQ(second.pattern, Pattern::kRR);
    EXPECT_EQ(second.target_size, 1u << 20);
    EXPECT_EQ(second.seed, 42u);
    EXPECT_EQ(second.origin, path + ":8");
  }
}

TEST_F(PlanTest, InlineUnknownKeyListsTheKnownKeys) {
  EXPECT_EQ(InlineError("RW:count=5,bogus=1"),
            "-w 'RW:count=5,bogus=1': bogus: unknown key (known: name, pattern, io_size, count, "
            "target_offset, target_size, queue_depth, processes, runs, queue, namespace, "
            "placement_id, ruh_update_every, io_ignore, "
            "seed, io_shift, "
            "increment, partitions, pause_us, burst, mix, mix_pattern, mix_ratio, run_pause_us, "
            "trim_share, hot_fraction, hot_access, zipf, interarrival_us, size_distribution, "
            "sequential_share, read_share, zones_open, zone_append, zone_reset, zone_finish_at, "
            "zone_size, zone_capacity, zrwa, zrwa_flush, zrwa_rewrite)");
}

// `mix` is a plan file's inline table; inline it was an unknown key, though
// the list of known keys names it.
TEST_F(PlanTest, InlineMixSaysWhatToGiveInstead) {
  EXPECT_THAT(InlineError("RW:mix=3"), HasSubstr("mix: is a plan file's table"));
}

TEST_F(PlanTest, PlanFileUnknownKeyNamesFileLineAndKey) {
  const std::string path = Write("[[experiment]]\npattern = \"RW\"\n\ncolour = \"red\"\n");
  const std::string error = error_of([&path] { parse_plan_file(path, kTiny); });
  EXPECT_THAT(error, AllOf(StartsWith(path + ":4: colour: unknown key"), HasSubstr("io_size")));
}

TEST_F(PlanTest, InlineBadPatternListsThePatterns) {
  EXPECT_EQ(InlineError("XX:count=1"),
            "-w 'XX:count=1': pattern: expected SR, RR, SW or RW (got \"XX\")");
}

TEST_F(PlanTest, PlanFileBadPatternNamesItsLine) {
  const std::string path = Write("[[experiment]]\ncount = 5\npattern = 3\n");
  EXPECT_EQ(error_of([&path] { parse_plan_file(path, kTiny); }),
            path + ":3: pattern: expected SR, RR, SW or RW (got 3)");
}

TEST_F(PlanTest, ZeroCountShowsTheAllowedRange) {
  EXPECT_EQ(InlineError("RW:count=0"),
            "-w 'RW:count=0': count: must be between 1 and 1099511627776 (got 0)");
}

TEST_F(PlanTest, CountThatIsNotAnIntegerIsRejected) {
  EXPECT_EQ(InlineError("RW:count=ten"),
            "-w 'RW:count=ten': count: expected an integer (got \"ten\")");
}

TEST_F(PlanTest, IoSizeThatIsNotASizeIsRejected) {
  EXPECT_EQ(InlineError("RW:io_size=abc"),
            "-w 'RW:io_size=abc': io_size: expected a size in bytes such as 4096, \"32KiB\" or "
            "\"1GiB\" (got \"abc\")");
}

TEST_F(PlanTest, ZeroIoSizeIsRejected) {
  EXPECT_EQ(InlineError("RW:io_size=0"), "-w 'RW:io_size=0': io_size: must be greater than 0");
}

TEST_F(PlanTest, NegativeIoSizeInAPlanFileIsRejected) {
  const std::string path = Write("[[experiment]]\npattern = \"RW\"\nio_size = -4096\n");
  EXPECT_EQ(error_of([&path] { parse_plan_file(path, kTiny); }),
            path + ":3: io_size: must not be negative (got -4096)");
}

TEST_F(PlanTest, IoIgnoreAutoAsksForStartUpDetection) {
  const auto spec = OnlyExperiment("RW:io_ignore=auto,count=100");
  EXPECT_TRUE(spec.io_ignore_auto);
  EXPECT_EQ(spec.io_ignore, 0u);
  EXPECT_EQ(InlineError("RW:io_ignore=some"),
            "-w 'RW:io_ignore=some': io_ignore: expected a number of I/Os or \"auto\" (got "
            "\"some\")");
}

TEST_F(PlanTest, IoIgnoreAsLargeAsCountIsRejected) {
  EXPECT_EQ(InlineError("RW:io_ignore=10,count=10"),
            "-w 'RW:io_ignore=10,count=10': io_ignore (10) must be smaller than count (10)");
}

TEST_F(PlanTest, IoIgnoreAsLargeAsCountInAPlanFileNamesTheExperimentsLine) {
  const std::string path =
      Write("# io_ignore\n[[experiment]]\npattern = \"RW\"\ncount = 4\nio_ignore = 8\n");
  EXPECT_EQ(error_of([&path] { parse_plan_file(path, kTiny); }),
            path + ":2: io_ignore (8) must be smaller than count (4)");
}

TEST_F(PlanTest, InlineNameWithACommaIsRejected) {
  // The comma ends the name: what follows is not a key.
  EXPECT_EQ(InlineError("RW:name=a,b"), "-w 'RW:name=a,b': 'b' is not key=value");
}

TEST_F(PlanTest, PlanFileNameWithACommaIsRejected) {
  const std::string path = Write("[[experiment]]\npattern = \"RW\"\nname = \"a,b\"\n");
  EXPECT_THAT(error_of([&path] { parse_plan_file(path, kTiny); }),
              AllOf(StartsWith(path + ":3: name: 'a,b' has characters io.csv cannot hold"),
                    HasSubstr("_-./=:+@")));
}

TEST_F(PlanTest, InlineItemWithoutAValueIsRejected) {
  EXPECT_EQ(InlineError("RW:count"), "-w 'RW:count': 'count' is not key=value");
}

TEST_F(PlanTest, InlineKeyGivenTwiceIsRejected) {
  // A plan file cannot give a key twice (TOML forbids it); the inline form,
  // which promises the same keys, should not silently keep the last value.
  EXPECT_THAT(InlineError("RW:count=10,count=20"),
              AllOf(StartsWith("-w 'RW:count=10,count=20': "), HasSubstr("count")));
}

TEST_F(PlanTest, PlanFileWithoutAnExperimentIsRejected) {
  for (const std::string text : {"", "# nothing here\n", "experiment = []\n"}) {
    SCOPED_TRACE(text);
    const std::string path = Write(text);
    EXPECT_EQ(error_of([&path] { parse_plan_file(path, kTiny); }),
              path + ":1: no [[experiment]] or [[benchmark]] table: a plan needs at least one");
  }
}

TEST_F(PlanTest, ExperimentWithoutAPatternIsRejected) {
  EXPECT_EQ(FileError("[[experiment]]\npattern = \"RW\"\n\n[[experiment]]\ncount = 5\n"),
            (dir_ / "plan.toml").string() + ":4: experiment has no pattern (SR, RR, SW or RW)");
}

TEST_F(PlanTest, ExperimentThatIsNotATableIsRejected) {
  EXPECT_EQ(
      FileError("experiment = [1]\n"),
      (dir_ / "plan.toml").string() + ":1: experiment must be written as [[experiment]] tables");
}

TEST_F(PlanTest, UnknownTopLevelKeyNamesFileAndLine) {
  EXPECT_EQ(FileError("# plan\ntitle = \"x\"\n[[experiment]]\npattern = \"RW\"\n"),
            (dir_ / "plan.toml").string() +
                ":2: unknown top-level key 'title' (a plan holds [[experiment]] and [[benchmark]] "
                "tables and a state)");
}

TEST_F(PlanTest, TableWhereAValueBelongsIsRejected) {
  EXPECT_EQ(FileError("[[experiment]]\npattern = \"RW\"\nio_size = { bytes = 4096 }\n"),
            (dir_ / "plan.toml").string() +
                ":3: io_size: expected a number, string or boolean, not a table or array");
}

TEST_F(PlanTest, TomlSyntaxErrorNamesFileAndLine) {
  EXPECT_THAT(FileError("[[experiment]]\npattern = \"RW\"\n\ncount = = 5\n"),
              StartsWith((dir_ / "plan.toml").string() + ":4: "));
}

TEST_F(PlanTest, PlanFileThatCannotBeOpenedHasNoLineZero) {
  const std::string path = (dir_ / "missing.toml").string();
  EXPECT_THAT(error_of([&path] { parse_plan_file(path, kTiny); }),
              AllOf(StartsWith(path + ": "), Not(HasSubstr(path + ":0"))));
}

TEST_F(PlanTest, LoadPlanOfAMissingTomlFileSaysSo) {
  const std::string path = (dir_ / "missing.toml").string();
  EXPECT_EQ(error_of([&path] { load_plan(path, kTiny); }), "-w '" + path + "': no such plan file");
}

TEST_F(PlanTest, LoadPlanOfEmptyTextIsRejected) {
  EXPECT_EQ(error_of([] { load_plan("", kTiny); }), "-w: empty workload");
}

TEST_F(PlanTest, LoadPlanOfATraceSaysOnlySimReplaysIt) {
  EXPECT_THAT(error_of([] { load_plan("trace:msr.csv", kTiny); }),
              AllOf(StartsWith("-w 'trace:msr.csv': "),
                    HasSubstr("a trace is not a plan; `ssdlab sim` replays it")));
}

TEST_F(PlanTest, PausesAddingUpPastTheClockAreRefusedNamingTheKey) {
  // Each experiment alone fits the 2^62 ns clock; the plan does not.
  const std::string path = Write(
      "[[experiment]]\npattern = \"RW\"\ncount = 3001\npause_us = 1e12\n"
      "[[experiment]]\npattern = \"SW\"\ncount = 3001\npause_us = 1e12\n");
  EXPECT_NO_THROW(parse_plan_file(path, kTiny));
  EXPECT_EQ(error_of([&path] { load_plan(path, kTiny); }),
            path +
                ":5: pause_us: 3000 times 1000000000000.000 us, after the plan's earlier "
                "pauses, is beyond what the simulated clock holds (2^62 ns, about 146 years)");
  EXPECT_NO_THROW(load_plan("RW:count=4000,pause_us=1e12,burst=2", kTiny));
  EXPECT_THAT(error_of([] { load_plan("RW:count=2,run_pause_us=1e12,runs=10000", kTiny); }),
              HasSubstr("-w 'RW:count=2,run_pause_us=1e12,runs=10000': run_pause_us: 10000 "
                        "times 1000000000000.000 us is beyond what the simulated clock holds"));
  EXPECT_THAT(error_of([] { load_plan("RW:count=4612,interarrival_us=uniform:0:2e12", kTiny); }),
              HasSubstr("interarrival_us: 4612 times 1000000000000.000 us is beyond"));
}

TEST_F(PlanTest, InlineAndBuiltInFormsAreNotShadowedByFiles) {
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir_);
  support::write_file(dir_ / "RW:count=10", "[[experiment]]\nname = \"file\"\npattern = \"SR\"\n");
  const auto inline_plan = load_plan("RW:count=10", kTiny);
  const auto file_plan = load_plan("./RW:count=10", kTiny);
  std::filesystem::current_path(cwd);
  ASSERT_EQ(inline_plan.experiments.size(), 1u);
  EXPECT_EQ(inline_plan.experiments[0].name, "RW");
  ASSERT_EQ(file_plan.experiments.size(), 1u);
  EXPECT_EQ(file_plan.experiments[0].name, "file");
}

TEST_F(PlanTest, MixAndMixPatternInOneExperimentAreAKeyGivenTwice) {
  EXPECT_THAT(FileError("[[experiment]]\npattern = \"SW\"\nmix = { pattern = \"SR\", ratio = 4 }\n"
                        "mix_pattern = \"RR\"\n"),
              HasSubstr("plan.toml:4: mix_pattern: given twice (also at "));
}

}  // namespace

namespace ssdlab::workloads {
namespace {

// Zone workload keys (zone_stream.h): their values and what they go with.
TEST(PlanZoneKeys, AreCheckedWithTheirPattern) {
  const auto error = [](const std::string& text) { return InlineError(text); };
  EXPECT_EQ(error("SW:zones_open=2,zone_finish_at=0.5x"),
            "-w 'SW:zones_open=2,zone_finish_at=0.5x': zone_finish_at: expected a share of the "
            "zone capacity in (0, 1]");
  EXPECT_EQ(error("SW:zones_open=2,zone_finish_at=1.5"),
            "-w 'SW:zones_open=2,zone_finish_at=1.5': zone_finish_at: expected a share of the "
            "zone capacity in (0, 1]");
  EXPECT_NE(error("RW:zones_open=2").find("not RW"), std::string::npos);
  EXPECT_NE(error("SW:zone_append=true").find("go with zones_open"), std::string::npos);
  EXPECT_NE(error("SR:zones_open=1,zone_append=true").find("go with writes"), std::string::npos);
  const ExperimentSpec spec =
      parse_inline("SW:zones_open=3,zone_append=true,zone_finish_at=0.25,zone_size=1MiB")
          .experiments.front();
  EXPECT_EQ(spec.zone.zones_open, 3u);
  EXPECT_TRUE(spec.zone.append);
  EXPECT_DOUBLE_EQ(spec.zone.finish_at, 0.25);
  EXPECT_EQ(spec.zone.zone_size, 1u << 20);
}

}  // namespace
}  // namespace ssdlab::workloads
