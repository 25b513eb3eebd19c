#include "common/units.h"

#include <gtest/gtest.h>

#include "common/rng.h"

namespace ssdlab {
namespace {

TEST(Units, ParsesSizesWithBinaryUnitsAsFioDoes) {
  EXPECT_EQ(parse_size("4096"), 4096u);
  EXPECT_EQ(parse_size("32KiB"), 32768u);
  EXPECT_EQ(parse_size("1GiB"), 1073741824u);
  EXPECT_EQ(parse_size("1.5 MiB"), 1572864u);
  EXPECT_EQ(parse_size("4k"), 4096u);
  // fio's default kb_base=1024: KB is KiB, MB is MiB.
  EXPECT_EQ(parse_size("4KB"), 4096u);
  EXPECT_EQ(parse_size("4kB"), 4096u);
  EXPECT_EQ(parse_size("1MB"), 1048576u);
  EXPECT_EQ(parse_size("2GB"), 2147483648u);
  EXPECT_EQ(parse_size("1TB"), 1099511627776u);
  EXPECT_FALSE(parse_size("abc"));
  EXPECT_FALSE(parse_size("-1"));
  EXPECT_FALSE(parse_size("4 KiBs"));
  EXPECT_FALSE(parse_size("0.3"));
  EXPECT_FALSE(parse_size(""));
}

TEST(Units, FormatsMicrosecondsWithExactlyThreeDecimals) {
  EXPECT_EQ(format_us(130600), "130.600");
  EXPECT_EQ(format_us(1), "0.001");
  EXPECT_EQ(format_us(0), "0.000");
  EXPECT_EQ(format_us(12345678901), "12345678.901");
}

TEST(Rng, SameSeedSameStreamAndUniformStaysInBounds) {
  Rng a(7), b(7), c(8);
  bool differs = false;
  for (int i = 0; i < 1000; ++i) {
    const auto x = a.uniform(10);
    EXPECT_EQ(x, b.uniform(10));
    EXPECT_LT(x, 10u);
    differs = differs || x != c.uniform(10);
  }
  EXPECT_TRUE(differs);
}

TEST(Rng, UniformIsRoughlyUniform) {
  Rng rng(1);
  int counts[4] = {};
  for (int i = 0; i < 40000; ++i) ++counts[rng.uniform(4)];
  for (int count : counts) EXPECT_NEAR(count, 10000, 400);
}

}  // namespace
}  // namespace ssdlab
