#include "common/fast_div.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>

#include "common/rng.h"
#include "flash/geometry.h"

namespace ssdlab {
namespace {

void expect_divides(std::uint32_t divisor, std::uint32_t n) {
  const FastDiv fast(divisor);
  ASSERT_EQ(fast.quotient(n), n / divisor) << n << " / " << divisor;
  ASSERT_EQ(fast.remainder(n), n % divisor) << n << " % " << divisor;
}

TEST(FastDiv, AgreesWithDivisionAtTheEdges) {
  constexpr std::uint32_t kMax = ~std::uint32_t{0};
  const std::array<std::uint32_t, 14> divisors = {
      1, 2, 3, 7, 64, 100, 2048, 524288, 1000003, 1u << 31, (1u << 31) + 1, kMax - 1, kMax, 6};
  for (const std::uint32_t d : divisors)
    for (const std::uint32_t n : {0u, 1u, d - 1, d, d + 1, 2 * d - 1, 2 * d, kMax - 1, kMax,
                                  kMax / d * d, kMax / d * d - 1})
      expect_divides(d, n);
}

TEST(FastDiv, AgreesWithDivisionOnRandomOperands) {
  Rng rng(42);
  for (int i = 0; i < 200000; ++i) {
    // Divisors of every size: a random bit width, then a random value in it.
    const auto bits = static_cast<unsigned>(rng.uniform(32)) + 1;
    const auto d = static_cast<std::uint32_t>(rng.next() >> (64 - bits));
    expect_divides(d == 0 ? 1 : d, static_cast<std::uint32_t>(rng.next()));
  }
}

// FastGeometry decodes every address as Geometry does, here on a geometry
// whose dimensions are not powers of two.
TEST(FastGeometry, DecodesEveryPageAsGeometryDoes) {
  flash::Geometry g;
  g.channels = 3;
  g.packages_per_channel = 2;
  g.dies_per_package = 3;
  g.planes_per_die = 2;
  g.blocks_per_plane = 5;
  g.pages_per_block = 7;
  const flash::FastGeometry fast(g);
  for (flash::Ppn ppn = 0; ppn < g.pages(); ++ppn) {
    ASSERT_EQ(fast.block_of(ppn), g.block_of(ppn));
    ASSERT_EQ(fast.page_in_block(ppn), g.page_in_block(ppn));
    ASSERT_EQ(fast.plane_of(ppn), g.plane_of(ppn));
    ASSERT_EQ(fast.die_of(ppn), g.die_of(ppn));
    const std::uint32_t plane = g.plane_of(ppn), die = g.die_of(ppn);
    ASSERT_EQ(fast.plane_of_block(g.block_of(ppn)), plane);
    ASSERT_EQ(fast.die_of_plane(plane), die);
    ASSERT_EQ(fast.plane_in_die(plane), g.plane_in_die(plane));
    ASSERT_EQ(fast.package_of_die(die), g.package_of_die(die));
    ASSERT_EQ(fast.channel_of_die(die), g.channel_of_die(die));
  }
  // Nested quotients equal the single ones Geometry now takes.
  for (flash::Ppn ppn = 0; ppn < g.pages(); ++ppn)
    ASSERT_EQ(g.die_of(ppn), g.die_of_plane(g.plane_of_block(g.block_of(ppn))));
}

}  // namespace
}  // namespace ssdlab
