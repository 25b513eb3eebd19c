// Options per trace (-w trace:FILE,key=value,...), what replay says on its
// console (requests remapped, skipped before --start, widened; time spans no
// unit could mean), the devices of one trace (one, side by side, shared,
// and the warning when none was chosen), standard input as a trace, and the
// smaller messages of issue 27 (blkparse without the chosen events, a fio
// v2 iolog without timing in trace-info).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "common/error.h"
#include "sim/run/trace_settings.h"
#include "test_support.h"
#include "trace_support.h"
#include "traces/formats.h"
#include "traces/read_options.h"
#include "traces/selection.h"

namespace ssdlab::sim {
namespace {

namespace fs = std::filesystem;
namespace support = ssdlab::testing;
using ::testing::HasSubstr;
using ::testing::Not;

// Windows filetime of an arbitrary moment, plus `us` microseconds.
std::string Filetime(std::uint64_t us) {
  return std::to_string(133444736000000000ULL + us * 10);
}

class TraceOptionsTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = support::temp_dir_for_this_test("trace-options-"); }

  fs::path Write(const std::string& name, const std::string& text) {
    return support::write_file(dir_ / name, text);
  }
  // `ssdlab sim` on the tiny preset with `arguments` (quoted already).
  support::CommandResult Sim(const std::string& arguments, const std::string& out = "out") {
    return support::run_ssdlab("sim -c " + support::shell_quote(support::preset("tiny")) +
                               " -o " + support::shell_quote(dir_ / out) + " " + arguments);
  }
  std::string Trace(const fs::path& path, const std::string& keys = "") {
    return "-w " + support::shell_quote("trace:" + path.string() + keys);
  }
  nlohmann::json Summary(const std::string& out = "out") {
    return nlohmann::json::parse(support::read_file(dir_ / out / "summary.json"));
  }
  // experiment -> its io.csv rows (offset, submit_us) by io index (io.csv
  // is in completion order)
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::string>>> Rows(
      const std::string& out = "out") {
    std::map<std::string, std::map<std::uint64_t, std::pair<std::uint64_t, std::string>>> by_io;
    for (const auto& f : support::csv_rows(support::read_file(dir_ / out / "io.csv")))
      by_io[f[0]][std::stoull(f[3])] = {std::stoull(f[7]), f[4]};
    std::map<std::string, std::vector<std::pair<std::uint64_t, std::string>>> rows;
    for (const auto& [experiment, ios] : by_io)
      for (const auto& [io, row] : ios) rows[experiment].push_back(row);
    return rows;
  }

  fs::path dir_;
};

TEST_F(TraceOptionsTest, KeysOverrideTheCommandLineForOneTrace) {
  TraceOptions defaults;
  defaults.read.format = "msr";
  defaults.read.map = traces::AddressMap::kModulo;
  std::string path;
  const TraceOptions options = trace_options_of(
      "trace:a.txt,format=mqsim,time_unit=us,device=3,map=scale,speed=2.5,limit=7,name=x",
      defaults, path);
  EXPECT_EQ(path, "a.txt");
  EXPECT_EQ(options.read.format, "mqsim");
  EXPECT_EQ(options.read.time_unit_ns, 1000);
  EXPECT_EQ(options.read.device, 3u);
  EXPECT_EQ(options.read.map, traces::AddressMap::kScale);
  EXPECT_DOUBLE_EQ(options.speed, 2.5);
  EXPECT_EQ(options.read.limit, 7u);
  EXPECT_EQ(options.name, "x");
  // Without keys, the command line's options hold.
  EXPECT_EQ(trace_options_of("trace:b.csv", defaults, path).read.format, "msr");
  EXPECT_EQ(path, "b.csv");
}

TEST_F(TraceOptionsTest, BadKeysAreNamed) {
  std::string path;
  const auto message = [&](const std::string& workload) {
    try {
      trace_options_of(workload, TraceOptions{}, path);
    } catch (const Error& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  EXPECT_THAT(message("trace:a,colour=red"), HasSubstr("unknown key 'colour' (keys: format"));
  EXPECT_THAT(message("trace:a,format"), HasSubstr("'format': expected key=value"));
  EXPECT_THAT(message("trace:a,format="), HasSubstr("format: no value"));
  EXPECT_THAT(message("trace:a,speed=fast"), HasSubstr("speed 'fast': expected a positive"));
  EXPECT_THAT(message("trace:a,limit=0"), HasSubstr("limit '0'"));
  // A value the resolver checks names the option and the workload.
  const auto trace = Write("t.csv", Filetime(0) + ",h,0,Read,0,4096,1\n");
  const auto result = Sim(Trace(trace, ",map=fold"));
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_THAT(result.output, HasSubstr("-w 'trace:" + trace.string() +
                                       ",map=fold': --map 'fold': expected modulo or scale"));
}

TEST_F(TraceOptionsTest, HelpListsTheKeys) {
  const auto result = support::run_ssdlab("sim --help");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  std::string help = result.output;  // CLI11 wraps lines: compare without them
  std::string flat;
  for (char c : help)
    if (c != '\n' && !(c == ' ' && !flat.empty() && flat.back() == ' ')) flat += c;
  EXPECT_THAT(flat, HasSubstr("keys: " + trace_key_names()));
  EXPECT_THAT(flat, HasSubstr("--devices"));
}

// The read options are declared once (traces/read_options.cpp): `sim` and
// `trace-info` show the same flags with the same help, the formats listed
// from the formats table; trace-info leaves out the replay's selection.
TEST_F(TraceOptionsTest, SimAndTraceInfoShowTheSameReadOptions) {
  const auto flat_help = [](const std::string& command) {
    const auto result = support::run_ssdlab(command + " --help");
    EXPECT_EQ(result.exit_code, 0) << result.output;
    std::string flat;  // CLI11 wraps lines: compare without them
    for (char c : result.output)
      if (c != '\n' && !(c == ' ' && !flat.empty() && flat.back() == ' ')) flat += c;
    return flat;
  };
  const std::string sim = flat_help("sim"), info = flat_help("trace-info");
  EXPECT_THAT(sim, HasSubstr("auto (default: from the first lines), " + traces::format_names()));
  for (const auto& option : traces::read_option_keys()) {
    EXPECT_THAT(sim, HasSubstr(std::string(option.flag)));
    EXPECT_THAT(sim, HasSubstr(option.help));
    const bool replay_only = option.flag == "--skip-bad" || option.flag == "--start" ||
                             option.flag == "--limit" || option.flag == "--map";
    if (replay_only)
      EXPECT_THAT(info, Not(HasSubstr(std::string(option.flag) + " "))) << option.flag;
    else
      EXPECT_THAT(info, HasSubstr(option.help)) << option.flag;
  }
}

TEST_F(TraceOptionsTest, AFileWithACommaInItsNameTakesNoKeys) {
  const auto trace = Write("a,b.csv", Filetime(0) + ",h,0,Write,0,4096,1\n");
  std::string path;
  trace_options_of("trace:" + trace.string(), TraceOptions{}, path);
  EXPECT_EQ(path, trace.string());
}

// The first case: MSR, MQSim (microseconds) and blkparse traces in one
// run, each read in its own format.
TEST_F(TraceOptionsTest, ThreeFormatsReplayTogether) {
  const auto msr = Write("msr.csv", Filetime(0) + ",h,0,Write,0,4096,1\n" + Filetime(50) +
                                        ",h,0,Read,0,4096,1\n" + Filetime(80) +
                                        ",h,0,Write,8192,4096,1\n");
  const auto mqsim = Write("mq.txt", "0 0 1024 8 0\n100 0 1032 8 1\n200 0 1024 8 0\n");
  const auto blk = Write("blk.txt",
                         "  8,16   1        1     0.000000000  42  D   W 4096 + 8 [db]\n"
                         "  8,16   1        2     0.000300000  42  D   R 4096 + 8 [db]\n");
  // One --format for all cannot read them all.
  const auto global = Sim("--format mqsim " + Trace(msr) + " " + Trace(mqsim), "global");
  EXPECT_EQ(global.exit_code, 1) << global.output;

  const auto result = Sim(Trace(msr, ",format=msr") + " " +
                          Trace(mqsim, ",format=mqsim,time_unit=us") + " " +
                          Trace(blk, ",format=blkparse"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto summary = Summary();
  ASSERT_EQ(summary["experiments"].size(), 3u);
  EXPECT_EQ(summary["experiments"][0]["trace"]["format"], "msr");
  EXPECT_EQ(summary["experiments"][1]["trace"]["format"], "mqsim");
  EXPECT_EQ(summary["experiments"][2]["trace"]["format"], "blkparse");
  EXPECT_EQ(summary["experiments"][0]["trace"]["format_detected"], false);
  const auto rows = Rows();
  ASSERT_EQ(rows.at("msr").size(), 3u);
  ASSERT_EQ(rows.at("mq").size(), 3u);
  ASSERT_EQ(rows.at("blk").size(), 2u);
  // MQSim times in microseconds: arrivals at 0, 100 and 200 us.
  EXPECT_EQ(rows.at("mq")[1].second, "100.000");
  EXPECT_EQ(rows.at("mq")[2].second, "200.000");
  EXPECT_EQ(rows.at("mq")[0].first, 1024u * 512);
  EXPECT_EQ(rows.at("blk")[1].second, "300.000");
}

TEST_F(TraceOptionsTest, SpeedPerTrace) {
  const auto a = Write("a.txt", "0 0 0 8 0\n1000000 0 8 8 0\n");
  const auto b = Write("b.txt", "0 0 64 8 0\n1000000 0 72 8 0\n");
  const auto result =
      Sim("--format mqsim " + Trace(a) + " " + Trace(b, ",speed=4"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto rows = Rows();
  EXPECT_EQ(rows.at("a")[1].second, "1000.000");
  EXPECT_EQ(rows.at("b")[1].second, "250.000");
  EXPECT_EQ(Summary()["experiments"][1]["trace"]["speed"], 4.0);
}

// MQSim nanosecond times read as DiskSim milliseconds: a 63-year trace.
TEST_F(TraceOptionsTest, ImplausibleTimeSpanIsAWarningOnTheConsole) {
  const auto trace = Write("t.txt", "0 0 0 8 0\n2000000000000 0 8 8 1\n");
  const auto wrong = Sim("--format disksim " + Trace(trace), "wrong");
  ASSERT_EQ(wrong.exit_code, 0) << wrong.output;
  EXPECT_THAT(wrong.output, HasSubstr("warning: time span"));
  EXPECT_THAT(wrong.output, HasSubstr("implausibly long"));
  EXPECT_EQ(Summary("wrong")["experiments"][0]["trace"]["warnings"].size(), 1u);
  const auto right = Sim("--format mqsim " + Trace(trace), "right");
  ASSERT_EQ(right.exit_code, 0) << right.output;
  EXPECT_THAT(right.output, Not(HasSubstr("warning:")));
}

// The TPC-C case: an MQSim trace of 0.14 s read as DiskSim lasts 39 hours,
// under the year's warning; its whole-number times give it away.
TEST_F(TraceOptionsTest, MqsimTimesReadAsDisksimAreWarned) {
  const auto trace = Write("tpcc.txt", "0 0 0 8 0\n70000000 0 8 8 1\n140000000 0 16 8 0\n");
  const auto result = Sim(Trace(trace, ",format=disksim"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("warning: every time is a whole number"));
  EXPECT_THAT(result.output, HasSubstr("read as DiskSim ms the trace spans 140000.000 s"));
  EXPECT_THAT(result.output, HasSubstr("as MQSim ns it would span 140.000 ms"));
}

TEST_F(TraceOptionsTest, ConsoleCountsRemappedSkippedAndWidened) {
  std::string text;
  // 2 before --start; then one beyond the device (wrapped), one unaligned.
  text += Filetime(0) + ",h,0,Write,0,4096,1\n";
  text += Filetime(1) + ",h,0,Write,4096,4096,1\n";
  text += Filetime(2) + ",h,0,Write,1099511627776,4096,1\n";  // 1 TiB
  text += Filetime(3) + ",h,0,Write,1000,100,1\n";
  text += Filetime(4) + ",h,0,Read,8192,4096,1\n";
  const auto trace = Write("t.csv", text);
  const auto result = Sim("--start 2 " + Trace(trace));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("3 requests replayed"));
  EXPECT_THAT(result.output, HasSubstr("2 skipped before --start"));
  EXPECT_THAT(result.output, HasSubstr("1 widened to whole sectors"));
  EXPECT_THAT(result.output, HasSubstr("1 remapped (--map modulo: wrapped)"));
}

// SPC: ASU 0 and ASU 1 each write their block 8.
class TraceDevices : public TraceOptionsTest {
 protected:
  fs::path TwoAsus() {
    return Write("fin.spc", "0,8,4096,W,0.000000\n1,8,4096,W,0.000100\n1,0,8192,W,0.000200\n");
  }
};

TEST_F(TraceDevices, UnchosenSharingIsWarnedLoudly) {
  const auto result = Sim(Trace(TwoAsus()));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("warning: 2 devices (0, 1) share one address space"));
  EXPECT_EQ(Summary()["experiments"][0]["trace"]["devices"], "auto");
  const auto rows = Rows().at("fin");
  EXPECT_EQ(rows[0].first, rows[1].first);  // the same page: what the warning says
}

TEST_F(TraceDevices, SharedByChoiceIsQuiet) {
  const auto result = Sim(Trace(TwoAsus(), ",devices=shared"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, Not(HasSubstr("share one address space")));
}

TEST_F(TraceDevices, SideBySideGivesEachDeviceItsOwnRange) {
  const auto result = Sim("--devices side-by-side " + Trace(TwoAsus()));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, Not(HasSubstr("warning:")));
  const auto rows = Rows().at("fin");
  ASSERT_EQ(rows.size(), 3u);
  // ASU 0 spans 8*512+4096 = 8192 bytes, two 4 KiB pages: ASU 1 starts there.
  EXPECT_EQ(rows[0].first, 8u * 512);
  EXPECT_EQ(rows[1].first, 8192u + 8 * 512);
  EXPECT_EQ(rows[2].first, 8192u);
  EXPECT_EQ(Summary()["experiments"][0]["trace"]["device_bases"]["1"], 8192);
}

TEST_F(TraceDevices, BlkparseDevicesAreNamedMajorMinor) {
  const auto trace = Write("two.blk",
                           "  8,16   1        1     0.000000000  42  D   W 4096 + 8 [db]\n"
                           "  8,32   1        2     0.000300000  42  D   W 4096 + 8 [db]\n");
  const auto result = Sim(Trace(trace, ",format=blkparse"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("2 devices (8,16, 8,32) share one address space"));
}

TEST_F(TraceDevices, OneDeviceNeedsASelection) {
  const auto refused = Sim(Trace(TwoAsus(), ",devices=one"), "refused");
  EXPECT_EQ(refused.exit_code, 1) << refused.output;
  EXPECT_THAT(refused.output, HasSubstr("several devices (0, 1); choose one with --trace-device"));
  const auto chosen = Sim(Trace(TwoAsus(), ",device=1"), "chosen");
  ASSERT_EQ(chosen.exit_code, 0) << chosen.output;
  EXPECT_THAT(chosen.output, HasSubstr("2 requests replayed"));
  EXPECT_THAT(chosen.output, HasSubstr("1 on other devices"));
  const auto both = Sim(Trace(TwoAsus(), ",device=1,devices=shared"), "both");
  EXPECT_EQ(both.exit_code, 1) << both.output;
}

TEST(SideBySide, BasesFollowTheSpansInDeviceOrderInWholeUnits) {
  std::uint64_t total = 0;
  const auto bases = traces::side_by_side_bases({{7, 5000}, {2, 4096}, {9, 1}}, 4096, total);
  EXPECT_EQ(bases.at(2), 0u);
  EXPECT_EQ(bases.at(7), 4096u);
  EXPECT_EQ(bases.at(9), 4096u + 8192);
  EXPECT_EQ(total, 4096u + 8192 + 4096);
}

TEST(SideBySide, SelectionMovesEachDeviceToItsBaseBeforeTheMap) {
  support::VectorReader reader({{0, 512, 512, IoMode::kWrite, 0},
                                {1, 512, 512, IoMode::kWrite, 1},
                                {2, 512, 512, IoMode::kWrite, 5}});  // device 5: no base
  traces::Placement placement;
  placement.device_base = {{0, 0}, {1, 8192}};
  traces::Selection selection(reader, traces::ReadOptions{}, 1 << 20, 512, placement);
  EXPECT_EQ(selection.next()->offset, 512u);
  EXPECT_EQ(selection.next()->offset, 8192u + 512);
  EXPECT_EQ(selection.next()->offset, 512u);
  EXPECT_EQ(selection.counts().remapped, 0u);  // moving a device is not wrapping
}

TEST_F(TraceOptionsTest, StandardInputIsATrace) {
  const auto trace = Write("t.txt", "0 0 0 8 0\n1000 0 8 8 1\n2000 0 16 8 0\n");
  const auto result = support::run_shell(
      std::string(SSDLAB_BINARY) + " sim -c " + support::shell_quote(support::preset("tiny")) +
      " -o " + support::shell_quote(dir_ / "out") +
      " --map scale -w 'trace:-,format=mqsim' < " + support::shell_quote(trace));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("3 requests replayed"));
  const auto summary = Summary();
  EXPECT_EQ(summary["experiments"][0]["name"], "stdin");
  EXPECT_EQ(summary["experiments"][0]["trace"]["file"], "-");
  EXPECT_EQ(summary["experiments"][0]["trace"]["trace_span_bytes"], 24 * 512);
  // Twice is refused: standard input is read once.
  const auto twice = support::run_shell(
      std::string(SSDLAB_BINARY) + " sim -c " + support::shell_quote(support::preset("tiny")) +
      " -o " + support::shell_quote(dir_ / "twice") +
      " --format mqsim -w trace:- -w trace:- < " + support::shell_quote(trace));
  EXPECT_EQ(twice.exit_code, 1) << twice.output;
  EXPECT_THAT(twice.output, HasSubstr("only one trace may be '-'"));
}

TEST_F(TraceOptionsTest, TraceInfoReadsStandardInput) {
  const auto trace = Write("t.txt", "0 0 0 8 0\n1000 0 8 8 1\n2000 0 16 8 0\n");
  const auto result = support::run_shell(std::string(SSDLAB_BINARY) +
                                         " trace-info - --format mqsim < " +
                                         support::shell_quote(trace));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("trace-info: -\n"));
  EXPECT_THAT(result.output, HasSubstr("3 requests"));
}

TEST_F(TraceOptionsTest, BlkparseWithoutTheChosenEventsSaysSo) {
  const auto trace = Write("d.txt",
                           "  8,16   1        1     0.000000000  42  D   W 4096 + 8 [db]\n"
                           "  8,16   1        2     0.000300000  42  D   R 4096 + 8 [db]\n");
  const auto result = Sim("--blk-event Q " + Trace(trace, ",format=blkparse"));
  EXPECT_EQ(result.exit_code, 1) << result.output;
  EXPECT_THAT(result.output, HasSubstr("the trace has no Q events"));
  EXPECT_THAT(result.output, HasSubstr("try D"));
}

TEST_F(TraceOptionsTest, TraceInfoOnAnIologWithoutWaitsSaysThereIsNoTiming) {
  std::string text = "fio version 2 iolog\n/dev/x add\n/dev/x open\n";
  for (int k = 0; k < 5; ++k) text += "/dev/x write " + std::to_string(k * 4096) + " 4096\n";
  text += "/dev/x close\n";
  const auto trace = Write("t.iolog", text);
  const auto result = support::run_ssdlab("trace-info " + support::shell_quote(trace));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, Not(HasSubstr("0.0 requests/s")));
  EXPECT_THAT(result.output, HasSubstr("no timing"));
  EXPECT_THAT(result.output, HasSubstr("--mode closed"));
  EXPECT_THAT(result.output, Not(HasSubstr("implausibly short")));
}

TEST_F(TraceOptionsTest, ReplayPrintsCpuTime) {
  const auto trace = Write("t.txt", "0 0 0 8 0\n1000 0 8 8 1\n");
  const auto result = Sim("--format mqsim " + Trace(trace));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("of CPU time"));
}

}  // namespace
}  // namespace ssdlab::sim
