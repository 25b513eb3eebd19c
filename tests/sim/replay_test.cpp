// The replay loop: open loop submits at trace times (scaled by the speed
// factor) whatever is outstanding; closed loop keeps queue_depth outstanding
// and ignores trace times. Checked on the io.csv rows it writes.
#include "sim/engine/replay.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "trace_support.h"

namespace ssdlab::sim {
namespace {

namespace support = ssdlab::testing;
using traces::TraceRecord;

struct Row {
  std::string experiment;
  std::uint64_t io;
  TimeNs submit_ns, rt_ns;
  bool write;
  std::uint64_t offset;
  std::uint32_t size;
  TimeNs done_ns() const { return submit_ns + rt_ns; }
};

TimeNs Nanoseconds(const std::string& microseconds) {  // "305.600" -> 305600
  std::string digits = microseconds;
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  return std::stoll(digits);
}

// Rows of an io.csv, ordered by io index.
std::vector<Row> ParseIoCsv(const std::string& text) {
  std::vector<Row> rows;
  for (const auto& f : support::csv_rows(text)) {
    EXPECT_EQ(f[1], "0");  // run
    EXPECT_EQ(f[2], "0");  // process
    rows.push_back(Row{f[0], std::stoull(f[3]), Nanoseconds(f[4]), Nanoseconds(f[5]), f[6] == "W",
                       std::stoull(f[7]), static_cast<std::uint32_t>(std::stoul(f[8]))});
  }
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.io < b.io; });
  return rows;
}

TraceRecord Write(TimeNs time_ns, std::uint64_t offset) {
  return TraceRecord{time_ns, offset, 4096, IoMode::kWrite, 0};
}

class Replay : public ::testing::Test {
 protected:
  // Replays `records` on the tiny preset; the io.csv rows by io index.
  std::vector<Row> Run(std::vector<TraceRecord> records, ReplaySettings settings) {
    const auto dir = support::temp_dir_for_this_test("replay-");
    Ssd ssd(support::load_preset("tiny"));
    {
      IoLog log(dir / "io.csv");
      Simulator simulator(ssd, &log);
      support::VectorReader reader(std::move(records));
      settings.experiment = "t";
      result_ = replay(simulator, reader, settings);
      log.commit();
    }
    return ParseIoCsv(support::read_file(dir / "io.csv"));
  }
  static ReplaySettings Closed(std::uint32_t queue_depth) {
    ReplaySettings settings;
    settings.mode = ReplayMode::kClosed;
    settings.queue_depth = queue_depth;
    return settings;
  }
  ReplayResult result_;
};

constexpr TimeNs kWriteNs = 305600;  // an unloaded 4 KiB write on the tiny preset
constexpr TimeNs kMs = 1000000;

TEST_F(Replay, OpenLoopSubmitsEachRequestAtItsTraceTime) {
  const auto rows = Run({Write(0, 0), Write(1 * kMs, 65536), Write(5 * kMs, 131072)}, {});
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].submit_ns, 0);
  EXPECT_EQ(rows[1].submit_ns, 1 * kMs);
  EXPECT_EQ(rows[2].submit_ns, 5 * kMs);
  for (const Row& row : rows) EXPECT_EQ(row.rt_ns, kWriteNs);  // far apart: no queueing
  EXPECT_EQ(result_.requests, 3u);
  EXPECT_EQ(result_.run.stats.count, 3u);
}

TEST_F(Replay, OpenLoopTimesCountFromTheFirstReplayedRequest) {
  const auto rows = Run({Write(7000 * kMs, 0), Write(7001 * kMs, 65536)}, {});
  EXPECT_EQ(rows[0].submit_ns, 0);
  EXPECT_EQ(rows[1].submit_ns, 1 * kMs);
  EXPECT_EQ(result_.trace_start_ns, 7000 * kMs);
}

TEST_F(Replay, OpenLoopDoesNotWaitForCompletions) {
  // Two writes to the same page 10 us apart: the second is submitted at 10 us,
  // long before the first completes, and waits inside the SSD.
  const auto rows = Run({Write(0, 0), Write(10000, 0)}, {});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].submit_ns, 10000);
  EXPECT_LT(rows[1].submit_ns, rows[0].done_ns());
  EXPECT_GT(rows[1].rt_ns, kWriteNs);  // it queued behind the first
}

TEST_F(Replay, SpeedFactorDividesTheGaps) {
  ReplaySettings twice;
  twice.speed = 2;
  const auto rows = Run({Write(0, 0), Write(1 * kMs, 65536), Write(5 * kMs, 131072)}, twice);
  EXPECT_EQ(rows[1].submit_ns, kMs / 2);
  EXPECT_EQ(rows[2].submit_ns, 5 * kMs / 2);
  ReplaySettings slower;
  slower.speed = 0.5;
  EXPECT_EQ(Run({Write(0, 0), Write(3 * kMs, 65536)}, slower)[1].submit_ns, 6 * kMs);
}

TEST_F(Replay, OutOfOrderTimesAreSubmittedWithThePreviousRequest) {
  const auto rows = Run({Write(0, 0), Write(2 * kMs, 65536), Write(1 * kMs, 131072)}, {});
  EXPECT_EQ(rows[2].submit_ns, 2 * kMs);
  EXPECT_EQ(result_.out_of_order, 1u);
}

TEST_F(Replay, ClosedLoopKeepsQueueDepthRequestsOutstanding) {
  std::vector<TraceRecord> records;
  for (int i = 0; i < 40; ++i) records.push_back(Write(0, static_cast<std::uint64_t>(i) * 4096));
  const auto rows = Run(records, Closed(3));
  ASSERT_EQ(rows.size(), 40u);
  EXPECT_EQ(rows[2].submit_ns, 0);
  EXPECT_GT(rows[3].submit_ns, 0);  // the fourth waits for a free slot
  std::size_t most = 0;
  for (const Row& row : rows) {
    std::size_t outstanding = 0;  // requests in flight just after `row` is submitted
    for (const Row& other : rows)
      outstanding += other.submit_ns <= row.submit_ns && other.done_ns() > row.submit_ns;
    most = std::max(most, outstanding);
  }
  EXPECT_EQ(most, 3u);
  // Each request after the first three starts when an earlier one completes.
  for (std::size_t i = 3; i < rows.size(); ++i)
    EXPECT_TRUE(
        std::any_of(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(i),
                    [&](const Row& earlier) { return earlier.done_ns() == rows[i].submit_ns; }))
        << "io " << i;
}

TEST_F(Replay, ClosedLoopIgnoresTraceTimes) {
  const auto rows = Run({Write(0, 0), Write(10000 * kMs, 65536)}, Closed(1));
  EXPECT_EQ(rows[1].submit_ns, kWriteNs);  // right after the first completes
}

TEST_F(Replay, RowsFollowTheIoCsvContract) {
  const auto rows = Run({Write(0, 8192), TraceRecord{kMs, 4096, 8192, IoMode::kRead, 0}}, {});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].experiment, "t");
  EXPECT_EQ(rows[0].io, 0u);
  EXPECT_EQ(rows[1].io, 1u);
  EXPECT_TRUE(rows[0].write);
  EXPECT_FALSE(rows[1].write);
  EXPECT_EQ(rows[1].offset, 4096u);
  EXPECT_EQ(rows[1].size, 8192u);
}

}  // namespace
}  // namespace ssdlab::sim
