// The reclaim unit time limit (ftl.fdp_ru_time_limit, TP4146's Estimated
// Reclaim Unit Time Limit; docs/fdp.md, "Reclaim unit time limit"): a
// reclaim unit a handle keeps open past the limit is closed at the next
// write, the handle moves on to a new one, and the FDP events log counts
// 0x01 (Reclaim Unit Time Limit Exceeded) and 0x81 (Implicitly Modified
// Reclaim Unit Handle); a checkpoint keeps the units' opening times.
#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "power_cut_support.h"
#include "sim/config/config.h"
#include "sim/controller/ssd.h"
#include "sim/state/checkpoint.h"
#include "test_support.h"

namespace ssdlab::sim {
namespace {

constexpr TimeNs kSecond = 1'000'000'000;

// Tiny (SLC) or tiny-tlc with two FDP handles and a limit of `limit` s.
DeviceConfig two_handles(const char* preset, int limit) {
  return load_config(testing::preset(preset), {"ftl.placement=\"fdp\"", "ftl.fdp_handles=2",
                                               "ftl.fdp_ru_time_limit=" + std::to_string(limit)});
}

std::uint64_t event(const records::FdpCounters& fdp, std::uint64_t type) {
  for (const records::FdpCounters::Event& e : fdp.events)
    if (e.type == type) return e.count;
  ADD_FAILURE() << "no event " << type;
  return 0;
}

TEST(FdpTimeLimit, AUnitOpenPastTheLimitIsClosedAtTheNextWrite) {
  for (const char* preset : {"tiny", "tiny-tlc"}) {
    SCOPED_TRACE(preset);
    Ssd ssd(two_handles(preset, 1));
    const HostIo first{0, 16384, IoMode::kWrite, 1};  // handle 1 opens its units at 0 s
    ASSERT_TRUE(ssd.start(first, 0));
    ASSERT_TRUE(ssd.start({1 << 20, 4096, IoMode::kWrite, 0}, 6 * kSecond / 10));
    auto fdp = *ssd.ftl().part_records().fdp;
    EXPECT_EQ(event(fdp, 0x01), 0u);  // within the limit
    const std::uint64_t opened = fdp.handles[1].blocks_opened;
    // 1.5 s: handle 1's units (open 1.5 s) are closed; handle 0's (0.9 s) are not.
    ASSERT_TRUE(ssd.start({2 << 20, 4096, IoMode::kWrite, 0}, 3 * kSecond / 2));
    fdp = *ssd.ftl().part_records().fdp;
    EXPECT_GT(event(fdp, 0x01), 0u);
    EXPECT_EQ(event(fdp, 0x81), event(fdp, 0x01));
    EXPECT_EQ(event(fdp, 0x00), event(fdp, 0x01));  // closed with media writes left
    EXPECT_GT(fdp.ru_unwritten_bytes, 0u);
    EXPECT_EQ(fdp.estimated_ru_time_limit_s, 1u);
    const std::uint64_t exceeded = event(fdp, 0x01);
    // The handle's next write opens a new unit; nothing else expired.
    ASSERT_TRUE(ssd.start({0, 4096, IoMode::kWrite, 1}, 3 * kSecond / 2 + 1000));
    fdp = *ssd.ftl().part_records().fdp;
    EXPECT_GT(fdp.handles[1].blocks_opened, opened);
    EXPECT_EQ(event(fdp, 0x01), exceeded);
    EXPECT_NO_THROW(ssd.ftl().check_invariants());
  }
}

// Without a limit the events log lists neither event, and nothing closes.
TEST(FdpTimeLimit, NoLimitNoEvents) {
  Ssd ssd(two_handles("tiny", 0));
  ASSERT_TRUE(ssd.start({0, 16384, IoMode::kWrite, 1}, 0));
  ASSERT_TRUE(ssd.start({1 << 20, 4096, IoMode::kWrite, 0}, 100 * kSecond));
  const auto fdp = *ssd.ftl().part_records().fdp;
  for (const records::FdpCounters::Event& e : fdp.events) {
    EXPECT_NE(e.type, 0x01u);
    EXPECT_NE(e.type, 0x81u);
  }
  EXPECT_EQ(fdp.ru_unwritten_bytes, 0u);
  EXPECT_EQ(fdp.estimated_ru_time_limit_s, 0u);
}

// A checkpoint keeps when each unit opened: restored, the same write
// closes the same units.
TEST(FdpTimeLimit, ACheckpointKeepsTheUnitsOpeningTimes) {
  Ssd saved(two_handles("tiny", 1));
  ASSERT_TRUE(saved.start({0, 16384, IoMode::kWrite, 1}, 0));
  const std::string state = (testing::temp_dir_for_this_test("fdp") / "s.ckpt").string();
  save_checkpoint(state, saved, RunPosition{}, {.saved_after = "test"});
  Ssd restored(two_handles("tiny", 1));
  RunPosition position;
  load_checkpoint(state, restored, position);
  for (Ssd* ssd : {&saved, &restored})
    ASSERT_TRUE(ssd->start({2 << 20, 4096, IoMode::kWrite, 0}, 3 * kSecond / 2));
  EXPECT_GT(event(*restored.ftl().part_records().fdp, 0x01), 0u);
  EXPECT_EQ(*restored.ftl().part_records().fdp, *saved.ftl().part_records().fdp);
  Ssd without(two_handles("tiny", 0));
  EXPECT_THROW(load_checkpoint(state, without, position), Error);
}

// Power cuts among writes spaced so that units expire: the closed units are
// full on flash (a mount seals them), and no acknowledged write is lost.
TEST(FdpTimeLimit, CutsAmongExpiriesLoseNothing) {
  Ssd ssd(load_config(testing::preset("tiny-tlc"),
                      {"ftl.placement=\"fdp\"", "ftl.fdp_handles=2", "ftl.fdp_ru_time_limit=1",
                       "ftl.placement_map=[{offset=0, size=\"2MiB\", handle=1}]"}));
  ssd.enable_power_cuts();
  ssd.prefill(0, ssd.logical_bytes());
  const testing_power::CutTotals totals = testing_power::run_with_cuts(
      ssd, "RW:io_size=8192,count=3000,queue_depth=2,burst=100,pause_us=1500000", 20, 7);
  EXPECT_EQ(totals.recovered, 20u);
  EXPECT_GT(event(*ssd.ftl().part_records().fdp, 0x01), 0u);
  EXPECT_NO_THROW(ssd.ftl().check_invariants());
}

}  // namespace
}  // namespace ssdlab::sim
