// The block FTLs' index of log pages (ftl/log_index.h): entries only for the
// pages in log blocks, slot counts that clear when a slot's last entry goes,
// and the same answers as a plain map whatever the order of changes.
#include "ftl/log_index.h"

#include <gtest/gtest.h>

#include <map>
#include <utility>
#include <vector>

#include "common/rng.h"

namespace ssdlab {
namespace {

using flash::kNoPage;

TEST(LogIndex, APageIsFoundUntilItsEntryGoes) {
  constexpr std::uint32_t kBase = 8;
  ftl::LogIndex index;
  index.reset(4 * kBase);
  index.set(kBase + 1, 100);
  index.set(kBase + 5, 101);
  EXPECT_TRUE(index.contains(kBase + 1));
  EXPECT_FALSE(index.contains(kBase + 2));  // a neighbour, no entry
  EXPECT_FALSE(index.contains(1));
  EXPECT_EQ(index.get(kBase + 5), 101u);
  index.set(kBase + 5, 102);  // a newer log page: still one entry
  EXPECT_EQ(index.size(), 2u);
  index.erase(kBase + 1);
  EXPECT_EQ(index.get(kBase + 5), 102u);
  index.set(kBase + 5, kNoPage);  // the same as erase
  EXPECT_EQ(index.size(), 0u);
  EXPECT_EQ(index.get(kBase + 5), kNoPage);
  index.erase(kBase + 5);  // absent: nothing happens
  EXPECT_EQ(index.size(), 0u);
}

// Over 2^18 pages the 2^16 slots are shared by four pages each: the counts
// must tell a slot's pages apart through the map.
TEST(LogIndex, AnswersAsAPlainMapThroughRandomChanges) {
  constexpr std::uint32_t kPages = 1 << 18;
  ftl::LogIndex index;
  index.reset(kPages);
  std::map<flash::Lpn, flash::Ppn> plain;
  Rng rng(11);
  for (int step = 0; step < 20000; ++step) {
    // A few hundred pages at 2^16 strides: every one shares its slot.
    const auto lpn = static_cast<flash::Lpn>(rng.uniform(4) * (1 << 16) + rng.uniform(128));
    if (rng.uniform(3) == 0) {
      index.erase(lpn);
      plain.erase(lpn);
    } else {
      const auto ppn = static_cast<flash::Ppn>(step);
      index.set(lpn, ppn);
      plain[lpn] = ppn;
    }
  }
  ASSERT_EQ(index.size(), plain.size());
  for (flash::Lpn lpn = 0; lpn < kPages; ++lpn) {
    const auto it = plain.find(lpn);
    ASSERT_EQ(index.contains(lpn), it != plain.end()) << lpn;
    ASSERT_EQ(index.get(lpn), it == plain.end() ? kNoPage : it->second) << lpn;
  }
  const std::vector<std::pair<flash::Lpn, flash::Ppn>> expected(plain.begin(), plain.end());
  EXPECT_EQ(index.sorted(), expected);
}

}  // namespace
}  // namespace ssdlab
