#include "sim/engine/event_queue.h"

#include <gtest/gtest.h>

#include <string>
#include <variant>

namespace ssdlab::sim {
namespace {

TEST(EventQueue, PopsEventsInTimeOrder) {
  EventQueue<int> queue;
  queue.push(30, 3);
  queue.push(10, 1);
  queue.push(20, 2);
  EXPECT_EQ(queue.next_time(), 10);
  EXPECT_EQ(queue.pop().event, 1);
  EXPECT_EQ(queue.pop().event, 2);
  EXPECT_EQ(queue.pop().event, 3);
  EXPECT_TRUE(queue.empty());
}

TEST(EventQueue, EqualTimesResolveInInsertionOrder) {
  EventQueue<int> queue;
  for (int i = 0; i < 100; ++i) queue.push(i % 3 == 0 ? 5 : 7, i);
  int last_at_5 = -1, last_at_7 = -1;
  while (!queue.empty()) {
    const auto entry = queue.pop();
    int& last = entry.time == 5 ? last_at_5 : last_at_7;
    EXPECT_GT(entry.event, last);
    last = entry.event;
    if (entry.time == 7) {
      EXPECT_EQ(last_at_5, 99);  // every time-5 event came first
    }
  }
}

TEST(EventQueue, CarriesTypedEvents) {
  struct Arrival {
    int process;
  };
  struct Completion {
    std::string what;
  };
  EventQueue<std::variant<Arrival, Completion>> queue;
  queue.push(2, Completion{"done"});
  queue.push(1, Arrival{4});
  auto first = queue.pop();
  ASSERT_TRUE(std::holds_alternative<Arrival>(first.event));
  EXPECT_EQ(std::get<Arrival>(first.event).process, 4);
  EXPECT_EQ(std::get<Completion>(queue.pop().event).what, "done");
}

TEST(EventQueue, TwoQueuesAreIndependent) {
  EventQueue<int> a, b;
  a.push(1, 1);
  b.push(1, 2);
  EXPECT_EQ(a.pop().sequence, 0u);
  EXPECT_EQ(b.pop().sequence, 0u);
}

}  // namespace
}  // namespace ssdlab::sim
