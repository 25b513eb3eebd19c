// HugeVector: large tables are 2 MiB aligned (so the kernel can back them
// with huge pages) and behave as plain vectors.
#include "common/huge_pages.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>

namespace ssdlab {
namespace {

TEST(HugeVector, LargeTablesAreAlignedToHugePagesAndKeepTheirContents) {
  HugeVector<std::uint32_t> table(3'000'000, 7);  // 12 MB: above the threshold
  EXPECT_EQ(
      reinterpret_cast<std::uintptr_t>(table.data()) % HugePageAllocator<std::uint32_t>::kHugePage,
      0u);
  std::iota(table.begin(), table.end(), 0u);
  table.assign(table.size() + 1, 5);  // reallocates through the allocator
  EXPECT_EQ(table.size(), 3'000'001u);
  EXPECT_EQ(std::accumulate(table.begin(), table.end(), std::uint64_t{0}), 5u * 3'000'001u);
}

TEST(HugeVector, SmallTablesUseTheOrdinaryAllocator) {
  HugeVector<std::uint64_t> small(16, 3);
  small.push_back(4);
  EXPECT_EQ(small.back(), 4u);
  EXPECT_EQ(small.front(), 3u);
}

}  // namespace
}  // namespace ssdlab
