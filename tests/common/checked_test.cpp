// Checked time and address arithmetic (common/checked.h) and the escaping of
// input bytes in messages (common/printable.h).
#include "common/checked.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "common/printable.h"

namespace ssdlab {
namespace {

TEST(Checked, AddAndMultiplyReportOverflowInsteadOfWrapping) {
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  EXPECT_EQ(checked_add<std::uint64_t>(kMax - 4096, 4096), kMax);
  EXPECT_FALSE(checked_add<std::uint64_t>(kMax - 4095, 4096));  // ends at byte 2^64
  EXPECT_EQ(checked_mul<std::uint64_t>(1 << 20, 1 << 20), std::uint64_t{1} << 40);
  EXPECT_FALSE(checked_mul<std::uint64_t>(std::uint64_t{1} << 32, std::uint64_t{1} << 32));
  EXPECT_FALSE(checked_add<std::int64_t>(std::numeric_limits<std::int64_t>::max(), 1));
}

TEST(Checked, ClockSumsStopAtTheClocksBound) {
  EXPECT_EQ(clock_add(kClockLimitNs - 5, 5), kClockLimitNs);
  EXPECT_FALSE(clock_add(kClockLimitNs - 5, 6));
  EXPECT_FALSE(clock_add(std::numeric_limits<TimeNs>::max(), 1));  // no signed overflow
  EXPECT_FALSE(clock_add(-1, 1));
  EXPECT_EQ(clock_mul(9999, 1000), 9999000);
  // pause_us=1e12 (1e15 ns) 9999 times: past 2^62 ns, and past 2^63 too.
  EXPECT_FALSE(clock_mul(9999, 1'000'000'000'000'000));
  EXPECT_FALSE(clock_mul(std::uint64_t{1} << 40, std::int64_t{1} << 40));
  EXPECT_EQ(clock_mul(0, kClockLimitNs), 0);
}

TEST(Checked, MicrosecondsConvertWithinTheClockOnly) {
  EXPECT_EQ(us_to_ns(0.5), 500);
  EXPECT_EQ(us_to_ns(1.0005), 1001);  // rounded to the nearest, as llround
  EXPECT_EQ(us_to_ns(1e12), 1'000'000'000'000'000);
  EXPECT_FALSE(us_to_ns(1e18));  // llround(1e21) would be undefined
  EXPECT_FALSE(us_to_ns(-1));
  EXPECT_FALSE(us_to_ns(std::numeric_limits<double>::infinity()));
  EXPECT_FALSE(us_to_ns(std::numeric_limits<double>::quiet_NaN()));
  EXPECT_FALSE(to_clock_ns(static_cast<double>(kClockLimitNs) * 2));
}

TEST(Printable, EscapesControlBytesAndKeepsTextAndUtf8) {
  EXPECT_EQ(printable("Type 'Erase'\tnext\nline"), "Type 'Erase'\tnext\nline");
  EXPECT_EQ(printable(std::string("Wr\0ite", 6)), "Wr\\x00ite");
  EXPECT_EQ(printable("\x1b[31mWrite\x7f"), "\\x1b[31mWrite\\x7f");
  EXPECT_EQ(printable("caf\xc3\xa9 \xe2\x82\xac"), "caf\xc3\xa9 \xe2\x82\xac");  // UTF-8 stays
  EXPECT_EQ(printable(std::string("\x9b") + "2J \xc3"), "\\x9b2J \\xc3");        // not UTF-8
  EXPECT_EQ(printable("\xc2\x9b"), "\\xc2\\x9b");  // a C1 control (CSI)
}

}  // namespace
}  // namespace ssdlab
