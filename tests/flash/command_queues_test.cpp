// The flash scheduler's queues (flash/command_queues.h): plain FIFOs when
// nothing is indexed (the cheap path of a device without plane interleaving
// and without the fewest-queued order), linked nodes otherwise, with the same order.
#include "flash/command_queues.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace ssdlab::flash {
namespace {

using Entry = CommandQueues::Entry;

// Pushes entries on (unit, work) with seq = their rank, then takes the
// fronts of `work` of unit 0 until it is empty: their seqs.
std::vector<std::uint64_t> fronts_in_order(CommandQueues& queues, std::uint32_t work) {
  std::vector<std::uint64_t> seqs;
  while (const Entry* front = queues.front_entry(0, work)) {
    seqs.push_back(front->seq);
    queues.pop_front(0, work);
  }
  return seqs;
}

TEST(CommandQueues, WithoutAnIndexTheQueuesArePlainFifosPerUnitAndClass) {
  CommandQueues queues(2, false, false);
  EXPECT_FALSE(queues.indexed());
  queues.push(0, 1, Entry{7, 0, 10}, CommandQueues::kNoSlot, 0);
  queues.push(1, 1, Entry{8, 0, 11}, CommandQueues::kNoSlot, 0);
  queues.push(0, 1, Entry{9, 0, 12}, CommandQueues::kNoSlot, 0);
  queues.push(0, 2, Entry{9, 1, 13}, CommandQueues::kNoSlot, 0);
  EXPECT_EQ(queues.front_entry(0, 0), nullptr);
  EXPECT_EQ(queues.front_entry(0, 1)->job, 7u);
  EXPECT_EQ(fronts_in_order(queues, 1), (std::vector<std::uint64_t>{10, 12}));
  EXPECT_FALSE(queues.empty(0));  // class 2 still holds one
  queues.pop_front(0, 2);
  EXPECT_TRUE(queues.empty(0));
  EXPECT_FALSE(queues.empty(1));
  // Emptied and filled again: the order holds.
  queues.push(0, 1, Entry{1, 0, 20}, CommandQueues::kNoSlot, 0);
  queues.push(0, 1, Entry{2, 0, 21}, CommandQueues::kNoSlot, 0);
  EXPECT_EQ(fronts_in_order(queues, 1), (std::vector<std::uint64_t>{20, 21}));
}

// A backlog that never empties (one taken for one queued, 100,000 times
// over a standing 3,000): the order holds while the FIFO drops what it has
// taken (Fifo::pop_front), where its storage had grown with every command.
TEST(CommandQueues, AFifoThatNeverEmptiesKeepsItsOrder) {
  CommandQueues queues(1, false, false);
  std::uint64_t pushed = 0, taken = 0;
  const auto push = [&] { queues.push(0, 0, Entry{0, 0, pushed++}, CommandQueues::kNoSlot, 0); };
  for (int i = 0; i < 3000; ++i) push();
  for (int i = 0; i < 100000; ++i) {
    push();
    ASSERT_EQ(queues.front_entry(0, 0)->seq, taken++);
    queues.pop_front(0, 0);
  }
  const std::vector<std::uint64_t> rest = fronts_in_order(queues, 0);
  ASSERT_EQ(rest.size(), 3000u);
  for (std::size_t i = 0; i < rest.size(); ++i) EXPECT_EQ(rest[i], taken + i);
}

TEST(CommandQueues, IndexedQueuesKeepTheSameOrderAndLoseANodeTakenFromTheMiddle) {
  for (const bool fair : {false, true}) {
    CommandQueues queues(2, true, fair);
    EXPECT_TRUE(queues.indexed());
    for (std::uint64_t seq = 0; seq < 5; ++seq)
      queues.push(0, 1, Entry{static_cast<std::uint32_t>(seq), 0, seq},
                  seq % 2, static_cast<std::uint16_t>(seq % 3));
    // Slot 1 holds seqs 1 and 3, oldest first; take 3 out of the middle.
    const std::uint32_t first = queues.slot_front(1);
    ASSERT_NE(first, CommandQueues::kNil);
    EXPECT_EQ(queues.entry(first).seq, 1u);
    const std::uint32_t second = queues.slot_next(first);
    EXPECT_EQ(queues.entry(second).seq, 3u);
    queues.remove(second);
    EXPECT_EQ(queues.slot_next(first), CommandQueues::kNil);
    EXPECT_EQ(fronts_in_order(queues, 1), (std::vector<std::uint64_t>{0, 1, 2, 4})) << fair;
    EXPECT_TRUE(queues.empty(0));
    EXPECT_EQ(queues.slot_front(0), CommandQueues::kNil);
  }
}

TEST(CommandQueues, ASlotsListHoldsEveryClassInArrivalOrderAndGoesWithItsLastNode) {
  CommandQueues queues(1, true, false);
  // Slot 5: seqs 0 (class 2), 1 (class 0), 3 (class 1); slot 6: seq 2.
  const std::uint32_t classes[] = {2, 0, 0, 1};
  const std::uint64_t slots[] = {5, 5, 6, 5};
  for (std::uint64_t seq = 0; seq < 4; ++seq)
    queues.push(0, classes[seq], Entry{0, 0, seq}, slots[seq], 0);
  std::vector<std::pair<std::uint64_t, std::uint32_t>> walked;  // (seq, class)
  for (std::uint32_t node = queues.slot_front(5); node != CommandQueues::kNil;
       node = queues.slot_next(node))
    walked.emplace_back(queues.entry(node).seq, queues.work(node));
  EXPECT_EQ(walked, (std::vector<std::pair<std::uint64_t, std::uint32_t>>{{0, 2}, {1, 0}, {3, 1}}));
  // Its front taken out, the next is the front; its last node, the slot goes.
  queues.remove(queues.slot_front(5));
  EXPECT_EQ(queues.entry(queues.slot_front(5)).seq, 1u);
  queues.pop_front(0, 0);  // seq 1
  queues.pop_front(0, 1);  // seq 3
  EXPECT_EQ(queues.slot_front(5), CommandQueues::kNil);
  EXPECT_EQ(queues.entry(queues.slot_front(6)).seq, 2u);
}

}  // namespace
}  // namespace ssdlab::flash
