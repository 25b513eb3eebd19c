// The die latches in the flash scheduler (flash/die_latches.h) on one TLC
// die: a read that arrives while the die holds a wordline's staged pages
// waits for the wordline's program, where without latches it passes them;
// a list that leaves a wordline's last page to a later stage does not hold
// the die across it (the latch is let go and counted).
#include <gtest/gtest.h>

#include <map>

#include "flash/cell.h"
#include "flash/scheduler.h"
#include "flash_support.h"

namespace ssdlab::flash {
namespace {

// One die of two planes, 48-page TLC blocks with one-shot programs.
struct TlcDie : FlashScheduler::Listener {
  explicit TlcDie(bool latches) : scheduler(geometry(), timing(), reads_first()) {
    scheduler.set_listener(this);
    if (latches) scheduler.hold_wordline_latches();
  }
  static Geometry geometry() {
    Geometry g = testing::small_geometry(1);
    g.pages_per_block = 48;  // (whole TLC wordlines)
    g.cell_type = CellType::kTlc;
    return g;
  }
  static Timing timing() {
    Timing t;
    t.cell = default_cell_timing(CellType::kTlc, ProgramScheme::kOneShot);
    return t;
  }
  static DispatchOrder reads_first() {
    DispatchOrder order;
    EXPECT_TRUE(parse_dispatch_order("read>write>cleaning", order));
    return order;
  }
  void host_done(std::uint64_t tag, TimeNs at) override { done[tag] = at; }
  void cleaning_done(std::uint64_t, TimeNs, TimeNs) override {}
  void submit(std::uint64_t tag, CommandList list, TimeNs now, WorkClass work) {
    if (const auto at = scheduler.submit(list, now, work, HostWait::kNone, tag)) done[tag] = *at;
  }
  // A wordline's three pages on plane 0 (the last in stage `last_stage`),
  // then a read of plane 1 just after the first page came in.
  void write_then_read(std::uint8_t last_stage) {
    CommandList wordline{page_command(Op::kProgram, 0, 0), page_command(Op::kProgram, 1, 1),
                         page_command(Op::kProgram, 2, 2, last_stage)};
    submit(1, wordline, 0, WorkClass::kHostWrite);
    const Ppn plane1 = geometry().pages_per_block * geometry().blocks_per_plane;
    submit(2, {page_command(Op::kRead, plane1, 7)}, 1'000, WorkClass::kHostRead);
    scheduler.drain();
  }
  FlashScheduler scheduler;
  std::map<std::uint64_t, TimeNs> done;
};

TEST(DieLatchesScheduler, AReadWaitsForTheStagedWordlinesProgram) {
  TlcDie latched(true);
  latched.write_then_read(0);
  ASSERT_EQ(latched.done.size(), 2u);
  // The die is busy with the wordline's program once its pages are in.
  EXPECT_GE(latched.done[2], latched.done[1]);
  EXPECT_EQ(latched.scheduler.latches_released_open(), 0u);
  // Without latches, host reads first: the read goes between the transfers.
  TlcDie unlatched(false);
  unlatched.write_then_read(0);
  EXPECT_LT(unlatched.done[2], unlatched.done[1] / 4);
}

TEST(DieLatchesScheduler, AWordlineLeftOpenAtAStagesEndIsLetGo) {
  TlcDie die(true);
  die.write_then_read(1);
  ASSERT_EQ(die.done.size(), 2u);  // (nothing waits for ever)
  EXPECT_EQ(die.scheduler.latches_released_open(), 1u);
  // Let go, the die serves the read before the wordline's last page.
  EXPECT_LT(die.done[2], die.done[1]);
  EXPECT_TRUE(die.scheduler.idle());
}

// The same pages written again by a later list (their block erased and
// reused in between, as cleaning does with a queue of lists ahead of the
// flash) are another wordline: its later pages wait for its own first page,
// never continue the earlier list's wordline (which left the die waiting
// for a page that had already run: a deadlock at queue depth 8 and up on
// tiny-tlc, docs/model.md).
TEST(DieLatchesScheduler, APageOfALaterListNeverContinuesAnotherListsWordline) {
  TlcDie die(true);
  const CommandList wordline{page_command(Op::kProgram, 0, 0), page_command(Op::kProgram, 1, 1),
                             page_command(Op::kProgram, 2, 2)};
  die.submit(1, wordline, 0, WorkClass::kHostWrite);
  die.submit(2, wordline, 0, WorkClass::kHostWrite);
  die.scheduler.drain();
  ASSERT_EQ(die.done.size(), 2u);  // (nothing waits for ever)
  EXPECT_TRUE(die.scheduler.idle());
  // The second wordline's program follows the first's, all three pages in.
  EXPECT_GT(die.done[2], die.done[1]);
  EXPECT_EQ(die.scheduler.latches_released_open(), 0u);
}

}  // namespace
}  // namespace ssdlab::flash
