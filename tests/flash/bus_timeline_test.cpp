// A bus's reservations (flash/bus_timeline.h): each phase takes the earliest
// gap no earlier than it is ready that holds it.
#include "flash/bus_timeline.h"

#include <gtest/gtest.h>

#include <sstream>

#include "common/error.h"

namespace ssdlab::flash {
namespace {

TEST(BusTimeline, APhaseThatFitsAGapGoesBeforeLaterReservations) {
  BusTimeline bus;
  EXPECT_EQ(bus.reserve(100, 50), 100);  // [100, 150)
  EXPECT_EQ(bus.reserve(0, 30), 0);      // fits before it: [0, 30)
  EXPECT_EQ(bus.reserve(10, 70), 30);    // [30, 100) is exactly 70 long
  EXPECT_EQ(bus.reserve(0, 1), 150);     // no gap left before 150
  EXPECT_EQ(bus.free_at(), 151);
}

TEST(BusTimeline, APhaseTooLongForTheGapWaitsForTheEnd) {
  BusTimeline bus;
  EXPECT_EQ(bus.reserve(100, 50), 100);
  EXPECT_EQ(bus.reserve(20, 81), 150);  // [20, 100) holds 80, not 81
  EXPECT_EQ(bus.reserve(120, 10), 231);  // ready inside a reservation: after it
}

TEST(BusTimeline, WithoutGapsItIsFirstComeFirstServed) {
  BusTimeline bus;
  TimeNs free = 0;
  for (TimeNs ready : {0, 5, 5, 300, 301}) {
    const TimeNs start = bus.reserve(ready, 100);
    EXPECT_EQ(start, std::max(ready, free));
    free = start + 100;
  }
}

TEST(BusTimeline, ForgottenReservationsCountAsBusy) {
  BusTimeline bus;
  // kKept + 1 separate reservations, 10 long, 100 apart: the first is
  // forgotten, and the bus counts as busy up to its end.
  for (std::size_t i = 0; i <= BusTimeline::kKept; ++i)
    bus.reserve(static_cast<TimeNs>(100 * (i + 1)), 10);
  EXPECT_EQ(bus.reserve(0, 5), 110);  // not 0: before the first, forgotten
  // That made kKept + 1 again: [110, 115) is forgotten in turn, and the gap
  // after it, up to the reservation at 200, is still known.
  EXPECT_EQ(bus.reserve(0, 80), 115);
  // Forgotten in turn, [115, 195) leaves [195, 200): 5 long, not 6.
  EXPECT_EQ(bus.reserve(0, 6), 210);
}

TEST(BusTimeline, RestartAbandonsEveryReservation) {
  BusTimeline bus;
  bus.reserve(100, 50);
  bus.restart_at(40);
  EXPECT_EQ(bus.free_at(), 40);
  EXPECT_EQ(bus.reserve(0, 70), 40);
}

TEST(BusTimeline, StateRoundTripKeepsTheGaps) {
  BusTimeline bus;
  bus.reserve(100, 50);
  bus.reserve(300, 50);
  std::stringstream stream;
  StateWriter out(&stream);
  bus.save_state(out);
  StateReader in(stream);
  BusTimeline loaded;
  loaded.load_state(in, "bus");
  EXPECT_EQ(loaded.reserve(150, 150), 150);  // the gap [150, 300) survived
  EXPECT_EQ(loaded.free_at(), 350);
}

TEST(BusTimeline, LoadRefusesReservationsOutOfOrder) {
  std::stringstream stream;
  StateWriter out(&stream);
  out.i64(0);
  out.u64(2);
  for (TimeNs t : {100, 150, 120, 200}) out.i64(t);
  StateReader in(stream);
  BusTimeline bus;
  EXPECT_THROW(bus.load_state(in, "bus"), Error);
}

}  // namespace
}  // namespace ssdlab::flash
