// Selection and placement of trace records: device filter, start (requests or
// time), limit, sector alignment, and the two address maps.
#include <gtest/gtest.h>

#include <vector>

#include "trace_support.h"
#include "traces/selection.h"

namespace ssdlab::traces {
namespace {

namespace support = ssdlab::testing;

TraceRecord At(std::int64_t time_ns, std::uint64_t offset, std::uint32_t size = 4096,
               std::uint32_t device = 0) {
  return TraceRecord{time_ns, offset, size, IoMode::kWrite, device};
}

constexpr std::uint64_t kDevice = 1 << 20;  // 1 MiB of logical space

std::vector<TraceRecord> Select(std::vector<TraceRecord> records, const ReadOptions& options,
                                SelectionCounts* counts = nullptr, Placement placement = {}) {
  support::VectorReader reader(std::move(records));
  Selection selection(reader, options, kDevice, 512, placement);
  std::vector<TraceRecord> out;
  while (auto record = selection.next()) out.push_back(*record);
  if (counts) *counts = selection.counts();
  return out;
}

TEST(TraceSelection, FiltersByDevice) {
  ReadOptions options;
  options.device = 3;
  SelectionCounts counts;
  const auto out =
      Select({At(0, 0, 512, 1), At(1, 512, 512, 3), At(2, 1024, 512, 3)}, options, &counts);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].offset, 512u);
  EXPECT_EQ(counts.other_device, 1u);
}

TEST(TraceSelection, StartSkipsRequestsAndLimitStops) {
  std::vector<TraceRecord> records;
  for (int i = 0; i < 10; ++i)
    records.push_back(At(i * 1000, static_cast<std::uint64_t>(i) * 4096));
  ReadOptions options;
  options.start_requests = 3;
  options.limit = 4;
  SelectionCounts counts;
  const auto out = Select(records, options, &counts);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out.front().offset, 3u * 4096);
  EXPECT_EQ(out.back().offset, 6u * 4096);
  EXPECT_EQ(counts.before_start, 3u);
}

TEST(TraceSelection, StartTimeSkipsEarlierRequests) {
  ReadOptions options;
  options.start_ns = 2500;
  const auto out = Select({At(0, 0), At(1000, 4096), At(2500, 8192), At(3000, 12288)}, options);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].time_ns, 2500);
}

TEST(TraceSelection, WidensUnalignedRequestsToWholeSectors) {
  SelectionCounts counts;
  const auto out = Select({At(0, 700, 1000), At(1, 1024, 512)}, {}, &counts);
  EXPECT_EQ(out[0].offset, 512u);
  EXPECT_EQ(out[0].size, 1536u);  // sectors 1 to 3 hold bytes 700..1699
  EXPECT_EQ(out[1].size, 512u);
  EXPECT_EQ(counts.realigned, 1u);
}

TEST(TraceSelection, ModuloWrapsAddressesBeyondTheDevice) {
  SelectionCounts counts;
  const auto out =
      Select({At(0, 4096), At(1, kDevice + 8192), At(2, 3 * kDevice - 1024, 4096)}, {}, &counts);
  EXPECT_EQ(out[0].offset, 4096u);  // inside: unchanged
  EXPECT_EQ(out[1].offset, 8192u);
  EXPECT_EQ(out[2].offset, kDevice - 4096);  // would run past the end: ends at the end
  EXPECT_EQ(counts.remapped, 2u);
}

TEST(TraceSelection, ScaleShrinksTheTraceSpanOntoTheDevice) {
  ReadOptions options;
  options.map = AddressMap::kScale;
  const auto out = Select({At(0, 0), At(1, 2 * kDevice), At(2, 4 * kDevice - 4096)}, options,
                          nullptr, Placement{4 * kDevice, {}});
  EXPECT_EQ(out[0].offset, 0u);
  EXPECT_EQ(out[1].offset, kDevice / 2);
  // (4 MiB - 4 KiB) / 4 = 1 MiB - 1 KiB, moved back so that its 4 KiB fit.
  EXPECT_EQ(out[2].offset, kDevice - 4096);
}

TEST(TraceSelection, AddressSpanIsTheLargestEnd) {
  support::VectorReader reader({At(0, 100, 10, 0), At(1, 5000, 100, 1), At(2, 300, 10, 0)});
  EXPECT_EQ(address_span(reader, std::nullopt), 5100u);
  support::VectorReader again({At(0, 100, 10, 0), At(1, 5000, 100, 1), At(2, 300, 10, 0)});
  EXPECT_EQ(address_span(again, 0u), 310u);
}

TEST(TraceSelection, RequestLargerThanTheDeviceIsAnError) {
  EXPECT_THROW(Select({At(0, 0, 2 * kDevice)}, {}), RequestError);
}

}  // namespace
}  // namespace ssdlab::traces
