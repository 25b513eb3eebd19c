// The host loop's streams and tag table (sim/engine/host_streams.h,
// host_events.h) on their own, without a device: which arrivals they queue,
// when, and in which order.
#include "sim/engine/host_streams.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "common/error.h"
#include "sim/engine/host_events.h"

namespace ssdlab::sim {
namespace {

// I/Os at the given times (open loop: arrivals; closed loop: pauses).
class TimedSource : public IoSource {
 public:
  explicit TimedSource(std::vector<TimeNs> times) : times_(std::move(times)) {}
  std::optional<SourceIo> next() override {
    if (next_ == times_.size()) return std::nullopt;
    SourceIo io;
    io.offset = 4096 * next_;
    io.size = 4096;
    io.time = times_[next_++];
    return io;
  }

 private:
  std::vector<TimeNs> times_;
  std::size_t next_ = 0;
};

struct Popped {
  TimeNs at;
  Arrival arrival;
};

Popped pop(HostEventQueue& queue) {
  HostEventQueue::Entry entry = queue.pop();
  return {entry.time, std::get<Arrival>(entry.event)};
}

TEST(HostStreams, OpenLoopArrivalsMergeInTimeOrderOneQueuedAtATime) {
  TimedSource a({100, 300, 300});
  TimedSource b({200, 300});
  HostEventQueue queue;
  HostStreams streams(queue);
  const std::vector<HostStream> specs{HostStream{&a}, HostStream{&b}};
  streams.begin(specs, 1000);  // the run starts at 1000 ns
  // (stream, time) of each arrival, taking each as the host loop does.
  std::vector<std::pair<std::uint32_t, TimeNs>> seen;
  while (!queue.empty()) {
    ASSERT_EQ(queue.size(), 1u);  // one arrival queued at a time
    const Popped p = pop(queue);
    ASSERT_EQ(p.arrival.kind, Arrival::Kind::kOpen);
    EXPECT_EQ(p.at, 1000 + streams.pending(p.arrival.stream).time);
    seen.emplace_back(p.arrival.stream, p.at);
    streams.advance_open(p.arrival.stream, p.at, false);
  }
  // On a tie (300 ns), the first stream's first.
  const std::vector<std::pair<std::uint32_t, TimeNs>> expected{
      {0, 1100}, {1, 1200}, {0, 1300}, {0, 1300}, {1, 1300}};
  EXPECT_EQ(seen, expected);
}

TEST(HostStreams, AStoppedOpenStreamArrivesNoMore) {
  TimedSource a({100, 200});
  TimedSource b({150});
  HostEventQueue queue;
  HostStreams streams(queue);
  const std::vector<HostStream> specs{HostStream{&a}, HostStream{&b}};
  streams.begin(specs, 0);
  const Popped first = pop(queue);
  ASSERT_EQ(first.arrival.stream, 0u);
  streams.advance_open(0, first.at, true);  // stream 0 stops: its 200 ns never comes
  const Popped second = pop(queue);
  EXPECT_EQ(second.arrival.stream, 1u);
  streams.advance_open(1, second.at, false);
  EXPECT_TRUE(queue.empty());
}

TEST(HostStreams, ClosedLoopSlotsFillInTheirReservedPlaces) {
  TimedSource a({0, 0, 0});
  HostEventQueue queue;
  HostStreams streams(queue);
  HostStream spec{&a};
  spec.slots = 2;
  const std::vector<HostStream> specs{spec};
  streams.begin(specs, 50);
  // Something queued later at the same time comes after both slots.
  queue.push(50, Arrival{7, Arrival::Kind::kGiven});
  streams.fill_slot(0, 50);  // the second slot, in its reserved place
  streams.fill_slot(0, 50);  // none left to fill
  EXPECT_EQ(queue.size(), 3u);
  EXPECT_EQ(pop(queue).arrival.kind, Arrival::Kind::kSlot);
  EXPECT_EQ(pop(queue).arrival.kind, Arrival::Kind::kSlot);
  EXPECT_EQ(pop(queue).arrival.stream, 7u);
}

TEST(HostStreams, AClosedLoopPauseQueuesItsIoToArriveAfterIt) {
  HostEventQueue queue;
  HostStreams streams(queue);
  TimedSource a({});
  HostStream spec{&a};
  spec.slots = 1;
  const std::vector<HostStream> specs{spec};
  streams.begin(specs, 0);
  pop(queue);  // the slot
  SourceIo io;
  io.offset = 4096;
  io.size = 4096;
  io.time = 40;
  streams.queue_after_pause(0, 10, io);
  const Popped given = pop(queue);
  EXPECT_EQ(given.at, 50);
  EXPECT_EQ(given.arrival.stream, 0u);
  EXPECT_EQ(given.arrival.kind, Arrival::Kind::kGiven);
  EXPECT_EQ(given.arrival.io.offset, 4096u);
  EXPECT_EQ(given.arrival.io.time, 0);  // its pause is spent
  EXPECT_EQ(given.arrival.retry, kFresh);
  io.time = TimeNs{1} << 62;  // past the clock: an error naming the key
  EXPECT_THROW(streams.queue_after_pause(0, TimeNs{1} << 61, io), Error);
  EXPECT_TRUE(queue.empty());
}

TEST(HostStreams, IoNumbersCountFreshSubmissionsPerStream) {
  TimedSource a({}), b({});
  HostEventQueue queue;
  HostStreams streams(queue);
  const std::vector<HostStream> specs{HostStream{&a}, HostStream{&b}};
  streams.begin(specs, 0);
  EXPECT_EQ(streams.take_io(1), 0u);
  EXPECT_EQ(streams.take_io(1), 1u);
  EXPECT_EQ(streams.next_io(1), 2u);
  EXPECT_EQ(streams.next_io(0), 0u);
}

TEST(HostStreams, APausePastTheClockIsAnErrorNamingItsKey) {
  try {
    later(TimeNs{1} << 61, (TimeNs{1} << 61) + 1, "pause_us");  // past 2^62 ns
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("pause_us"), std::string::npos) << error.what();
  }
  EXPECT_EQ(later(10, 5, "pause_us"), 15);
}

TEST(InFlight, TagsAreReusedTheLastFreedFirst) {
  InFlight table;
  for (std::uint64_t io = 0; io < 3; ++io) {
    EXPECT_EQ(table.next_tag(), io);
    Completion c{};
    c.io = io;
    table.hold(c);
  }
  EXPECT_EQ(table.release(0).io, 0u);
  EXPECT_EQ(table.release(2).io, 2u);
  EXPECT_EQ(table.next_tag(), 2u);
  Completion c{};
  c.io = 20;
  table.hold(c);
  EXPECT_EQ(table.next_tag(), 0u);
  c.io = 10;
  table.hold(c);
  EXPECT_EQ(table.next_tag(), 3u);  // none free: a new one
  EXPECT_EQ(table.release(2).io, 20u);
  EXPECT_EQ(table.release(0).io, 10u);
  EXPECT_EQ(table.release(1).io, 1u);
}

}  // namespace
}  // namespace ssdlab::sim
