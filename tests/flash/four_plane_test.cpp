// Four-plane dies (Geometry::multi_plane 4): the flash scheduler joins a
// command of each plane pair of a die at one page offset into one
// four-plane operation (FlashTimeline::schedule_joined), queued single-plane
// commands and two-plane ones alike. Every expectation follows from the
// timing parameters.
#include <gtest/gtest.h>

#include <map>

#include "flash/scheduler.h"

namespace ssdlab::flash {
namespace {

Geometry four_planes(std::uint32_t multi_plane) {
  Geometry g;
  g.channels = 1;
  g.packages_per_channel = 1;
  g.dies_per_package = 1;
  g.planes_per_die = 4;
  g.blocks_per_plane = 8;
  g.pages_per_block = 16;
  g.two_plane_pairs = {{0, 1}, {2, 3}};
  g.interleaving = Interleaving::kPlanes;
  g.multi_plane = multi_plane;
  return g;
}

struct Recorder : FlashScheduler::Listener {
  std::map<std::uint64_t, TimeNs> done;
  void host_done(std::uint64_t tag, TimeNs at) override { done[tag] = at; }
  void cleaning_done(std::uint64_t tag, TimeNs, TimeNs end) override { done[tag] = end; }
};

struct Die {
  explicit Die(std::uint32_t multi_plane, const Timing& t = {})
      : g(four_planes(multi_plane)), scheduler(g, t, DispatchOrder{}) {
    scheduler.set_listener(&recorder);
  }
  // Submits one job of `commands`; records an inline completion too.
  void submit(std::uint64_t tag, CommandList commands, TimeNs now = 0,
              WorkClass work = WorkClass::kHostWrite) {
    if (const auto at = scheduler.submit(commands, now, work, HostWait::kNone, tag))
      recorder.done[tag] = *at;
  }
  Ppn page(std::uint32_t plane, std::uint32_t block, std::uint32_t offset) const {
    return (plane * g.blocks_per_plane + block) * g.pages_per_block + offset;
  }
  const TimelineStats& stats() const { return scheduler.timeline().stats(); }
  Geometry g;
  FlashScheduler scheduler;
  Recorder recorder;
};

Command command_of(Op op, Ppn ppn, Ppn src = kNoPage) {
  return page_command(op, ppn, 0, 0, src);
}

// Four programs queue behind a busy die, one on each plane at one offset:
// with multi_plane 4 they are one operation (four transfers, one program);
// with 2, two two-plane programs one after the other.
TEST(FourPlane, QueuedProgramsOfTheFourPlanesAreOneOperation) {
  const Timing t;
  for (const std::uint32_t multi_plane : {2u, 4u}) {
    SCOPED_TRACE(multi_plane);
    Die s(multi_plane);
    const TimeNs transfer = t.page_transfer_ns(s.g);
    s.submit(0, {command_of(Op::kProgram, s.page(0, 0, 0))});
    // (multi_plane 4 queues even on a free die; the first is taken alone, nothing else is there.)
    s.scheduler.drain();
    const TimeNs first = transfer + t.program_ns;
    ASSERT_EQ(s.recorder.done[0], first);
    s.submit(9, {command_of(Op::kProgram, s.page(0, 0, 1))},
             first - 1);  // busy until past 2 x first
    for (std::uint32_t plane = 0; plane < 4; ++plane)
      s.submit(1 + plane, {command_of(Op::kProgram, s.page(plane, 1, 3))}, first);
    s.scheduler.drain();
    const TimeNs busy = s.recorder.done[9];
    if (multi_plane == 4) {
      for (std::uint64_t tag = 1; tag <= 4; ++tag)
        EXPECT_EQ(s.recorder.done[tag], busy + 4 * transfer + t.program_ns) << tag;
      EXPECT_EQ(s.stats().four_plane_commands, 1u);
    } else {
      EXPECT_EQ(s.recorder.done[2], busy + 2 * transfer + t.program_ns);
      EXPECT_EQ(s.recorder.done[4], busy + 2 * (2 * transfer + t.program_ns));
      EXPECT_EQ(s.stats().four_plane_commands, 0u);
    }
    EXPECT_EQ(s.stats().two_plane_commands, 2u);
  }
}

// The FTL's own two-plane commands (ppn2 set), one per pair, arriving in one
// list on a free die: the die takes them together.
TEST(FourPlane, TwoPlaneCommandsOfOneListOnAFreeDieJoin) {
  const Timing t;
  Die s(4);
  const TimeNs transfer = t.page_transfer_ns(s.g);
  Command a = command_of(Op::kProgram, s.page(0, 2, 5));
  a.ppn2 = s.page(1, 2, 5);
  Command b = command_of(Op::kProgram, s.page(2, 4, 5));
  b.ppn2 = s.page(3, 6, 5);
  s.submit(1, {a, b});
  s.scheduler.drain();
  EXPECT_EQ(s.recorder.done[1], 4 * transfer + t.program_ns);
  EXPECT_EQ(s.stats().four_plane_commands, 1u);
  EXPECT_EQ(s.stats().commands[static_cast<std::size_t>(Op::kProgram)], 2u);
}

// Only the same page offset joins across the pairs (as within a pair), and
// only commands of one op.
TEST(FourPlane, OtherOffsetsAndOtherOpsDoNotJoin) {
  const Timing t;
  Die s(4);
  const TimeNs transfer = t.page_transfer_ns(s.g);
  s.submit(1, {command_of(Op::kProgram, s.page(0, 1, 3)), command_of(Op::kProgram, s.page(2, 1, 4)),
               command_of(Op::kRead, s.page(3, 1, 3))});
  s.scheduler.drain();
  EXPECT_EQ(s.stats().four_plane_commands, 0u);
  EXPECT_EQ(s.recorder.done[1], 2 * (transfer + t.program_ns) + t.read_ns + transfer);
}

// Reads and erases join as programs do: one array time for the four planes.
TEST(FourPlane, ReadsAndErasesOfTheFourPlanesJoin) {
  const Timing t;
  for (const Op op : {Op::kRead, Op::kErase}) {
    SCOPED_TRACE(op_name(op));
    Die s(4);
    const TimeNs transfer = t.page_transfer_ns(s.g);
    CommandList list;
    for (std::uint32_t plane = 0; plane < 4; ++plane)
      list.push_back(command_of(op, s.page(plane, 1, op == Op::kErase ? 0 : 7)));
    s.submit(1, list, 0, op == Op::kRead ? WorkClass::kHostRead : WorkClass::kHostWrite);
    s.scheduler.drain();
    EXPECT_EQ(s.recorder.done[1], op == Op::kRead ? t.read_ns + 4 * transfer : t.erase_ns);
    EXPECT_EQ(s.stats().four_plane_commands, 1u);
    EXPECT_EQ(s.stats().two_plane_commands, 2u);
  }
}

// Cleaning's moves: four moves whose sources and targets each lie at one
// offset on the four planes are one four-plane read, then one program.
TEST(FourPlane, MovesJoinTheirReadsAndTheirPrograms) {
  const Timing t;
  Die s(4);
  const TimeNs transfer = t.page_transfer_ns(s.g);
  CommandList list;
  for (std::uint32_t plane = 0; plane < 4; ++plane) {
    Command move = command_of(Op::kMove, s.page(plane, 2, 1), s.page(plane, 5, 9));
    move.cleaning = true;
    list.push_back(move);
  }
  s.submit(1, list);
  s.scheduler.drain();
  EXPECT_EQ(s.recorder.done[1], t.read_ns + 4 * transfer + 4 * transfer + t.program_ns);
  EXPECT_EQ(s.stats().four_plane_commands, 1u);
}

// Three planes: a pair and a single-plane command of the other pair.
TEST(FourPlane, APairJoinsASingleCommandOfTheOtherPair) {
  const Timing t;
  Die s(4);
  const TimeNs transfer = t.page_transfer_ns(s.g);
  s.submit(1, {command_of(Op::kProgram, s.page(0, 1, 2)), command_of(Op::kProgram, s.page(1, 3, 2)),
               command_of(Op::kProgram, s.page(3, 1, 2))});
  s.scheduler.drain();
  EXPECT_EQ(s.recorder.done[1], 3 * transfer + t.program_ns);
  EXPECT_EQ(s.stats().four_plane_commands, 1u);
  EXPECT_EQ(s.stats().two_plane_commands, 1u);
}

}  // namespace
}  // namespace ssdlab::flash
