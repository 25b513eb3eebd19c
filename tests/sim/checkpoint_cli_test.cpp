// `ssdlab sim --save-state / --load-state` as a real process: a run split by
// a checkpoint writes the same io.csv rows as the run that went on without
// one (after preconditioning and between experiments, for plans and trace
// replay), and bad checkpoints are refused with one line, exit status 1 and
// no outputs.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "sim/results/output.h"
#include "sim/state/checkpoint.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
namespace support = ssdlab::testing;
using support::shell_quote;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// Two experiments; the second pauses before its run (background cleaning in
// the idle time) and mixes reads in.
constexpr const char* kFirst = R"([[experiment]]
name = "first"
pattern = "RW"
io_size = 4096
count = 3000
queue_depth = 4
)";
constexpr const char* kSecond = R"([[experiment]]
name = "second"
pattern = "RW"
io_size = 8192
count = 2000
mix_pattern = "RR"
mix_ratio = 3
run_pause_us = 50000
runs = 2
)";

class CheckpointCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = support::temp_dir_for_this_test("checkpoint-cli-");
    both_ = support::write_file(dir_ / "both.toml", std::string(kFirst) + "\n" + kSecond);
    first_ = support::write_file(dir_ / "first.toml", kFirst);
    second_ = support::write_file(dir_ / "second.toml", kSecond);
  }

  // `ssdlab sim` on tiny with background cleaning and wear leveling on, life
  // short enough that rate-limiting (random draws), migration and retirement
  // all happen in these runs; `extra` is already quoted.
  support::CommandResult Sim(const std::string& extra) {
    return support::run_ssdlab("sim -c " + shell_quote(support::preset("tiny")) +
                               " --set ftl.wear_leveling=migration --set geometry.pe_cycles=30"
                               " --set ftl.clean_high_water=0.1 " +
                               extra);
  }
  std::string IoCsv(const std::string& run) { return support::read_file(dir_ / run / "io.csv"); }
  // io.csv without its header line.
  std::string Rows(const std::string& run) {
    const std::string text = IoCsv(run);
    return text.substr(text.find('\n') + 1);
  }
  std::string Out(const std::string& run) { return " -o " + shell_quote(dir_ / run); }

  fs::path dir_, both_, first_, second_;
};

TEST_F(CheckpointCli, RunSplitBetweenExperimentsWritesTheSameRows) {
  ASSERT_EQ(Sim("--precondition random -w " + shell_quote(both_) + Out("whole")).exit_code, 0);
  const auto saved = Sim("--precondition random -w " + shell_quote(first_) + Out("part1") +
                         " --save-state " + shell_quote(dir_ / "mid.ckpt"));
  ASSERT_EQ(saved.exit_code, 0) << saved.output;
  EXPECT_THAT(saved.output, HasSubstr("state saved:"));
  const auto loaded = Sim("--load-state " + shell_quote(dir_ / "mid.ckpt") + " -w " +
                          shell_quote(second_) + Out("part2"));
  ASSERT_EQ(loaded.exit_code, 0) << loaded.output;
  EXPECT_THAT(loaded.output, HasSubstr("saved after run"));
  ASSERT_GT(Rows("part2").size(), 0u);
  EXPECT_EQ(Rows("part1") + Rows("part2"), Rows("whole"));

  const auto summary = ssdlab::sim::read_json_file(dir_ / "part2" / "summary.json");
  EXPECT_EQ(summary["checkpoint"]["loaded"]["provenance"]["saved_after"], "run");
  // Device totals carry over: the whole run's and the split run's agree.
  const auto whole = ssdlab::sim::read_json_file(dir_ / "whole" / "summary.json");
  EXPECT_EQ(summary["device"]["flash_pages_written"], whole["device"]["flash_pages_written"]);
  EXPECT_EQ(summary["simulated_us"], whole["simulated_us"]);
  if (const auto checked = support::check_output(dir_ / "part2")) {
    EXPECT_EQ(checked->exit_code, 0) << checked->output;
  }
}

// The controller's state travels too: the write buffer's pages and flushes
// in flight, and background cleaning rounds that host requests preempted.
TEST_F(CheckpointCli, RunSplitWithWriteBufferAndPreemptedCleaningWritesTheSameRows) {
  const std::string controller =
      " --set controller.write_buffer=256KiB --set controller.background_cleaning_preempt=true ";
  ASSERT_EQ(Sim(controller + "--precondition random -w " + shell_quote(both_) + Out("whole"))
                .exit_code,
            0);
  const auto saved = Sim(controller + "--precondition random -w " + shell_quote(first_) +
                         Out("part1") + " --save-state " + shell_quote(dir_ / "mid.ckpt"));
  ASSERT_EQ(saved.exit_code, 0) << saved.output;
  const auto loaded = Sim(controller + "--load-state " + shell_quote(dir_ / "mid.ckpt") + " -w " +
                          shell_quote(second_) + Out("part2"));
  ASSERT_EQ(loaded.exit_code, 0) << loaded.output;
  ASSERT_GT(Rows("part2").size(), 0u);
  EXPECT_EQ(Rows("part1") + Rows("part2"), Rows("whole"));
  // A config without the buffer cannot take this state.
  const auto refused = Sim("--set controller.background_cleaning_preempt=true --load-state " +
                           shell_quote(dir_ / "mid.ckpt") + " -w " + shell_quote(second_) +
                           Out("refused"));
  EXPECT_EQ(refused.exit_code, 1) << refused.output;
  EXPECT_THAT(refused.output, HasSubstr("write buffer"));
}

TEST_F(CheckpointCli, StateSavedAfterPreconditioningWritesTheSameIoCsv) {
  ASSERT_EQ(Sim("--precondition random -w " + shell_quote(both_) + Out("whole")).exit_code, 0);
  const auto saved =
      Sim("--precondition random --save-state " + shell_quote(dir_ / "pre.ckpt") + Out("pre"));
  ASSERT_EQ(saved.exit_code, 0) << saved.output;
  const auto loaded = Sim("--verify --load-state " + shell_quote(dir_ / "pre.ckpt") + " -w " +
                          shell_quote(both_) + Out("resumed"));
  ASSERT_EQ(loaded.exit_code, 0) << loaded.output;
  EXPECT_THAT(loaded.output, HasSubstr("saved after preconditioning"));
  EXPECT_EQ(IoCsv("resumed"), IoCsv("whole"));
  const auto pre = ssdlab::sim::read_json_file(dir_ / "pre" / "summary.json");
  EXPECT_EQ(pre["checkpoint"]["saved"]["bytes"], fs::file_size(dir_ / "pre.ckpt"));
}

TEST_F(CheckpointCli, SavingTwiceGivesTheSameFile) {
  ASSERT_EQ(Sim("--precondition random -w " + shell_quote(first_) + Out("a") + " --save-state " +
                shell_quote(dir_ / "a.ckpt"))
                .exit_code,
            0);
  ASSERT_EQ(Sim("--precondition random -w " + shell_quote(first_) + Out("b") + " --save-state " +
                shell_quote(dir_ / "b.ckpt"))
                .exit_code,
            0);
  EXPECT_EQ(support::read_file(dir_ / "a.ckpt"), support::read_file(dir_ / "b.ckpt"));
}

TEST_F(CheckpointCli, TraceReplayFromASavedStateWritesTheSameIoCsv) {
  std::string trace;
  for (int i = 0; i < 400; ++i)  // DiskSim ASCII: ms, device, 512-B block, blocks, flags
    trace += std::to_string(i * 0.3) + " 0 " + std::to_string((i * 7919) % 20000) + " 8 " +
             (i % 3 ? "0" : "1") + "\n";
  const fs::path file = support::write_file(dir_ / "t.disksim", trace);
  const std::string workload = " -w " + shell_quote("trace:" + file.string());
  ASSERT_EQ(Sim("--precondition random" + workload + Out("whole")).exit_code, 0);
  ASSERT_EQ(Sim("--precondition random --save-state " + shell_quote(dir_ / "p.ckpt") + Out("pre"))
                .exit_code,
            0);
  const auto loaded = Sim("--load-state " + shell_quote(dir_ / "p.ckpt") + workload +
                          Out("resumed") + " --save-state " + shell_quote(dir_ / "after.ckpt"));
  ASSERT_EQ(loaded.exit_code, 0) << loaded.output;
  EXPECT_EQ(IoCsv("resumed"), IoCsv("whole"));
  EXPECT_TRUE(fs::exists(dir_ / "after.ckpt"));
}

class CheckpointCliRefusal : public CheckpointCli {
 protected:
  void SetUp() override {
    CheckpointCli::SetUp();
    ASSERT_EQ(Sim("--precondition seq --save-state " + shell_quote(dir_ / "good.ckpt") + Out("pre"))
                  .exit_code,
              0);
    good_ = support::read_file(dir_ / "good.ckpt");
  }
  // Loads `file` with `extra` settings: the single error line, checked for
  // exit status 1 and no outputs left behind.
  std::string Refusal(const fs::path& file, const std::string& extra = "") {
    const auto result =
        Sim("--load-state " + shell_quote(file) + " -w RW:count=10" + Out("refused") + " " + extra);
    EXPECT_EQ(result.exit_code, 1) << result.output;
    EXPECT_FALSE(fs::exists(dir_ / "refused" / "io.csv"));
    EXPECT_FALSE(fs::exists(dir_ / "refused" / "summary.json"));
    EXPECT_EQ(std::count(result.output.begin(), result.output.end(), '\n'), 1) << result.output;
    EXPECT_THAT(result.output, StartsWith("ssdlab: " + file.string() + ": "));
    return result.output;
  }
  fs::path Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return dir_ / name;
  }
  std::string good_;
};

TEST_F(CheckpointCliRefusal, CorruptByte) {
  std::string text = good_;
  text[text.size() - 1000] ^= 1;
  EXPECT_THAT(Refusal(Write("corrupt.ckpt", text)), HasSubstr("checksum mismatch"));
}

TEST_F(CheckpointCliRefusal, Truncated) {
  EXPECT_THAT(Refusal(Write("short.ckpt", good_.substr(0, good_.size() / 2))),
              HasSubstr("truncated"));
}

TEST_F(CheckpointCliRefusal, OtherGeometryAndOtherFtl) {
  EXPECT_THAT(Refusal(dir_ / "good.ckpt", "--set geometry.blocks_per_plane=40"),
              HasSubstr("geometry.blocks_per_plane = 32, but the config has 40"));
  // (BAST refuses migration, the checkpoint's wear leveling: rate-limit it.)
  EXPECT_THAT(Refusal(dir_ / "good.ckpt", "--set ftl.type=bast --set ftl.wear_leveling=rate-limit"),
              HasSubstr("ftl.type = \"page-mapped\""));
}

TEST_F(CheckpointCliRefusal, WrongVersionAndMissingFile) {
  std::string text = good_;
  const std::uint32_t other = ssdlab::sim::kCheckpointFormat + 1;  // the next format
  text[8] = static_cast<char>(other);
  EXPECT_THAT(Refusal(Write("other.ckpt", text)),
              HasSubstr(fmt::format("format version {}", other)));
  EXPECT_THAT(Refusal(dir_ / "missing.ckpt"), HasSubstr("cannot open"));
}

TEST_F(CheckpointCli, StateInfoChecksTheFileAndPrintsItsProvenance) {
  ASSERT_EQ(
      Sim("--precondition random:0.5 --save-state " + shell_quote(dir_ / "pre.ckpt") + Out("pre"))
          .exit_code,
      0);
  const auto info = support::run_ssdlab("state-info " + shell_quote(dir_ / "pre.ckpt"));
  ASSERT_EQ(info.exit_code, 0) << info.output;
  EXPECT_THAT(info.output, HasSubstr("checksum correct"));
  EXPECT_THAT(info.output, HasSubstr("saved after preconditioning"));
  EXPECT_THAT(info.output, HasSubstr("\"precondition\": \"random:0.5\""));
  std::string text = support::read_file(dir_ / "pre.ckpt");
  text[text.size() / 2] ^= 4;
  std::ofstream(dir_ / "bad.ckpt", std::ios::binary) << text;
  const auto bad = support::run_ssdlab("state-info " + shell_quote(dir_ / "bad.ckpt"));
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_THAT(bad.output, HasSubstr("checksum mismatch"));
}

TEST_F(CheckpointCli, LoadStateWithPreconditionIsAUsageError) {
  const auto result = Sim("--load-state x.ckpt --precondition seq -w RW:count=10" + Out("x"));
  EXPECT_EQ(result.exit_code, 2) << result.output;
}

// A command line's check (sim_cli.cpp), before any run: exit status 2.
TEST(PowerCutCli, RefusesCheckpointsWithOneClearLine) {
  const auto dir = support::temp_dir_for_this_test("power-cut-checkpoint");
  const std::string base = "sim -c " + shell_quote(support::preset("tiny")) +
                           " -w 'RW:io_size=4096,count=100' -o " + shell_quote(dir / "out") +
                           " --power-cut-at 5";
  for (const std::string flag : {" --save-state ", " --load-state "}) {
    SCOPED_TRACE(flag);
    const auto result = support::run_ssdlab(base + flag + shell_quote(dir / "s.state"));
    EXPECT_EQ(result.exit_code, 2) << result.output;
    EXPECT_NE(result.output.find("--power-cut-at cannot be combined with --save-state or "
                                 "--load-state"),
              std::string::npos)
        << result.output;
    EXPECT_FALSE(std::filesystem::exists(dir / "out" / "summary.json"));
  }
}

TEST_F(CheckpointCli, SweepJobsStartFromASharedCheckpoint) {
  ASSERT_EQ(Sim("--precondition random --save-state " + shell_quote(dir_ / "pre.ckpt") + Out("pre"))
                .exit_code,
            0);
  const fs::path sweep = support::write_file(
      dir_ / "sweep.toml",
      "configs = [" + nlohmann::json(support::preset("tiny")).dump() +
          "]\nworkloads = [\"RW:count=500\"]\nload_state = \"pre.ckpt\"\n"
          "sets = [[\"ftl.wear_leveling=migration\", \"geometry.pe_cycles=30\", "
          "\"ftl.clean_high_water=0.1\", \"timing.read_us=25\"], [\"ftl.wear_leveling=migration\","
          " \"geometry.pe_cycles=30\", \"ftl.clean_high_water=0.1\", \"timing.read_us=50\"]]\n");
  const auto result =
      support::run_ssdlab("sweep " + shell_quote(sweep) + " -o " + shell_quote(dir_ / "sweep"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  for (const char* job : {"job-00000", "job-00001"}) {
    const auto summary = ssdlab::sim::read_json_file(dir_ / "sweep" / job / "summary.json");
    EXPECT_TRUE(summary["checkpoint"].contains("loaded")) << job;
    EXPECT_GT(summary["device"]["flash_pages_written"].get<double>(),
              summary["experiments"][0]["runs"][0]["device"]["flash_pages_written"].get<double>());
  }
}

}  // namespace
