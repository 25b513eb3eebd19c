// `ssdlab trace-info`: the profile of a trace (counts, mix, sizes, span,
// addresses, footprint) exact on a hand-written trace, the footprint's
// estimate when its bitmap would grow too large, and the warnings that wrong
// units leave behind, as a library and as a real process.
#include "sim/run/trace_info.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "run_support.h"
#include "test_support.h"
#include "trace_support.h"
#include "traces/profile.h"

namespace ssdlab::traces {
namespace {

namespace fs = std::filesystem;
namespace support = ssdlab::testing;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

// Five SPC requests (LBA in 512 B sectors, size in bytes, seconds); the fourth
// is earlier than the third, the third is on ASU 1.
constexpr const char* kSmallSpc =
    "0,0,4096,W,0.000000\n"
    "0,8,8192,R,0.001000\n"
    "1,16,512,W,0.002500\n"
    "0,100,4096,R,0.002000\n"
    "0,3,4096,W,0.004000\n";

TEST(TraceProfile, CountsAHandWrittenTraceExactly) {
  const auto dir = support::temp_dir_for_this_test("profile-");
  TraceProfile profile;
  for (const auto& record : support::read_all(support::write_file(dir / "t.spc", kSmallSpc), "spc"))
    profile.add(record);
  EXPECT_EQ(profile.requests, 5u);
  EXPECT_EQ(profile.reads, 2u);
  EXPECT_EQ(profile.writes, 3u);
  EXPECT_EQ(profile.read_bytes, 8192u + 4096u);
  EXPECT_EQ(profile.write_bytes, 4096u + 512u + 4096u);
  EXPECT_EQ(profile.span_ns(), 4000000);
  EXPECT_EQ(profile.decreasing, 1u);
  EXPECT_DOUBLE_EQ(profile.requests_per_second(), 1000.0);  // 4 gaps in 4 ms
  SizeHistogram sizes{};
  sizes[9] = 1;   // 512 B
  sizes[12] = 3;  // 4 KiB
  sizes[13] = 1;  // 8 KiB
  EXPECT_EQ(profile.sizes, sizes);
  EXPECT_EQ(profile.min_offset, 0u);
  EXPECT_EQ(profile.max_end, 100u * 512 + 4096);
  // Pages {0}, {1, 2}, {2}, {12, 13}, {0, 1}.
  EXPECT_EQ(profile.footprint.pages(), 5u);
  EXPECT_TRUE(profile.footprint.exact());
  EXPECT_EQ(profile.unaligned_512, 0u);
  EXPECT_EQ(profile.unaligned_4096, 3u);  // 8192+512, 51200+4096, 1536+4096
  EXPECT_THAT(profile_warnings(profile, "spc", std::nullopt), IsEmpty());
}

TEST(PageFootprint, CountsOverlappingRangesOnce) {
  PageFootprint footprint;
  footprint.add(10, 19);
  footprint.add(15, 24);
  footprint.add(4096 * 7, 4096 * 7);  // another chunk
  EXPECT_EQ(footprint.pages(), 16u);
  EXPECT_TRUE(footprint.exact());
}

TEST(PageFootprint, EstimatesWithinItsErrorOnceTheBitmapWouldGrowTooLarge) {
  PageFootprint footprint(/*max_chunks=*/4);
  const std::uint64_t pages = 200000;
  for (std::uint64_t i = 0; i < pages; ++i) footprint.add(i * 37, i * 37);     // ~1800 chunks
  for (std::uint64_t i = 0; i < pages; i += 2) footprint.add(i * 37, i * 37);  // repeats
  EXPECT_FALSE(footprint.exact());
  const double error = std::abs(static_cast<double>(footprint.pages()) - pages) / pages;
  EXPECT_LT(error, 3 * PageFootprint::kEstimateError) << footprint.pages();
}

TraceProfile Uniform(std::uint64_t requests, std::int64_t gap_ns, std::uint32_t size) {
  TraceProfile profile;
  for (std::uint64_t i = 0; i < requests; ++i)
    profile.add(TraceRecord{static_cast<std::int64_t>(i) * gap_ns, i * 4096, size, IoMode::kWrite, 0});
  return profile;
}

TEST(ProfileWarnings, ShortSpanAndImpossibleRateNameTheFormatsTimeUnit) {
  const auto warnings = profile_warnings(Uniform(2000, 50, 4096), "msr", std::nullopt);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_THAT(warnings[0],
              AllOf(HasSubstr("implausibly short"), HasSubstr("Windows filetime ticks (100 ns)")));
  EXPECT_THAT(warnings[1], HasSubstr("arrival rate 2e+07 requests/s"));
  // Plausible: 2000 requests 100 us apart.
  EXPECT_THAT(profile_warnings(Uniform(2000, 100000, 4096), "msr", std::nullopt), IsEmpty());
}

TEST(ProfileWarnings, SpanOverAYear) {
  const auto warnings =
      profile_warnings(Uniform(3, 200LL * 24 * 3600 * 1000000000, 4096), "disksim", std::nullopt);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_THAT(warnings[0], AllOf(HasSubstr("400.0 days"), HasSubstr("milliseconds")));
}

TEST(ProfileWarnings, SizesNotInBytes) {
  const auto warnings = profile_warnings(Uniform(10, 1000000, 8), "spc", std::nullopt);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_THAT(warnings[0], HasSubstr("10 of 10 request sizes (100 %) are not multiples of 512"));
}

TEST(ProfileWarnings, AddressesBeyondTheDeviceSayWhichMapFits) {
  const auto profile = Uniform(10, 1000000, 4096);  // ends at 40960
  EXPECT_THAT(profile_warnings(profile, "spc", 40960), IsEmpty());
  const auto warnings = profile_warnings(profile, "spc", 20480);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_THAT(warnings[0], AllOf(HasSubstr("addresses reach 40960 B"), HasSubstr("--map scale"),
                                 HasSubstr("x 0.5")));
}

// `ssdlab trace-info` through the library (sim::run_trace_info): its report,
// its JSON and its errors.
class TraceInfoCli : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = support::temp_dir_for_this_test("trace-info-"); }
  support::CommandResult Info(const std::string& trace, sim::TraceInfoOptions options = {}) {
    options.path = trace;
    return support::in_process([&](std::ostream& out) { sim::run_trace_info(options, out); });
  }
  static std::string Example(const std::string& name) {
    return std::string(SSDLAB_SOURCE_DIR) + "/traces/examples/" + name;
  }
  fs::path dir_;
};

TEST_F(TraceInfoCli, ReportsTheExampleTrace) {
  const auto result = Info(Example("synthetic.csv"));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("format        msr (detected: its reader takes 20 of the "
                                       "first 20 lines"));
  EXPECT_THAT(result.output, HasSubstr("lines         201: 200 requests, 1 skipped, 0 bad"));
  EXPECT_THAT(result.output, HasSubstr("footprint     533 pages of 4 KiB"));
  EXPECT_THAT(result.output, HasSubstr("exact (bitmap)"));
  EXPECT_THAT(result.output, HasSubstr("no warnings"));
  // The same trace in another format gives the same profile.
  const auto spc = Info(Example("synthetic.spc"));
  ASSERT_EQ(spc.exit_code, 0) << spc.output;
  for (const char* line : {"reads         82 (41.0 %), 704 KiB", "writes        118 (59.0 %)",
                           "4 KiB ..< 8 KiB             96   48.0 %"}) {
    EXPECT_THAT(result.output, HasSubstr(line));
    EXPECT_THAT(spc.output, HasSubstr(line));
  }
}

TEST_F(TraceInfoCli, AnIoCsvIsKnownByItsHeaderAndListsItsProcesses) {
  const fs::path trace = support::write_file(
      dir_ / "io.csv",
      "experiment,run,process,io,submit_us,rt_us,mode,offset,size\n"
      "a,0,1,0,0.000,10.000,W,0,4096\na,0,0,0,0.000,12.000,R,4096,4096\n"
      "a,0,1,1,10.000,10.000,W,8192,4096\n");
  const auto result = Info(trace.string());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("format        ssdlab (detected: its header)"));
  EXPECT_THAT(result.output, HasSubstr("processes     0: 1, 1: 2"));
  EXPECT_THAT(result.output, Not(HasSubstr("devices ")));
}

TEST_F(TraceInfoCli, JsonIsValidAndExact) {
  const fs::path trace = support::write_file(dir_ / "small.spc", kSmallSpc);
  const fs::path json = dir_ / "info.json";
  sim::TraceInfoOptions options;
  options.json = json.string();
  const auto result = Info(trace.string(), options);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto info = nlohmann::json::parse(support::read_file(json));
  EXPECT_EQ(info["format"], "spc");
  EXPECT_EQ(info["format_detected"], true);
  EXPECT_EQ(info["detection"]["scores"]["spc"], 5);
  EXPECT_EQ(info["requests"], 5);
  EXPECT_EQ(info["span_ns"], 4000000);
  EXPECT_EQ(info["decreasing_timestamps"], 1);
  EXPECT_EQ(info["reads"]["requests"], 2);
  EXPECT_EQ(info["writes"]["bytes"], 8704);
  EXPECT_EQ(info["size_histogram"],
            nlohmann::json::parse(R"([{"from_bytes":512,"below_bytes":1024,"requests":1},
                                      {"from_bytes":4096,"below_bytes":8192,"requests":3},
                                      {"from_bytes":8192,"below_bytes":16384,"requests":1}])"));
  EXPECT_EQ(info["devices"], nlohmann::json::parse(R"([{"device":"0","requests":4},
                                                        {"device":"1","requests":1}])"));
  EXPECT_EQ(info["max_end"], 55296);
  EXPECT_EQ(info["footprint"]["pages"], 5);
  EXPECT_EQ(info["footprint"]["method"], "exact bitmap");
  EXPECT_EQ(info["warnings"], nlohmann::json::array());
}

TEST_F(TraceInfoCli, TraceDeviceSelectsOneDisk) {
  const fs::path trace = support::write_file(dir_ / "small.spc", kSmallSpc);
  sim::TraceInfoOptions options;
  options.read.device = 1;
  const auto result = Info(trace.string(), options);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("selected      device 1: 1 requests (4 on other devices)"));
}

TEST_F(TraceInfoCli, WarnsAboutMsrTimestampsInSeconds) {
  // An MSR trace whose Timestamp column holds Unix seconds instead of filetime
  // ticks: 2000 requests over 2 s read as 2 ticks (200 ns).
  std::string text;
  for (int i = 0; i < 2000; ++i)
    text += fmt::format("{},web,0,Write,{},4096,10\n", 1700000000 + i / 1000, i * 4096);
  const fs::path trace = support::write_file(dir_ / "seconds.csv", text);
  const auto result = Info(trace.string());
  EXPECT_EQ(result.exit_code, 0) << result.output;  // warnings are not errors
  EXPECT_THAT(result.output, HasSubstr("time span     0.000000 s"));
  EXPECT_THAT(result.output,
              HasSubstr("warning: time span 100 ns for 2000 requests is implausibly short: msr "
                        "times are read as Windows filetime ticks (100 ns)"));
  EXPECT_THAT(result.output, HasSubstr("warning: implied arrival rate"));
}

TEST_F(TraceInfoCli, WarnsAboutAddressesBeyondTheConfiguredDevice) {
  sim::TraceInfoOptions options;
  options.config = support::preset("tiny");
  const auto result = Info(Example("web-server.csv.gz"), options);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("compression   gzip"));
  EXPECT_THAT(result.output, HasSubstr("warning: addresses reach 21472309248 B (20.00 GiB), beyond "
                                       "the simulated device's"));
  EXPECT_THAT(result.output, HasSubstr("--map scale fits the trace into it"));
  EXPECT_THAT(Info(Example("web-server.csv.gz")).output, Not(HasSubstr("beyond the simulated")));
}

TEST_F(TraceInfoCli, ZeroSizeErrorCountsZeroSizeRequestsAsBadLines) {
  const fs::path trace =
      support::write_file(dir_ / "zero.spc", "0,8,4096,W,0.1\n0,16,0,W,0.2\n0,24,512,R,0.3\n");
  EXPECT_THAT(Info(trace.string()).output,
              HasSubstr("3: 2 requests, 0 skipped, 0 bad, 1 zero-size"));
  sim::TraceInfoOptions options;
  options.read.zero_size_is_bad = true;  // --zero-size error
  const auto result = Info(trace.string(), options);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_THAT(result.output, HasSubstr("3: 2 requests, 0 skipped, 1 bad, 0 zero-size"));
  EXPECT_THAT(result.output, HasSubstr("zero.spc:2: zero-size request"));
}

TEST_F(TraceInfoCli, UnreadableOrUndetectableIsOneLineAndExitOne) {
  auto result = Info((dir_ / "nope.csv").string());
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.output, "ssdlab: " + (dir_ / "nope.csv").string() + ": no such trace file\n");
  result = Info(support::write_file(dir_ / "junk.txt", "hello\nworld\n").string());
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.output, HasSubstr("cannot tell the trace format"));
  EXPECT_EQ(std::count(result.output.begin(), result.output.end(), '\n'), 1);
}

}  // namespace
}  // namespace ssdlab::traces
