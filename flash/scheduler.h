// The flash scheduler: per-die command queues, decided at dispatch time.
//
// Agrawal et al. §2.2 and §4.3: the simulator "accounts for interleaving by
// noticing when two requests are queued on a flash package that can proceed
// concurrently according to the hardware constraints". Each unit that serves
// one command at a time (a die, or a package without interleaving:
// Geometry::interleaving) has a queue per class of work. When the unit can
// take a command (flash/timeline.h: its array, or its cache register, is
// free), the scheduler picks the next one by the dispatch order (oldest first,
// or by class: host reads, host writes, cleaning) and reserves its phases on
// the timelines. With plane interleaving it joins the picked single-plane read
// or program with a queued one of the same kind on an allowed plane pair at
// the same page offset (another request's, too) into one two-plane command;
// so too cleaning's copy-backs, moves and erases (pairs_with()).
//
// A job is one command list (flash/command.h): host commands form one chain
// of stages and cleaning commands another; a stage's commands are queued when
// every command of the stage before has completed. Host commands may wait for
// the cleaning chain (HostWait): those on a package the cleaning uses, or the
// whole host chain. When nothing has to wait, a job is dispatched at once and
// costs what the timeline's arithmetic costs: events exist only for queued
// commands and later stages.
//
// Time moves only through advance(): the owner (the Ssd, driven by the host
// loop) processes the scheduler's events in time order with its own. A job
// submitted at `now` behind events still pending before `now` is first come,
// first served behind them (run_until_done() runs ahead, for the controller
// paths that need a completion time at once: buffer flushes, power cuts).
//
// Program/erase suspend (timing.suspend, flash/suspend.h) breaks "the end of
// a command is known at dispatch" for programs and erases, so with it on:
//  - a program or erase (single- or two-plane) never takes dispatch_at_once();
//    when a unit takes one, its phases are reserved as usual
//    (FlashTimeline::schedule_suspendable) but its completion is held: an
//    event at its end (kOpDone) reports it to its chain, and through the
//    chain to release() and host_done(), at its true end;
//  - a host read (WorkClass::kHostRead, Op::kRead) arriving on a unit that
//    holds one asks the timeline to suspend it (FlashTimeline::
//    suspend_for_read: in its array phase, the unit's last reservation,
//    suspensions left); if it can, the read is reserved at once and the
//    held operation's end moves later: its event is pushed again at the new
//    end and the old one is superseded (as wake_at_ supersedes wake-ups);
//    if it cannot, the read queues as without suspend. Reads already queued
//    when the unit frees, cleaning reads and the reads of a write's
//    read-modify-write never suspend;
//  - one operation per unit is held: when the unit takes another (a cache
//    register lets a program reserve behind one in flight), the earlier one
//    can no longer move, and its completion is reported then.
// With suspend off none of this runs (one branch on `suspend_` per path).
// Power-cut runs reserve through PowerSafeScheduling, not here (nothing is
// suspended: FlashTimeline::restart_at forgets what was in flight); a
// checkpoint is saved with the scheduler idle, nothing held.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <queue>
#include <vector>

#include "common/units.h"
#include "flash/command.h"
#include "flash/command_queues.h"
#include "flash/die_latches.h"
#include "flash/flin.h"
#include "flash/timeline.h"

namespace ssdlab::flash {

inline constexpr TimeNs kNever = std::numeric_limits<TimeNs>::max();

// Classes of flash work at dispatch.
enum class WorkClass : std::uint8_t { kHostRead, kHostWrite, kCleaning };
inline constexpr std::size_t kWorkClasses = 3;
static_assert(kWorkClasses == CommandQueues::kClasses);
const char* work_class_name(WorkClass work);

// Which host commands of a job wait for its cleaning chain to complete.
// Agrawal et al. §4.1: cleaning delays the write that triggers it, and "only
// the element that cleans" delays its part of the request (kPackage); the
// rest of the device goes on serving. kRequest holds the whole host chain.
enum class HostWait : std::uint8_t { kNone, kPackage, kRequest };
const char* host_wait_name(HostWait wait);
bool parse_host_wait(std::string_view name, HostWait& out);

// Which queued command a unit takes next: the oldest (`fifo`), the oldest
// of the first class in `order` that has one, (`fewest-queued`, a few of
// FLIN's ideas: scheduler_fewest_queued.cpp) the oldest of the flow with the
// fewest commands queued, with an age bound, or (`flin`: flash/flin.h,
// scheduler_flin.cpp) FLIN's three stages with `flin_settings`.
struct DispatchOrder {
  bool fifo = true;
  bool fewest_queued = false;  // (fifo is false then)
  bool flin = false;           // (fifo is false then)
  std::array<WorkClass, kWorkClasses> order = {WorkClass::kHostRead, WorkClass::kHostWrite,
                                               WorkClass::kCleaning};
  FlinSettings flin_settings;  // [controller.flin]; used with `flin` only
};
// "fifo", "fewest-queued" (also read as "fair", its former name), "flin", or
// the three classes in order joined by '>'
// ("read>write>cleaning"). Parsing keeps `out.flin_settings`.
std::string dispatch_order_name(const DispatchOrder& order);
// Parses what dispatch_order_name() writes; false if `name` is none of them.
bool parse_dispatch_order(std::string_view name, DispatchOrder& out);

// The fewest-queued order's age bound: a unit's oldest queued command is passed over
// by at most this many commands the unit takes; then it goes next.
inline constexpr std::uint32_t kFewestQueuedBypassLimit = 16;

class FlashScheduler {
 public:
  // What a job's chains did, for the owner.
  struct Listener {
    virtual ~Listener() = default;
    // The host chain of the job submitted with `tag` completes at `at`
    // (reported once its last command is dispatched, possibly before `at`).
    virtual void host_done(std::uint64_t tag, TimeNs at) = 0;
    // The cleaning chain of a job submitted at `start` completes at `end`.
    virtual void cleaning_done(std::uint64_t tag, TimeNs start, TimeNs end) = 0;
  };

  FlashScheduler(const Geometry& geometry, const Timing& timing, DispatchOrder order,
                 const SuspendTiming& suspend = {});

  FlashTimeline& timeline() { return timeline_; }
  const FlashTimeline& timeline() const { return timeline_; }
  void set_listener(Listener* listener) { listener_ = listener; }

  // Queues `commands` from `now`. Host commands are of class `host_class`
  // (cleaning commands are kCleaning). Returns the host chain's completion
  // time if every host command was dispatched at once (the listener is not
  // told then), else nothing: the listener's host_done() reports it under
  // `tag`. A list without host commands completes at `now`.
  // `commands` is copied and left empty (its storage kept for the next list).
  // `flow`: the tenant the job belongs to, its cleaning too (the `fewest-queued`
  // order tells flows apart by it; the others ignore it).
  std::optional<TimeNs> submit(CommandList& commands, TimeNs now, WorkClass host_class,
                               HostWait host_wait, std::uint64_t tag, std::uint16_t flow = 0);

  // Figure 6(b) (Agrawal et al.: "the average number of queued requests per
  // flash package"): the commands waiting in the units' queues, integrated
  // over simulated time (command-nanoseconds; a command taken at once waits
  // nothing). Over a span and the packages: the mean queue per package.
  TimeNs queued_command_ns() const { return static_cast<TimeNs>(queued_command_ns_); }

  // The FLIN order (flash/flin.h): each flow's NVMe priority class (urgent,
  // high, medium, low: 0 to 3) and the weights of high, medium and low, for
  // its stage 2; and what its stage 1 did. Ignored / zero under the others.
  void set_flow_priorities(std::vector<std::uint8_t> flow_class,
                           std::array<std::uint32_t, 3> weights) {
    if (flin_.on()) flin_.set_priorities(std::move(flow_class), weights);
  }
  const FlinQueues::Counters& flin_counters() const { return flin_.counters(); }

  // One-shot wordlines as the unit of durability (the FTL's FtlConfig::wordline_pages > 1;
  // flash/die_latches.h): from now on a die whose latches hold a wordline's staged pages takes
  // only that wordline's next pages (and cleaning's reads for them) until it is programmed. Call
  // before the first submit().
  void hold_wordline_latches() { latches_ = DieLatches(timeline_); }
  // Wordlines a list left open at the end of a stage, let go (0: the FTLs
  // end each wordline in the stage that begins it).
  std::uint64_t latches_released_open() const { return latches_.released_open(); }

  // The time of the next pending event, or kNever.
  TimeNs next_event() const { return events_.empty() ? kNever : events_.top().at; }
  // Processes every event up to `until` (dispatches, later stages).
  // No event of the owner's comes before `horizon` (and none of the
  // listener's completions reported meanwhile, which the owner handles
  // first): a unit may then take its next queued command at once when it
  // frees, without an event, as the event would have done.
  void advance(TimeNs until, TimeNs horizon = 0);
  // Processes events until nothing is queued (every command reserved).
  void drain() { advance(kNever - 1, kNever); }
  bool idle() const { return live_jobs_ == 0; }
  std::string describe_stuck() const;  // a deadlock's report: what is left after drain()

 private:
  struct Chain {
    std::uint32_t next = 0, end = 0;  // order_ range not yet queued; end of the chain
    std::uint32_t queued = 0;         // commands of its current stage not yet dispatched
    TimeNs stage_done = 0;            // when its dispatched commands complete
    TimeNs start = 0;
    bool active = false;
  };
  struct Job {
    CommandList commands;
    HugeVector<std::uint32_t> order;  // commands by chain (host, cleaning), then stage
    std::array<Chain, 2> chains;       // 0: host, 1: cleaning
    std::uint64_t tag = 0;
    WorkClass host_class = WorkClass::kHostWrite;
    HostWait host_wait = HostWait::kNone;
    std::uint16_t flow = 0;
    bool inline_done = false;  // submit() is still dispatching it
    // kPackage: the packages the cleaning chain uses, while it runs, and the
    // host commands on them it holds back.
    std::vector<std::uint32_t> cleaning_packages;
    std::vector<std::uint32_t> held;
    bool holding = false;
    // With die latches: the planes whose wordlines its commands staged.
    std::vector<std::uint32_t> staged_planes;
  };
  // An entry's command: its index, with kProgramHalf for a move's second
  // half (see start()).
  using Entry = CommandQueues::Entry;
  static constexpr std::uint32_t kProgramHalf = 1u << 31;
  static std::uint32_t index_of(const Entry& entry) { return entry.command & ~kProgramHalf; }
  static bool program_half(const Entry& entry) { return (entry.command & kProgramHalf) != 0; }
  struct Event {
    TimeNs at;
    std::uint64_t seq;
    std::uint32_t index;    // unit to wake, or job
    std::uint32_t command;  // kMoveProgram: the move's index in the job
    std::uint8_t chain;     // 0/1: release the job's chain's next stage; 2: wake a
                            // unit; 3: the job's cleaning is done, queue what it held;
                            // 4: see kMoveProgram
    bool operator>(const Event& other) const {
      return at != other.at ? at > other.at : seq > other.seq;
    }
  };
  static constexpr std::uint8_t kWake = 2;
  static constexpr std::uint8_t kUnhold = 3;
  static constexpr std::uint8_t kMoveProgram = 4;  // a move's read is done: queue its program
  static constexpr std::uint8_t kOpDone = 5;       // suspend: a held operation's end (index: unit)
  // Dispatches `commands` now if they form one stage of host commands, each
  // on its own free unit with nothing queued; `done`: when they complete.
  bool dispatch_at_once(const CommandList& commands, TimeNs now, TimeNs& done);
  std::uint32_t new_job();
  void free_job(std::uint32_t id);
  bool queued(std::uint32_t unit) const;
  std::uint32_t unit_of_page(Ppn page) const {
    return timeline_.unit_of_die(timeline_.geometry().die_of(page));
  }
  // The unit a command queues on: its die's (a move's source die's).
  std::uint32_t unit_of(const Command& command) const {
    return unit_of_page(command.op == Op::kMove ? command.src : command.ppn);
  }
  // Queues the chain's next stage at `t` and dispatches what can start now.
  void release(std::uint32_t job, int chain, TimeNs t);
  // Queues the job's command `slot` (its index, with kProgramHalf for a
  // move's program half) at `t`, or starts it if its unit is free and has
  // nothing queued.
  void enqueue(std::uint32_t job, std::uint32_t slot, TimeNs t);
  // Reserves the entry's command on its unit from `t`. An inter-plane move
  // (single-plane) reserves its read half only; its program half is queued
  // on the target die when the data is out (so it waits its turn there).
  void start(const Entry& entry, const Command& command, TimeNs t);
  // The unit an entry queues on: a move's program half on its target die's.
  std::uint32_t unit_of(const Entry& entry, const Command& command) const {
    return program_half(entry) ? unit_of_page(command.ppn) : unit_of(command);
  }
  // kPackage: does the job's cleaning chain use `package`?
  static bool cleans(const Job& job, std::uint32_t package) {
    return std::find(job.cleaning_packages.begin(), job.cleaning_packages.end(), package) !=
           job.cleaning_packages.end();
  }
  // The job's cleaning completed at `t`: queues the host commands it held.
  void unhold(std::uint32_t job, TimeNs t);
  std::uint32_t package_of(Ppn page) const {
    const FastGeometry& g = timeline_.geometry();
    return g.package_of_die(g.die_of(page));
  }
  void finish_chain(std::uint32_t job, int chain, TimeNs end);
  // The unit takes commands while it is free at `t`.
  void dispatch(std::uint32_t unit, TimeNs t);
  // The entry the unit takes next at `t`; removes it from its queue.
  Entry take(std::uint32_t unit, TimeNs t);
  // The FLIN order (scheduler_flin.cpp): take() for it (its stage 3), and
  // what it keeps of an entry queued (enqueue()) or a command started.
  Entry take_flin(std::uint32_t unit, TimeNs t);
  void flin_queued(std::uint32_t unit, std::uint32_t work, std::uint32_t node, const Entry& entry,
                   const Command& command, TimeNs t);
  void flin_started(std::uint32_t unit, const Job& job) {
    if (flin_.on()) unit_flow_[unit] = job.flow;
  }
  // The fewest-queued order (scheduler_fewest_queued.cpp): take() for it, and the counts it
  // keeps of the commands queued per flow as entries join and leave queues.
  Entry take_fewest_queued(std::uint32_t unit);
  void flow_queued(std::uint16_t flow);
  void flow_taken(std::uint16_t flow);
  // take_partner() took `partner` out of queue `work` of the unit.
  void flow_partner_taken(std::uint32_t unit, const Entry& partner);
  // kPlanes: a queued single-plane command that joins `command` into a
  // two-plane command (pairs_with()), removed from its queue if found.
  std::optional<Entry> take_partner(std::uint32_t unit, Command& command);
  // The node take_partner() (kAcross: take_across()) takes, or kNil: in the pairing slots
  // of the planes that join `command`'s (flash/command_queues.h), the lowest class's oldest.
  template <bool kAcross>
  std::uint32_t oldest_partner(const Command& command) const;
  // Walks a pairing slot's list from `node` on: its oldest entry of each class that pairs
  // with `command` (kAcross: pairs_across()) replaces `oldest`'s where kNil or younger.
  template <bool kAcross>
  void oldest_partners(std::uint32_t node, const Command& command,
                       std::array<std::uint32_t, kWorkClasses>& oldest) const;
  Entry take_node(std::uint32_t unit, std::uint32_t node);       // `node` out of its queues
  void join_into(Command& command, const Command& other) const;  // its pages, read units
  // Four-plane dies (multi_plane 4): a command of the die's other pair that
  // joins `command` (pairs_across()), queued (take_across()) or ready in the
  // latches (`held`), with its own partner, reserved with `command` (and
  // its `partner`) as one operation; false if none joins.
  bool start_joined(std::uint32_t unit, const Entry& entry, const Command& command,
                    const Entry* partner, bool held, TimeNs t);
  std::optional<Entry> take_across(std::uint32_t unit, const Command& command);
  bool pairs_across(const Command& command, const Command& other) const;
  // An entry's pairing slot (slot_of(): plane, page offset, op, a copy's source
  // offset), or kNoSlot if it never joins another into a two-plane command.
  std::uint64_t pairing_slot(const Entry& entry, const Command& command) const;
  // Can `other` join `command` into one two-plane command?
  bool pairs_with(const Command& command, const Command& other) const;
  void dispatched(const Entry& entry, TimeNs end);
  // Die latches (scheduler_latches.cpp, flash/die_latches.h). Keeps `entry`
  // in the latches if its command programs (or a move reads for) a later
  // page of a one-shot wordline; false: it goes to the unit's queues.
  bool latch_held(const Entry& entry, const Command& command, std::uint32_t unit, TimeNs t);
  // The unit takes the next command the latches hold for it and starts it
  // (a ready program joined with one of a paired plane where it can be).
  void take_held(std::uint32_t unit, TimeNs t);
  // A ready command of a paired plane (kAcross: of the other pair) that joins
  // `command` (a ready one); two moves' program halves pair by their targets.
  template <bool kAcross>
  bool joins_ready(const Entry& entry, const Command& command, const Entry& other) const;
  // `command` (two-plane: with `partner`'s page) is reserved to program:
  // the latches stage or end its wordlines.
  void latch_programmed(const Command& command, const Entry& entry, const Entry* partner, TimeNs t);
  // The job's chain ended a stage: wordlines it left open are let go.
  void latch_stage_ended(std::uint32_t job, int chain, TimeNs t);
  // Can the unit take a command: one the latches hold for it, or (when it
  // holds no staged wordline) a queued one?
  bool takeable(std::uint32_t unit) const {
    if (latches_.on() && (latches_.latched(unit) || latches_.holds(unit))) [[unlikely]]
      return latches_.holds(unit);
    return !queues_.empty(unit);
  }
  void wake(std::uint32_t unit, TimeNs at);
  // Program/erase suspend (scheduler_suspend.cpp; see the top of this file).
  // Reserves the program or erase `command` (with its two-plane partner's
  // entry, if any) and holds its completion until kOpDone.
  void hold(const Entry& entry, const Entry* partner, const Command& command, TimeNs t);
  // A host read for a unit holding an operation: suspends it if it can.
  bool suspend_for(const Entry& entry, const Command& command, TimeNs t);
  // kOpDone: the held operation on `unit` completes at `at` (unless moved).
  void held_done(std::uint32_t unit, TimeNs at);
  struct Held;
  // The held operation's entries complete at `end`; nothing is held after.
  void complete(Held& held, TimeNs end);
  void push(TimeNs at, std::uint32_t index, std::uint8_t chain, std::uint32_t command = 0) {
    events_.push(Event{at, next_seq_++, index, command, chain});
  }
  WorkClass class_of(const Job& job, const Command& command) const {
    return command.cleaning ? WorkClass::kCleaning : job.host_class;
  }

  FlashTimeline timeline_;
  DispatchOrder order_;
  bool join_planes_;
  bool four_plane_;         // Geometry::multi_plane 4 with plane interleaving, no suspend
  bool independent_reads_;  // Timing::independent_plane_reads
  Listener* listener_ = nullptr;
  std::vector<Job> jobs_;
  std::vector<std::uint32_t> free_jobs_;
  std::uint32_t live_jobs_ = 0;
  // Per unit, per class: ready commands in queue order, indexed by pairing
  // slot and (fewest-queued) by flow.
  CommandQueues queues_;
  std::vector<TimeNs> wake_at_;  // per unit: its pending wake-up, or kNever
  // The fewest-queued order only (empty otherwise): per flow, its commands queued in
  // the device (its intensity; those queued per unit and class: queues_);
  // per unit, how many commands it took since it last took its oldest.
  std::vector<std::uint32_t> flow_queued_;
  std::vector<std::uint32_t> bypassed_;
  // The FLIN order only (empty otherwise): its queues, and per unit the flow
  // of the command it took last (FLIN's estimate of a command's wait alone).
  FlinQueues flin_;
  std::vector<std::uint32_t> unit_flow_;
  // Program/erase suspend: per unit, the operation whose completion is held
  // (its entries: two for a two-plane command; none: count 0) and its end.
  struct Held {
    std::array<Entry, 2> entries{};
    std::uint8_t count = 0;
    TimeNs end = 0;
  };
  bool suspend_ = false;
  std::vector<Held> held_;  // per unit, with suspend on
  DieLatches latches_;      // off unless hold_wordline_latches()
  // queued_command_ns(): the sum over queued commands of the time each was
  // taken less the time it was queued, kept as two running sums (unsigned:
  // they may wrap, their difference does not), exact whenever nothing is
  // queued (a run's counters are read settled).
  std::uint64_t queued_command_ns_ = 0;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  std::uint64_t next_seq_ = 0;
  TimeNs horizon_ = 0;                       // advance(): see there
  TimeNs earliest_report_ = kNever;          // advance(): the earliest host_done() reported
  std::optional<TimeNs> inline_host_done_;   // submit(): the host chain completed at once
  std::vector<std::uint32_t> held_scratch_;  // unhold(): the indices it queues
};

}  // namespace ssdlab::flash
