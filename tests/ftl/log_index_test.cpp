// The block FTLs' index of log pages (ftl/log_index.h): entries only for the
// pages in log blocks, a bit per logical block that clears when its last log
// page goes, and the same answers as a plain map whatever the order of
// changes.
#include <gtest/gtest.h>

#include <map>
#include <utility>
#include <vector>

#include "common/rng.h"
#include "ftl/log_index.h"

namespace ssdlab {
namespace {

using flash::kNoPage;

TEST(LogIndex, ALogicalBlockIsFoundUntilItsLastLogPageGoes) {
  constexpr std::uint32_t kGroup = 8;
  ftl::LogIndex index;
  index.reset(4 * kGroup, kGroup);
  index.set(kGroup + 1, 100);
  index.set(kGroup + 5, 101);
  EXPECT_TRUE(index.contains(kGroup + 1));
  EXPECT_FALSE(index.contains(kGroup + 2));  // same logical block, no entry
  EXPECT_FALSE(index.contains(1));           // another logical block
  EXPECT_EQ(index.get(kGroup + 5), 101u);
  index.set(kGroup + 5, 102);  // a newer log page: still one entry
  EXPECT_EQ(index.size(), 2u);
  index.erase(kGroup + 1);
  EXPECT_EQ(index.get(kGroup + 5), 102u);
  index.set(kGroup + 5, kNoPage);  // the same as erase
  EXPECT_EQ(index.size(), 0u);
  EXPECT_EQ(index.get(kGroup + 5), kNoPage);
  index.erase(kGroup + 5);  // absent: nothing happens
  EXPECT_EQ(index.size(), 0u);
}

TEST(LogIndex, AnswersAsAPlainMapThroughRandomChanges) {
  constexpr std::uint32_t kGroup = 16, kPages = 64 * kGroup;
  ftl::LogIndex index;
  index.reset(kPages, kGroup);
  std::map<flash::Lpn, flash::Ppn> plain;
  Rng rng(11);
  for (int step = 0; step < 20000; ++step) {
    const auto lpn = static_cast<flash::Lpn>(rng.uniform(kPages));
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
