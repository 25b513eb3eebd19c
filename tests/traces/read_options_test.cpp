// traces::ReadOptions set by name, as the command line and -w trace:FILE,key=value do.
#include "traces/read_options.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "common/error.h"
#include "traces/formats.h"
#include "traces/parsers.h"

namespace ssdlab::traces {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

void Set(ReadOptions& options, std::string_view key, std::string_view value) {
  const ReadOptionKey* option = find_read_option(key);
  ASSERT_NE(option, nullptr) << key;
  set_read_option(options, *option, value);
}

std::string ErrorOf(std::string_view key, std::string_view value) {
  ReadOptions options;
  try {
    set_read_option(options, *find_read_option(key), value);
  } catch (const ssdlab::Error& error) {
    return error.what();
  }
  return "no error";
}

TEST(ReadOptions, EachKeySetsItsFieldAndIsRecordedAsItsFlag) {
  ReadOptions options;
  Set(options, "format", "mqsim");
  Set(options, "time_unit", "ms");
  Set(options, "device", "8,32");
  Set(options, "map", "scale");
  Set(options, "blk_event", "Q");
  Set(options, "start", "1.5s");
  Set(options, "zero_size", "error");
  Set(options, "limit", "7");
  EXPECT_EQ(options.format, "mqsim");
  EXPECT_EQ(options.time_unit_ns, 1000000);
  EXPECT_EQ(options.device, blkparse_device(8, 32));
  EXPECT_EQ(options.map, AddressMap::kScale);
  EXPECT_EQ(options.blk_event, 'Q');
  EXPECT_EQ(options.start_ns, 1500000000);
  EXPECT_TRUE(options.zero_size_is_bad);
  EXPECT_EQ(options.limit, 7u);
  EXPECT_THAT(options.given, ElementsAre("--format", "--time-unit", "--trace-device", "--map",
                                         "--blk-event", "--start", "--zero-size", "--limit"));
  Set(options, "start", "12");  // a count replaces a time
  EXPECT_EQ(options.start_requests, 12u);
  EXPECT_FALSE(options.start_ns);
  EXPECT_EQ(options.given.size(), 8u);  // each flag once
}

TEST(ReadOptions, BadValuesNameTheFlagAndWhatItExpects) {
  EXPECT_EQ(ErrorOf("time_unit", "h"), "--time-unit 'h': expected ns, us, ms or s");
  EXPECT_EQ(ErrorOf("device", "x"), "--trace-device 'x': expected a number or MAJ,MIN");
  EXPECT_EQ(ErrorOf("map", "fold"), "--map 'fold': expected modulo or scale");
  EXPECT_EQ(ErrorOf("blk_event", "X"), "--blk-event 'X': expected D (issue) or Q (queue)");
  EXPECT_EQ(ErrorOf("zero_size", "drop"), "--zero-size 'drop': expected skip or error");
  EXPECT_EQ(ErrorOf("limit", "0"), "--limit '0': expected a positive request count");
  EXPECT_EQ(ErrorOf("start", "soon"),
            "--start 'soon': expected a request count or a time such as 10s, 500ms");
  EXPECT_EQ(ErrorOf("format", "csv"),
            "--format: unknown trace format 'csv' (known: auto, " + format_names() + ")");
  EXPECT_EQ(ErrorOf("format", "auto"), "no error");
}

TEST(ReadOptions, FormatHelpListsEveryFormatFromTheTable) {
  const ReadOptionKey* format = find_read_option("format");
  ASSERT_NE(format, nullptr);
  for (const auto& info : formats()) EXPECT_THAT(format->help, HasSubstr(info.name));
  EXPECT_EQ(find_read_option("skip_bad"), nullptr);  // a command-line flag only
  EXPECT_EQ(find_read_option("colour"), nullptr);
}

}  // namespace
}  // namespace ssdlab::traces
