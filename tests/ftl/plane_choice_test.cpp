// Plane choice inside an allocation pool (ftl.plane_choice; issue 36):
// round-robin hands host pages to the pool's planes in turn, so with
// per-plane cleaning all planes reach their marks within a few writes and
// clean in a burst; most-free (DiskSim's placement, ssd_timing.c:566-593)
// writes to the plane with the most free pages, so the plane cleaned last
// takes the next writes and cleanings are spread out. Both lose nothing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/rng.h"
#include "ftl/ftl.h"
#include "ftl/page_mapped/page_mapped_keys.h"
#include "ftl/verifier.h"
#include "sim/config/config.h"
#include "test_support.h"

namespace ssdlab {
namespace {

using flash::Op;

// The tiny device, one pool of 4 planes (a package of 2 dies of 2 planes)
// with 64 blocks of 64 pages each (the paper's block), cleaned per plane one
// victim at a time, as the
// agrawal presets clean.
sim::DeviceConfig device(const std::string& ftl, const std::string& choice) {
  std::vector<std::string> overrides = {"geometry.channels=1", "geometry.blocks_per_plane=64",
                                        "geometry.pages_per_block=64",
                                        "ftl.type=\"" + ftl + "\"", "ftl.clean_scope=\"plane\"",
                                        "ftl.clean_granularity=\"one-victim\"",
                                        "ftl.plane_choice=\"" + choice + "\""};
  if (ftl == "dftl") overrides.push_back("ftl.map_cache_entries=512");
  return sim::load_config(testing::preset("tiny"), overrides);
}

struct Overwrite {
  std::vector<std::uint64_t> erase_at;  // the host write (index) each erase came with
  std::uint64_t writes = 0;
  std::uint64_t blocks_cleaned = 0;
};

// Fills the device, then `times` capacities of random single-page writes to
// the first `region` of it (Table 3's workload confines them to 12%, so that
// victims are mostly superseded), checked by the verifier (every read returns
// the latest write).
Overwrite overwrite(const sim::DeviceConfig& config, double times, double region) {
  auto ftl = ftl::make_ftl({config.geometry, config.ftl, 1});
  ftl::Verifier verifier(config.geometry, ftl->logical_pages(), config.ftl.copy_back);
  ftl::CommandList out;
  const auto write = [&](ftl::Lpn lpn) {
    out.clear();
    ftl->write({lpn, 1, false, false}, out);
    verifier.host_write({lpn, 1, false, false}, out);
  };
  for (ftl::Lpn lpn = 0; lpn < ftl->logical_pages(); ++lpn) write(lpn);
  Overwrite run;
  Rng rng(7);
  const auto count = static_cast<std::uint64_t>(times * ftl->logical_pages());
  const auto hot = static_cast<std::uint64_t>(region * ftl->logical_pages());
  for (std::uint64_t i = 0; i < count; ++i) {
    write(static_cast<ftl::Lpn>(rng.uniform(hot)));
    for (const flash::Command& c : out)
      if (c.cleaning && c.op == Op::kErase) run.erase_at.push_back(i);
  }
  for (ftl::Lpn lpn = 0; lpn < ftl->logical_pages(); lpn += 7) {
    out.clear();
    ftl->read({lpn, 1, false, false}, out);
    verifier.host_read({lpn, 1, false, false}, out);
  }
  ftl->check_invariants();
  run.writes = count;
  run.blocks_cleaned = ftl->stats().blocks_cleaned;
  return run;
}

// The most erases among `window` consecutive host writes.
// (A pool of 4 planes erases at most 4 blocks per write with one-victim.)
std::size_t largest_burst(const Overwrite& run, std::uint64_t window) {
  std::size_t most = 0, first = 0;
  for (std::size_t last = 0; last < run.erase_at.size(); ++last) {
    while (run.erase_at[last] - run.erase_at[first] >= window) ++first;
    most = std::max(most, last - first + 1);
  }
  return most;
}

// Erases that come with at least `size - 1` others within `window` writes.
std::size_t bursts(const Overwrite& run, std::uint64_t window, std::size_t size) {
  std::size_t count = 0;
  for (std::size_t last = size - 1; last < run.erase_at.size(); ++last)
    count += run.erase_at[last] - run.erase_at[last + 1 - size] < window;
  return count;
}

TEST(PlaneChoice, MostFreeSpreadsTheCleaningThatRoundRobinBunches) {
  const Overwrite round_robin = overwrite(device("page-mapped", "round-robin"), 3, 0.12);
  const Overwrite most_free = overwrite(device("page-mapped", "most-free"), 3, 0.12);
  ASSERT_GT(round_robin.blocks_cleaned, 200u);
  ASSERT_GT(most_free.blocks_cleaned, 200u);
  // Four planes written in turn reach their marks within four writes of each
  // other: with round-robin a fifth of the erases or more come in a burst of
  // all four planes within 4 writes. With most-free the cleaned plane takes
  // the next writes (a victim here is mostly superseded): hardly ever.
  const auto share = [](const Overwrite& run) {
    return static_cast<double>(bursts(run, 4, 4)) / static_cast<double>(run.erase_at.size());
  };
  EXPECT_GE(share(round_robin), 0.2);
  EXPECT_LE(share(most_free), 0.01);
  EXPECT_EQ(largest_burst(round_robin, 4), 4u);
  // The same cleaning work, spread differently (within 5%).
  EXPECT_NEAR(static_cast<double>(most_free.blocks_cleaned),
              static_cast<double>(round_robin.blocks_cleaned),
              0.05 * static_cast<double>(round_robin.blocks_cleaned));
}

TEST(PlaneChoice, EveryReadReturnsTheLatestWriteWithEitherChoice) {
  for (const char* ftl : {"page-mapped", "dftl"})
    for (const char* choice : {"round-robin", "most-free"})
      for (const double region : {0.12, 1.0}) {
        SCOPED_TRACE(std::string(ftl) + " " + choice);
        EXPECT_GT(overwrite(device(ftl, choice), 2, region).blocks_cleaned, 100u);
      }
}

TEST(PlaneChoice, IsReadEchoedAndRefusedWhereItDoesNotApply) {
  const auto choice = [](const char* preset) {
    return testing::load_preset(preset).ftl.keys.get<ftl::PageMappedKeys>().plane_choice;
  };
  EXPECT_EQ(choice("tiny"), ftl::PlaneChoice::kRoundRobin);
  EXPECT_EQ(choice("agrawal-baseline"), ftl::PlaneChoice::kMostFree);
  EXPECT_THAT(testing::preset_error("tiny", {"ftl.plane_choice=\"emptiest\""}),
              ::testing::HasSubstr("ftl.plane_choice: 'emptiest' is not a plane choice "
                                   "(allowed: round-robin, most-free)"));
  EXPECT_THAT(testing::preset_error("bast-ssd", {"ftl.plane_choice=\"most-free\""}),
              ::testing::HasSubstr("ftl.plane_choice: only the page-mapped and dftl FTLs use it"));
  const auto echo = sim::to_json(device("page-mapped", "most-free"));
  EXPECT_EQ(echo["ftl"]["plane_choice"], "most-free");
}

}  // namespace
}  // namespace ssdlab
