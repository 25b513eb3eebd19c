// Program/erase suspend (flash/suspend.h; the design at the top of
// flash/scheduler.h): host reads suspend a die's program or erase, whose
// completion then moves later. Every expectation follows from the timing.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "flash/scheduler.h"
#include "flash_support.h"

namespace ssdlab::flash {
namespace {

constexpr TimeNs kUs = 1000;

SuspendTiming suspend_on(std::uint32_t limit = 4) {
  SuspendTiming s;
  s.enabled = true;
  s.program_suspend_ns = s.erase_suspend_ns = 20 * kUs;
  s.resume_ns = 30 * kUs;
  s.limit = limit;
  s.min_interval_ns = 0;  // (tests of the interval set it)
  return s;
}

struct Recorder : FlashScheduler::Listener {
  std::map<std::uint64_t, TimeNs> done;
  std::vector<TimeNs> cleaning_ends;
  void host_done(std::uint64_t tag, TimeNs at) override { done[tag] = at; }
  void cleaning_done(std::uint64_t, TimeNs, TimeNs end) override { cleaning_ends.push_back(end); }
};

class Device {
 public:
  explicit Device(const SuspendTiming& suspend)
      : scheduler(testing::small_geometry(1), timing, DispatchOrder{}, suspend) {
    scheduler.set_listener(&recorder);
  }
  // Advances to `now` first, as the owner does, then submits `list`.
  void submit(std::uint64_t tag, CommandList list, TimeNs now, WorkClass work) {
    scheduler.advance(now, now);
    if (const auto done = scheduler.submit(list, now, work, HostWait::kNone, tag))
      recorder.done[tag] = *done;
  }
  TimeNs done(std::uint64_t tag) {
    scheduler.drain();
    EXPECT_TRUE(recorder.done.count(tag)) << tag;
    return recorder.done[tag];
  }
  TimeNs transfer() const { return timing.page_transfer_ns(testing::small_geometry(1)); }
  Timing timing;
  FlashScheduler scheduler;
  Recorder recorder;
};

Command erase_of(Ppn block_start) { return page_command(Op::kErase, block_start, kNoLpn); }
Command read_of(Ppn ppn) { return page_command(Op::kRead, ppn, 0); }
const Ppn kOtherBlock = 16 * 3;  // block 3 of plane 0

TEST(Suspend, AReadBehindAnEraseCompletesAfterSuspendReadAndTransferNotAfterTheErase) {
  Device d(suspend_on());
  d.submit(1, {erase_of(0)}, 0, WorkClass::kHostWrite);
  d.submit(2, {read_of(kOtherBlock)}, 100 * kUs, WorkClass::kHostRead);
  const TimeNs read_done = 100 * kUs + 20 * kUs + d.timing.read_ns + d.transfer();
  EXPECT_EQ(d.done(2), read_done);
  // The erase ends later by suspend + read array time + resume.
  EXPECT_EQ(d.done(1), d.timing.erase_ns + 20 * kUs + d.timing.read_ns + 30 * kUs);
  EXPECT_EQ(d.scheduler.timeline().stats().suspend.erase_suspensions, 1u);
  EXPECT_EQ(d.scheduler.timeline().die_free_at(0), d.done(1));
}

TEST(Suspend, TheJobsNextStageFollowsTheMovedEnd) {
  Device d(suspend_on());
  Command program = page_command(Op::kProgram, 0, 7, 1);
  d.submit(1, {erase_of(0), program}, 0, WorkClass::kHostWrite);
  d.submit(2, {read_of(kOtherBlock)}, 100 * kUs, WorkClass::kHostRead);
  const TimeNs erase_end = d.timing.erase_ns + 50 * kUs + d.timing.read_ns;
  EXPECT_EQ(d.done(1), erase_end + d.transfer() + d.timing.program_ns);
}

TEST(Suspend, AProgramIsSuspendedInItsArrayPhaseOnly) {
  Device d(suspend_on());
  const TimeNs transfer = d.transfer();
  d.submit(1, {page_command(Op::kProgram, 0, 7)}, 0, WorkClass::kHostWrite);
  // During the data transfer in: no array phase to suspend yet, it waits.
  d.submit(2, {read_of(kOtherBlock)}, transfer / 2, WorkClass::kHostRead);
  // During the program: suspends it.
  d.submit(3, {read_of(kOtherBlock + 1)}, transfer + 50 * kUs, WorkClass::kHostRead);
  const TimeNs read3 = transfer + 50 * kUs + 20 * kUs + d.timing.read_ns + transfer;
  const TimeNs program = transfer + d.timing.program_ns + 50 * kUs + d.timing.read_ns;
  EXPECT_EQ(d.done(3), read3);
  EXPECT_EQ(d.done(1), program);
  EXPECT_EQ(d.done(2), program + d.timing.read_ns + transfer);
  EXPECT_EQ(d.scheduler.timeline().stats().suspend.program_suspensions, 1u);
}

TEST(Suspend, BeyondTheLimitReadsWaitForTheOperation) {
  Device d(suspend_on(2));
  d.submit(1, {erase_of(0)}, 0, WorkClass::kHostWrite);
  for (std::uint64_t i = 0; i < 3; ++i)
    d.submit(2 + i, {read_of(kOtherBlock + static_cast<Ppn>(i))}, (100 + 300 * i) * kUs,
             WorkClass::kHostRead);
  const TimeNs shift = 50 * kUs + d.timing.read_ns;
  const TimeNs erase_end = d.timing.erase_ns + 2 * shift;
  EXPECT_EQ(d.done(1), erase_end);
  EXPECT_EQ(d.done(3), 400 * kUs + 20 * kUs + d.timing.read_ns + d.transfer());
  EXPECT_EQ(d.done(4), erase_end + d.timing.read_ns + d.transfer());
  EXPECT_EQ(d.scheduler.timeline().stats().suspend.erase_suspensions, 2u);
}

TEST(Suspend, ASecondReadDuringASuspensionSuspendsAgainAfterTheResume) {
  Device d(suspend_on());
  d.submit(1, {erase_of(0)}, 0, WorkClass::kHostWrite);
  d.submit(2, {read_of(kOtherBlock)}, 100 * kUs, WorkClass::kHostRead);
  d.submit(3, {read_of(kOtherBlock + 1)}, 110 * kUs, WorkClass::kHostRead);
  // The second suspends once the first has resumed; its transfer follows
  // the first's on the bus.
  const TimeNs resumed = 100 * kUs + 50 * kUs + d.timing.read_ns;
  const TimeNs first = 100 * kUs + 20 * kUs + d.timing.read_ns + d.transfer();
  EXPECT_EQ(d.done(2), first);
  EXPECT_EQ(d.done(3), std::max(resumed + 20 * kUs + d.timing.read_ns, first) + d.transfer());
  EXPECT_EQ(d.done(1), d.timing.erase_ns + 2 * (50 * kUs + d.timing.read_ns));
}

TEST(Suspend, TheNextSuspensionWaitsTheMinimumIntervalAfterAResume) {
  SuspendTiming timing = suspend_on();
  timing.min_interval_ns = 200 * kUs;
  Device d(timing);
  d.submit(1, {erase_of(0)}, 0, WorkClass::kHostWrite);
  d.submit(2, {read_of(kOtherBlock)}, 100 * kUs, WorkClass::kHostRead);
  d.submit(3, {read_of(kOtherBlock + 1)}, 110 * kUs, WorkClass::kHostRead);
  // The first suspension resumes at `resumed`; the second may start 200 us
  // later, not at once (a unit test of the rule, fidelity review G8).
  const TimeNs resumed = 100 * kUs + 50 * kUs + d.timing.read_ns;
  EXPECT_EQ(d.done(3), resumed + 200 * kUs + 20 * kUs + d.timing.read_ns + d.transfer());
  EXPECT_EQ(d.done(1), d.timing.erase_ns + 2 * (50 * kUs + d.timing.read_ns));
  EXPECT_EQ(d.scheduler.timeline().stats().suspend.erase_suspensions, 2u);
}

TEST(Suspend, ByDefaultAnEraseTakesLongerToSuspendThanAProgramAndRunsThatLongBetween) {
  SuspendTiming timing;  // the defaults: program 100 us, erase 500 us, resume 0
  timing.enabled = true;
  Device d(timing);
  d.submit(1, {erase_of(0)}, 0, WorkClass::kHostWrite);
  d.submit(2, {read_of(kOtherBlock)}, 100 * kUs, WorkClass::kHostRead);
  d.submit(3, {read_of(kOtherBlock + 1)}, 110 * kUs, WorkClass::kHostRead);
  const TimeNs first = 100 * kUs + 500 * kUs + d.timing.read_ns;  // its array read's end
  EXPECT_EQ(d.done(2), first + d.transfer());
  // Resumed at `first`, the erase runs its own suspend time again (500 us)
  // before the next read may stop it (the interval's default).
  EXPECT_EQ(d.done(3), first + 500 * kUs + 500 * kUs + d.timing.read_ns + d.transfer());
  // A program stops in 100 us.
  Device p(timing);
  p.submit(1, {page_command(Op::kProgram, 0, 7)}, 0, WorkClass::kHostWrite);
  const TimeNs during = p.transfer() + 50 * kUs;
  p.submit(2, {read_of(kOtherBlock)}, during, WorkClass::kHostRead);
  EXPECT_EQ(p.done(2), during + 100 * kUs + p.timing.read_ns + p.transfer());
  EXPECT_EQ(p.scheduler.timeline().stats().suspend.program_suspensions, 1u);
}

TEST(Suspend, CleaningReadsAndAWritesReadsDoNotSuspend) {
  Device d(suspend_on());
  d.submit(1, {erase_of(0)}, 0, WorkClass::kHostWrite);
  Command cleaning_read = read_of(kOtherBlock);
  cleaning_read.cleaning = true;
  d.submit(2, {cleaning_read}, 100 * kUs, WorkClass::kHostRead);
  d.submit(3, {read_of(kOtherBlock + 1)}, 100 * kUs, WorkClass::kHostWrite);  // a read-modify-write's
  EXPECT_EQ(d.done(1), d.timing.erase_ns);
  ASSERT_EQ(d.recorder.cleaning_ends.size(), 1u);
  EXPECT_GE(d.recorder.cleaning_ends[0], d.timing.erase_ns + d.timing.read_ns + d.transfer());
  EXPECT_GE(d.done(3), d.timing.erase_ns + d.timing.read_ns + d.transfer());
  EXPECT_EQ(d.scheduler.timeline().stats().suspend.erase_suspensions, 0u);
}

TEST(Suspend, OffTheReadWaitsForTheEraseAsBefore) {
  Device d(SuspendTiming{});
  d.submit(1, {erase_of(0)}, 0, WorkClass::kHostWrite);
  EXPECT_EQ(d.recorder.done[1], d.timing.erase_ns);  // known at dispatch, as before
  d.submit(2, {read_of(kOtherBlock)}, 100 * kUs, WorkClass::kHostRead);
  EXPECT_EQ(d.done(2), d.timing.erase_ns + d.timing.read_ns + d.transfer());
  EXPECT_EQ(d.scheduler.timeline().stats().suspend.erase_suspensions, 0u);
}

TEST(Suspend, TheSchedulerIsIdleOnceEveryHeldOperationCompleted) {
  Device d(suspend_on());
  d.submit(1, {erase_of(0)}, 0, WorkClass::kHostWrite);
  EXPECT_FALSE(d.scheduler.idle());  // its completion is held, not reported
  EXPECT_EQ(d.recorder.done.count(1), 0u);
  d.scheduler.drain();
  EXPECT_TRUE(d.scheduler.idle());
  EXPECT_EQ(d.recorder.done[1], d.timing.erase_ns);
}

}  // namespace
}  // namespace ssdlab::flash
