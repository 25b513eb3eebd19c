// The flash scheduler (flash/scheduler.h): per-die queues decided at dispatch
// time, the interleaving settings of Agrawal et al. §2.2 and Figure 6, cache
// registers, and the dispatch order. Every expectation follows from the
// timing parameters.
#include "flash/scheduler.h"

#include <gtest/gtest.h>

#include <map>

#include "flash_support.h"

namespace ssdlab::flash {
namespace {

struct Recorder : FlashScheduler::Listener {
  std::map<std::uint64_t, TimeNs> done;
  std::vector<std::pair<TimeNs, TimeNs>> cleaning;
  void host_done(std::uint64_t tag, TimeNs at) override { done[tag] = at; }
  void cleaning_done(std::uint64_t, TimeNs start, TimeNs end) override {
    cleaning.emplace_back(start, end);
  }
};

class Scheduled {
 public:
  Scheduled(const Geometry& g, const Timing& t, DispatchOrder order = {})
      : geometry(g), scheduler(g, t, order) {
    scheduler.set_listener(&recorder);
  }
  // Submits one single-command job; records an inline completion too.
  void submit(std::uint64_t tag, const Command& command, TimeNs now,
              WorkClass work = WorkClass::kHostRead) {
    CommandList list{command};
    if (const auto done = scheduler.submit(list, now, work, HostWait::kNone, tag))
      recorder.done[tag] = *done;
  }
  TimeNs last() const {
    TimeNs last = 0;
    for (const auto& [tag, at] : recorder.done) last = std::max(last, at);
    return last;
  }
  Geometry geometry;
  FlashScheduler scheduler;
  Recorder recorder;
};

Ppn page(const Geometry& g, std::uint32_t plane, std::uint32_t block, std::uint32_t offset) {
  return (plane * g.blocks_per_plane + block) * g.pages_per_block + offset;
}

Command read_of(Ppn ppn) { return page_command(Op::kRead, ppn, 0); }
Command program_of(Ppn ppn) { return page_command(Op::kProgram, ppn, 0); }

TEST(FlashScheduler, AQueueOfReadsOnOneDieRunsAtTheArrayPlusBusRateWithoutACacheRegister) {
  const Geometry g = testing::small_geometry(1, Interleaving::kDies);
  const Timing t;
  const TimeNs transfer = t.page_transfer_ns(g);
  Scheduled s(g, t);
  for (std::uint64_t i = 0; i < 8; ++i) s.submit(i, read_of(page(g, 0, 0, i)), 0);
  s.scheduler.drain();
  ASSERT_EQ(s.recorder.done.size(), 8u);
  EXPECT_EQ(s.last(), 8 * (t.read_ns + transfer));
  for (std::uint64_t i = 0; i < 8; ++i)
    EXPECT_EQ(s.recorder.done[i], static_cast<TimeNs>(i + 1) * (t.read_ns + transfer)) << i;
}

TEST(FlashScheduler, ACacheRegisterOverlapsTheNextArrayReadWithTheTransfer) {
  const Geometry g = testing::small_geometry(1, Interleaving::kDies);
  Timing t;
  t.cache_register = true;
  const TimeNs transfer = t.page_transfer_ns(g);
  ASSERT_GT(transfer, t.read_ns);  // bus-bound: one transfer after another
  Scheduled s(g, t);
  for (std::uint64_t i = 0; i < 8; ++i) s.submit(i, read_of(page(g, 0, 0, i)), 0);
  s.scheduler.drain();
  EXPECT_EQ(s.last(), t.read_ns + 8 * transfer);
}

TEST(FlashScheduler, ACacheRegisterTakesTheNextPageInWhileThePreviousProgramRuns) {
  const Geometry g = testing::small_geometry(1, Interleaving::kDies);
  Timing t;
  const TimeNs transfer = t.page_transfer_ns(g);
  ASSERT_GT(t.program_ns, transfer);  // array-bound
  for (const bool cache : {false, true}) {
    t.cache_register = cache;
    Scheduled s(g, t);
    for (std::uint64_t i = 0; i < 8; ++i)
      s.submit(i, program_of(page(g, 0, 0, i)), 0, WorkClass::kHostWrite);
    s.scheduler.drain();
    EXPECT_EQ(s.last(), cache ? transfer + 8 * t.program_ns : 8 * (transfer + t.program_ns))
        << cache;
  }
}

TEST(FlashScheduler, TwoDiesOfAPackageShareTheBusUnlessThePackageServesOneCommandAtATime) {
  const Timing t;
  for (const Interleaving interleaving : {Interleaving::kNone, Interleaving::kDies}) {
    const Geometry g = testing::small_geometry(2, interleaving);
    const TimeNs transfer = t.page_transfer_ns(g);
    Scheduled s(g, t);
    // Reads alternating between the dies (die 1's first plane is plane 2).
    for (std::uint64_t i = 0; i < 8; ++i) s.submit(i, read_of(page(g, (i % 2) * 2, 0, i)), 0);
    s.scheduler.drain();
    if (interleaving == Interleaving::kNone) {
      EXPECT_EQ(s.last(), 8 * (t.read_ns + transfer));
    } else {
      // The two array reads overlap; then the bus is the bottleneck: each
      // die's next read overlaps the other's transfer.
      EXPECT_LT(s.last(), 8 * (t.read_ns + transfer));
      EXPECT_GE(s.last(), t.read_ns + 8 * transfer);
    }
  }
}

TEST(FlashScheduler, PlaneInterleavingJoinsQueuedProgramsOfDifferentRequestsOnAPlanePair) {
  const Timing t;
  const TimeNs transfer = t.page_transfer_ns(testing::small_geometry(1, Interleaving::kDies));
  for (const Interleaving interleaving : {Interleaving::kDies, Interleaving::kPlanes}) {
    const Geometry g = testing::small_geometry(1, interleaving);
    Scheduled s(g, t);
    // The first keeps the die busy; the next two queue behind it, on planes
    // 0 and 1 at the same page offset.
    s.submit(0, program_of(page(g, 0, 0, 0)), 0, WorkClass::kHostWrite);
    s.submit(1, program_of(page(g, 0, 1, 3)), 0, WorkClass::kHostWrite);
    s.submit(2, program_of(page(g, 1, 1, 3)), 0, WorkClass::kHostWrite);
    s.scheduler.drain();
    const TimeNs first = transfer + t.program_ns;
    if (interleaving == Interleaving::kPlanes) {
      EXPECT_EQ(s.recorder.done[1], first + 2 * transfer + t.program_ns);
      EXPECT_EQ(s.recorder.done[2], s.recorder.done[1]);
      EXPECT_EQ(s.scheduler.timeline().stats().two_plane_commands, 1u);
    } else {
      EXPECT_EQ(s.recorder.done[2], 3 * first);
      EXPECT_EQ(s.scheduler.timeline().stats().two_plane_commands, 0u);
    }
  }
}

TEST(FlashScheduler, PlaneInterleavingNeedsTheSamePageOffset) {
  const Timing t;
  const Geometry g = testing::small_geometry(1, Interleaving::kPlanes);
  Scheduled s(g, t);
  s.submit(0, program_of(page(g, 0, 0, 0)), 0, WorkClass::kHostWrite);
  s.submit(1, program_of(page(g, 0, 1, 3)), 0, WorkClass::kHostWrite);
  s.submit(2, program_of(page(g, 1, 1, 4)), 0, WorkClass::kHostWrite);
  s.scheduler.drain();
  EXPECT_EQ(s.scheduler.timeline().stats().two_plane_commands, 0u);
}

// Independent plane reads (Timing::independent_plane_reads): queued reads
// on a plane pair join whatever their offsets; a program does not.
TEST(FlashScheduler, IndependentPlaneReadsJoinQueuedReadsAtAnyPageOffset) {
  for (const bool independent : {false, true}) {
    SCOPED_TRACE(independent);
    Timing t;
    t.independent_plane_reads = independent;
    const TimeNs transfer = t.page_transfer_ns(testing::small_geometry(1));
    const Geometry g = testing::small_geometry(1, Interleaving::kPlanes);
    Scheduled s(g, t);
    // The first keeps the die busy; two reads queue behind it on planes 0
    // and 1 at offsets 3 and 5, then two programs likewise.
    s.submit(0, program_of(page(g, 0, 0, 0)), 0, WorkClass::kHostWrite);
    s.submit(1, read_of(page(g, 0, 1, 3)), 0);
    s.submit(2, read_of(page(g, 1, 1, 5)), 0);
    s.submit(3, program_of(page(g, 0, 2, 3)), 0, WorkClass::kHostWrite);
    s.submit(4, program_of(page(g, 1, 2, 5)), 0, WorkClass::kHostWrite);
    s.scheduler.drain();
    const TimeNs first = transfer + t.program_ns;
    if (independent) {
      EXPECT_EQ(s.recorder.done[1], first + t.read_ns + 2 * transfer);
      EXPECT_EQ(s.recorder.done[2], s.recorder.done[1]);
      EXPECT_EQ(s.scheduler.timeline().stats().two_plane_commands, 1u);
    } else {
      EXPECT_EQ(s.recorder.done[2], first + 2 * (t.read_ns + transfer));
      EXPECT_EQ(s.scheduler.timeline().stats().two_plane_commands, 0u);
    }
  }
}

TEST(FlashScheduler, ReadsFirstTakesAQueuedReadBeforeAnOlderQueuedWrite) {
  const Geometry g = testing::small_geometry(1, Interleaving::kDies);
  const Timing t;
  const TimeNs transfer = t.page_transfer_ns(g);
  DispatchOrder reads_first;
  ASSERT_TRUE(parse_dispatch_order("read>write>cleaning", reads_first));
  for (const bool fifo : {true, false}) {
    Scheduled s(g, t, fifo ? DispatchOrder{} : reads_first);
    s.submit(0, program_of(page(g, 0, 0, 0)), 0, WorkClass::kHostWrite);  // busy
    s.submit(1, program_of(page(g, 0, 0, 1)), 10, WorkClass::kHostWrite);
    s.submit(2, read_of(page(g, 1, 0, 0)), 20, WorkClass::kHostRead);
    s.scheduler.drain();
    const TimeNs first = transfer + t.program_ns;
    const TimeNs read = t.read_ns + transfer, write = transfer + t.program_ns;
    EXPECT_EQ(s.recorder.done[2], fifo ? first + write + read : first + read) << fifo;
    EXPECT_EQ(s.recorder.done[1], fifo ? first + write : first + read + write) << fifo;
  }
}

TEST(FlashScheduler, LaterStagesWaitForEveryCommandOfTheStageBefore) {
  const Geometry g = testing::small_geometry(2, Interleaving::kDies);
  const Timing t;
  const TimeNs transfer = t.page_transfer_ns(g);
  Scheduled s(g, t);
  CommandList list{read_of(page(g, 0, 0, 0)), read_of(page(g, 2, 0, 0)),
                   page_command(Op::kProgram, page(g, 2, 1, 0), 0, 1)};
  EXPECT_FALSE(s.scheduler.submit(list, 0, WorkClass::kHostWrite, HostWait::kNone, 7));
  s.scheduler.drain();
  // Both reads' arrays overlap, their transfers follow one another, then
  // the program's transfer and array.
  EXPECT_EQ(s.recorder.done[7], t.read_ns + 2 * transfer + transfer + t.program_ns);
}

TEST(FlashScheduler, AHostChainThatWaitsStartsWhenTheCleaningChainEnds) {
  const Geometry g = testing::small_geometry(2, Interleaving::kDies);
  const Timing t;
  const TimeNs transfer = t.page_transfer_ns(g);
  Scheduled s(g, t);
  Command erase = page_command(Op::kErase, page(g, 0, 2, 0), 0);
  erase.cleaning = true;
  CommandList list{erase, program_of(page(g, 2, 0, 0))};  // the program on the other die
  EXPECT_FALSE(s.scheduler.submit(list, 0, WorkClass::kHostWrite, HostWait::kRequest, 3));
  s.scheduler.drain();
  EXPECT_EQ(s.recorder.done[3], t.erase_ns + transfer + t.program_ns);
  ASSERT_EQ(s.recorder.cleaning.size(), 1u);
  EXPECT_EQ(s.recorder.cleaning[0], std::make_pair(TimeNs{0}, t.erase_ns));
}

// Agrawal et al. §4.1: only the element that cleans delays its part of the
// request. Two packages of one die each (on two channels): the erase cleans
// package 0; the request writes a page on each package.
TEST(FlashScheduler, OnlyThePartOfARequestOnTheCleaningPackageWaits) {
  Geometry g = testing::small_geometry(1, Interleaving::kDies);
  g.channels = 2;
  const Timing t;
  const TimeNs transfer = t.page_transfer_ns(g);
  const TimeNs write = transfer + t.program_ns;
  const Ppn on_package_1 = page(g, 2, 0, 0);
  Command erase = page_command(Op::kErase, page(g, 0, 2, 0), 0);
  erase.cleaning = true;
  for (const HostWait wait : {HostWait::kPackage, HostWait::kRequest}) {
    Scheduled s(g, t);
    CommandList list{erase, program_of(page(g, 1, 0, 0)), program_of(on_package_1)};
    EXPECT_FALSE(s.scheduler.submit(list, 0, WorkClass::kHostWrite, wait, 3));
    // A later request on package 1 only, while package 0 cleans.
    s.scheduler.advance(10);
    const auto later = [&] {
      CommandList second{program_of(page(g, 3, 0, 1))};
      return s.scheduler.submit(second, 10, WorkClass::kHostWrite, HostWait::kNone, 4);
    }();
    s.scheduler.drain();
    if (wait == HostWait::kPackage) {
      // Package 1's page is written at once; package 0's after the erase.
      EXPECT_EQ(s.recorder.done[3], t.erase_ns + write);
      // Package 1's die took the first request's page, then this one.
      ASSERT_FALSE(later);
      EXPECT_EQ(s.recorder.done[4], 2 * write);
    } else {
      EXPECT_EQ(s.recorder.done[3], t.erase_ns + write);
      // Package 1 was idle: the later request did not wait behind cleaning.
      ASSERT_TRUE(later);
      EXPECT_EQ(*later, 10 + write);
    }
    EXPECT_TRUE(s.scheduler.idle());
  }
}

// Agrawal et al. §2.2: two copy-backs "may themselves be interleaved on
// different planes". Two cleaning jobs queue a copy-back each on the planes
// of one pair behind a busy die; with plane interleaving they run as one
// two-plane copy-back when their sources and their targets share offsets.
TEST(FlashScheduler, QueuedCopyBacksOfAPlanePairJoinAtTheSameOffsets) {
  const Timing t;
  const TimeNs copy = t.read_ns + t.program_ns;
  for (const Interleaving interleaving : {Interleaving::kDies, Interleaving::kPlanes}) {
    for (const std::uint32_t target_offset : {5u, 6u}) {
      const Geometry g = testing::small_geometry(1, interleaving);
      Scheduled s(g, t);
      s.submit(0, read_of(page(g, 0, 0, 0)), 0);  // the die is busy until this read ends
      const TimeNs busy = t.read_ns + t.page_transfer_ns(g);
      for (std::uint32_t plane = 0; plane < 2; ++plane) {
        Command move =
            page_command(Op::kCopyBack, page(g, plane, 1, plane == 0 ? 5 : target_offset), 0, 0,
                         page(g, plane, 2, 3));
        move.cleaning = true;
        CommandList list{move};
        EXPECT_TRUE(s.scheduler.submit(list, 1, WorkClass::kHostWrite, HostWait::kNone, 1 + plane));
      }
      std::vector<std::pair<TimeNs, TimeNs>>& cleaning = s.recorder.cleaning;
      s.scheduler.drain();
      ASSERT_EQ(cleaning.size(), 2u);
      const bool joined = interleaving == Interleaving::kPlanes && target_offset == 5;
      EXPECT_EQ(cleaning[0].second, busy + copy);
      EXPECT_EQ(cleaning[1].second, busy + (joined ? copy : 2 * copy));
      EXPECT_EQ(s.scheduler.timeline().stats().two_plane_commands, joined ? 1u : 0u);
    }
  }
}

// An inter-plane move (cleaning without copy-back) reads on its source die,
// then waits its turn in the target die's queue for its program: a host
// program queued there first goes first.
TEST(FlashScheduler, AMovesProgramWaitsInTheTargetDiesQueue) {
  const Geometry g = testing::small_geometry(2, Interleaving::kDies);
  const Timing t;
  const TimeNs transfer = t.page_transfer_ns(g);
  Scheduled s(g, t);
  s.submit(1, program_of(page(g, 2, 0, 0)), 0, WorkClass::kHostWrite);  // die 1, at once
  s.submit(2, program_of(page(g, 3, 0, 0)), 0, WorkClass::kHostWrite);  // queued behind it
  Command move = page_command(Op::kMove, page(g, 2, 3, 0), 0, 0, page(g, 0, 1, 5));
  move.cleaning = true;
  CommandList list{move};
  s.scheduler.submit(list, 0, WorkClass::kHostWrite, HostWait::kNone, 3);
  s.scheduler.drain();
  // The move's read (die 0) waits for the bus behind program 1's transfer;
  // its data is out at 2 transfers, while die 1 still programs. Die 1 then
  // takes program 2 (queued first), then the move's program.
  EXPECT_EQ(s.recorder.done[1], transfer + t.program_ns);
  EXPECT_EQ(s.recorder.done[2], 2 * (transfer + t.program_ns));
  ASSERT_EQ(s.recorder.cleaning.size(), 1u);
  EXPECT_EQ(s.recorder.cleaning[0].second, 3 * (transfer + t.program_ns));
  EXPECT_TRUE(s.scheduler.idle());
}

TEST(HostWait, NamesRoundTrip) {
  for (const HostWait wait : {HostWait::kNone, HostWait::kPackage, HostWait::kRequest}) {
    HostWait parsed = HostWait::kNone;
    ASSERT_TRUE(parse_host_wait(host_wait_name(wait), parsed));
    EXPECT_EQ(parsed, wait);
  }
  HostWait parsed = HostWait::kNone;
  EXPECT_FALSE(parse_host_wait("die", parsed));
}

TEST(FlashScheduler, AJobOnFreeDiesCompletesAtOnce) {
  const Geometry g = testing::small_geometry(2, Interleaving::kDies);
  const Timing t;
  Scheduled s(g, t);
  CommandList list{program_of(page(g, 0, 0, 0)), program_of(page(g, 2, 0, 0))};
  const auto done = s.scheduler.submit(list, 100, WorkClass::kHostWrite, HostWait::kNone, 1);
  ASSERT_TRUE(done);
  EXPECT_EQ(*done, 100 + 2 * t.page_transfer_ns(g) + t.program_ns);
  EXPECT_TRUE(s.scheduler.idle());
  EXPECT_EQ(s.scheduler.next_event(), kNever);
}

TEST(DispatchOrder, ParsesFifoAndEveryPermutationAndRefusesTheRest) {
  DispatchOrder order;
  EXPECT_TRUE(parse_dispatch_order("fifo", order));
  EXPECT_TRUE(order.fifo);
  EXPECT_TRUE(parse_dispatch_order("cleaning>read>write", order));
  EXPECT_FALSE(order.fifo);
  EXPECT_EQ(dispatch_order_name(order), "cleaning>read>write");
  for (const char* bad : {"", "read", "read>write", "read>read>write", "read>write>cleaning>read",
                          "read>write>clean", "FIFO"})
    EXPECT_FALSE(parse_dispatch_order(bad, order)) << bad;
}

}  // namespace
}  // namespace ssdlab::flash
