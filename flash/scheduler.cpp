#include "flash/scheduler.h"

#include <algorithm>

namespace ssdlab::flash {

namespace {

// Does `command` program a page (a program, a copy-back, a move)?
bool programs(const Command& command) {
  return command.op != Op::kRead && command.op != Op::kErase;
}

}  // namespace

FlashScheduler::FlashScheduler(const Geometry& geometry, const Timing& timing, DispatchOrder order,
                               const SuspendTiming& suspend)
    : timeline_(geometry, timing),
      order_(order),
      join_planes_(geometry.interleaving == Interleaving::kPlanes),
      four_plane_(join_planes_ && geometry.multi_plane == 4 && !suspend.enabled),
      independent_reads_(timing.independent_plane_reads),
      queues_(timeline_.units(), join_planes_, order.fewest_queued, order.flin),
      wake_at_(timeline_.units(), kNever),
      suspend_(suspend.enabled),
      held_(suspend.enabled ? timeline_.units() : 0) {
  timeline_.enable_suspend(suspend);
  if (order_.fewest_queued) bypassed_.assign(timeline_.units(), 0);
  if (order_.flin) {
    flin_ = FlinQueues(timeline_.units(), order_.flin_settings);
    unit_flow_.assign(timeline_.units(), FlinQueues::kNoFlow);
  }
}

std::uint32_t FlashScheduler::new_job() {
  ++live_jobs_;
  if (!free_jobs_.empty()) {
    const std::uint32_t id = free_jobs_.back();
    free_jobs_.pop_back();
    return id;
  }
  jobs_.emplace_back();
  return static_cast<std::uint32_t>(jobs_.size() - 1);
}

bool FlashScheduler::dispatch_at_once(const CommandList& commands, TimeNs now, TimeNs& done) {
  constexpr std::size_t kMost = 8;
  if (commands.size() > kMost) return false;
  std::array<std::uint32_t, kMost> units;
  for (std::size_t i = 0; i < commands.size(); ++i) {
    const Command& command = commands[i];
    if (command.cleaning || command.stage != commands[0].stage) return false;
    // (With die latches a program goes through start(), which stages it.)
    if (latches_.on() && command.op != Op::kRead) return false;
    units[i] = unit_of(command);
    if (queued(units[i]) || timeline_.unit_free_at(units[i]) > now) return false;
    if (suspend_ && (FlashTimeline::suspendable(command) || held_[units[i]].count)) return false;
    for (std::size_t j = 0; j < i; ++j)
      if (units[j] == units[i]) return false;
  }
  done = now;
  for (const Command& command : commands) done = std::max(done, timeline_.schedule(command, now));
  return true;
}

std::optional<TimeNs> FlashScheduler::submit(CommandList& commands, TimeNs now,
                                             WorkClass host_class, HostWait host_wait,
                                             std::uint64_t tag, std::uint16_t flow) {
  if (latches_.on()) [[unlikely]]
    stage_reprograms_after_erases(commands, timeline_.geometry().pages_per_block);
  // The common case first: one stage of host commands on free dies, each on
  // its own (what release() below would do, without a job).
  if (TimeNs done = now; dispatch_at_once(commands, now, done)) {
    if (flin_.on()) [[unlikely]]
      for (const Command& command : commands) {
        const std::uint32_t unit = unit_of(command);
        flin_.arrive(unit, static_cast<std::uint32_t>(host_class), flow, now);
        unit_flow_[unit] = flow;
      }
    return done;
  }
  const std::uint32_t id = new_job();
  Job& job = jobs_[id];
  // Copied, not swapped: each list keeps its storage. Swapped, a caller's
  // list came back with a small job's storage and grew again, in fresh
  // pages, at its next cleaning: on the QLC preset a fifth of the CPU went to
  // zeroing them, and every job slot ended holding a large list.
  job.commands.assign(commands.begin(), commands.end());
  commands.clear();
  const CommandList& list = job.commands;
  job.tag = tag;
  job.staged_planes.clear();
  job.host_class = host_class;
  job.flow = flow;
  // The host chain, then the cleaning chain, each in stage order and in
  // list order within a stage: a counting sort by (chain, stage), which
  // allocates nothing (a cleaning list interleaves its victims' stages).
  // Only the stages the list uses are counted (a list with incremental
  // cleaning comes with nearly every write: no zero-filling 513 counters).
  std::uint32_t top = 0;  // the highest stage, plus one
  for (const Command& command : list) top = std::max<std::uint32_t>(top, command.stage + 1u);
  std::array<std::uint32_t, 2 * 256 + 1> first;
  std::fill_n(first.begin(), 2 * top + 1, 0u);
  for (const Command& command : list) ++first[(command.cleaning ? top : 0u) + command.stage + 1];
  std::uint32_t host = 0;
  for (std::size_t i = 1; i <= top; ++i) host += first[i];
  for (std::size_t i = 1; i <= 2 * top; ++i) first[i] += first[i - 1];
  job.order.resize(list.size());
  for (std::uint32_t i = 0; i < list.size(); ++i)
    job.order[first[(list[i].cleaning ? top : 0u) + list[i].stage]++] = i;
  const auto size = static_cast<std::uint32_t>(list.size());
  job.chains[0] = Chain{0, host, 0, now, now, host > 0};
  job.chains[1] = Chain{host, size, 0, now, now, size > host};
  job.host_wait = job.chains[1].active && job.chains[0].active ? host_wait : HostWait::kNone;
  job.holding = job.host_wait == HostWait::kPackage;
  if (job.holding) {
    // The packages the cleaning chain uses (a move's source and target): few.
    job.cleaning_packages.clear();
    auto add = [&job](std::uint32_t package) {
      if (!cleans(job, package)) job.cleaning_packages.push_back(package);
    };
    for (std::uint32_t i = host; i < size; ++i) {
      const Command& command = list[job.order[i]];
      add(package_of(command.ppn));
      if (command.op == Op::kMove) add(package_of(command.src));
    }
  }
  job.inline_done = true;
  inline_host_done_.reset();
  if (job.chains[1].active) release(id, 1, now);
  if (job.chains[0].active && job.host_wait != HostWait::kRequest) release(id, 0, now);
  Job& after = jobs_[id];  // (no job is added meanwhile: the reference holds)
  after.inline_done = false;
  std::optional<TimeNs> done = inline_host_done_;
  if (!after.chains[0].active && host == 0) done = now;
  if (!after.chains[0].active && !after.chains[1].active && !after.holding) free_job(id);
  return done;
}

void FlashScheduler::free_job(std::uint32_t id) {
  --live_jobs_;
  free_jobs_.push_back(id);
}

void FlashScheduler::release(std::uint32_t id, int chain_index, TimeNs t) {
  Job& job = jobs_[id];
  Chain& chain = job.chains[chain_index];
  const std::uint8_t stage = job.commands[job.order[chain.next]].stage;
  std::uint32_t end = chain.next;
  while (end < chain.end && job.commands[job.order[end]].stage == stage) ++end;
  chain.queued = end - chain.next;
  chain.stage_done = t;
  const std::uint32_t first = chain.next;
  chain.next = end;
  for (std::uint32_t i = first; i < end; ++i) {
    const std::uint32_t index = jobs_[id].order[i];
    // kPackage: host commands on a package that cleans wait for the cleaning.
    if (chain_index == 0 && jobs_[id].holding &&
        cleans(jobs_[id], package_of(jobs_[id].commands[index].ppn))) {
      jobs_[id].held.push_back(index);  // (still counted in chain.queued)
      continue;
    }
    enqueue(id, index, t);
  }
}

void FlashScheduler::enqueue(std::uint32_t id, std::uint32_t slot, TimeNs t) {
  const Entry entry{id, slot, next_seq_++};
  const Command& command = jobs_[id].commands[index_of(entry)];
  const std::uint32_t unit = unit_of(entry, command);
  const auto work = static_cast<std::uint32_t>(class_of(jobs_[id], command));
  if (flin_.on() && work != static_cast<std::uint32_t>(WorkClass::kCleaning)) [[unlikely]]
    flin_.arrive(unit, work, jobs_[id].flow, t);
  if (suspend_ && suspend_for(entry, command, t)) return;
  if (latches_.on() && latch_held(entry, command, unit, t)) [[unlikely]]
    return;
  // (Four-plane dies: queued, and the unit woken now, so that the other
  // commands of the stage arrive before it takes one and may join it.)
  if (!four_plane_ && !queued(unit) && timeline_.unit_free_at(unit) <= t) {
    // Nothing queued and the unit free: taken at once, as it arrives.
    flin_started(unit, jobs_[id]);
    start(entry, command, t);
    return;
  }
  const std::uint32_t node = queues_.push(
      unit, work, entry, queues_.indexed() ? pairing_slot(entry, command) : CommandQueues::kNoSlot,
      jobs_[id].flow);
  if (order_.fewest_queued) flow_queued(jobs_[id].flow);
  if (flin_.on()) [[unlikely]]
    flin_queued(unit, work, node, entry, command, t);
  queued_command_ns_ -= static_cast<std::uint64_t>(t);
  wake(unit, std::max(t, timeline_.unit_free_at(unit)));
}

void FlashScheduler::unhold(std::uint32_t id, TimeNs t) {
  // (The job stays `holding`, so that completing its host chain here does
  // not free it; the indices are walked from a scratch copy.)
  held_scratch_.swap(jobs_[id].held);
  for (const std::uint32_t index : held_scratch_) enqueue(id, index, t);
  held_scratch_.clear();
  Job& job = jobs_[id];
  job.holding = false;
  if (!job.chains[0].active && !job.chains[1].active && !job.inline_done) free_job(id);
}

void FlashScheduler::start(const Entry& entry, const Command& command, TimeNs t) {
  if (program_half(entry)) {
    if (latches_.on()) latch_programmed(command, entry, nullptr, t);
    return dispatched(entry, timeline_.schedule_move_program(command, t));
  }
  if (command.op == Op::kMove && !command.two_plane())
    return push(timeline_.schedule_move_read(command, t), entry.job, kMoveProgram, entry.command);
  if (latches_.on() && programs(command)) latch_programmed(command, entry, nullptr, t);
  if (suspend_ && FlashTimeline::suspendable(command)) return hold(entry, nullptr, command, t);
  dispatched(entry, timeline_.schedule(command, t));
}

void FlashScheduler::dispatched(const Entry& entry, TimeNs end) {
  Job& job = jobs_[entry.job];
  const int chain_index = job.commands[index_of(entry)].cleaning ? 1 : 0;
  Chain& chain = job.chains[chain_index];
  chain.stage_done = std::max(chain.stage_done, end);
  if (--chain.queued > 0) return;
  if (latches_.on() && !job.staged_planes.empty()) [[unlikely]]
    latch_stage_ended(entry.job, chain_index, chain.stage_done);
  if (chain.next < chain.end)
    push(chain.stage_done, entry.job, static_cast<std::uint8_t>(chain_index));
  else
    finish_chain(entry.job, chain_index, chain.stage_done);
}

void FlashScheduler::finish_chain(std::uint32_t id, int chain_index, TimeNs end) {
  Job& job = jobs_[id];
  job.chains[chain_index].active = false;
  if (chain_index == 0) {
    if (job.inline_done)
      inline_host_done_ = end;
    else if (listener_) {
      earliest_report_ = std::min(earliest_report_, end);
      listener_->host_done(job.tag, end);
    }
  } else {
    if (listener_) listener_->cleaning_done(job.tag, job.chains[1].start, end);
    if (job.host_wait == HostWait::kRequest) {
      job.chains[0].start = end;
      push(end, id, 0);  // the host chain starts when cleaning is done
      return;
    }
    if (job.holding) return push(end, id, kUnhold);  // (the job lives until then)
  }
  if (!job.chains[0].active && !job.chains[1].active && !job.inline_done && !job.holding)
    free_job(id);
}

void FlashScheduler::advance(TimeNs until, TimeNs horizon) {
  horizon_ = horizon;
  earliest_report_ = kNever;
  while (!events_.empty() && events_.top().at <= until) {
    const Event event = events_.top();
    events_.pop();
    if (event.chain == kWake) {
      if (wake_at_[event.index] != event.at) continue;  // superseded
      wake_at_[event.index] = kNever;
      dispatch(event.index, event.at);
    } else if (event.chain == kUnhold) {
      unhold(event.index, event.at);
    } else if (event.chain == kOpDone) {
      held_done(event.index, event.at);
    } else if (event.chain == kMoveProgram) {
      enqueue(event.index, event.command | kProgramHalf, event.at);
    } else {
      release(event.index, event.chain, event.at);
    }
  }
  horizon_ = 0;
}

void FlashScheduler::wake(std::uint32_t unit, TimeNs at) {
  if (wake_at_[unit] <= at) return;  // an earlier wake-up looks again then
  wake_at_[unit] = at;
  push(at, unit, kWake);
}

bool FlashScheduler::queued(std::uint32_t unit) const {
  // (A unit that holds a staged wordline takes nothing else: as if queued.)
  if (latches_.on() && (latches_.latched(unit) || latches_.holds(unit))) [[unlikely]]
    return true;
  return !queues_.empty(unit);
}

void FlashScheduler::dispatch(std::uint32_t unit, TimeNs t) {
  for (;;) {
    while (timeline_.unit_free_at(unit) <= t) {
      if (latches_.on() && (latches_.latched(unit) || latches_.holds(unit))) [[unlikely]] {
        if (!latches_.holds(unit)) break;  // (until its wordlines' next pages come)
        take_held(unit, t);
        continue;
      }
      if (queues_.empty(unit)) break;
      const Entry entry = take(unit, t);
      flin_started(unit, jobs_[entry.job]);
      queued_command_ns_ += static_cast<std::uint64_t>(t);
      Command command = jobs_[entry.job].commands[index_of(entry)];
      std::optional<Entry> partner;
      const bool joins =
          join_planes_ && !program_half(entry) && !command.host_data &&
          // (With die latches, a move onto another die is not joined: its
          // two-plane program would be reserved there at once, past that
          // die's latches, where its program half alone queues.)
          !(latches_.on() && command.op == Op::kMove && unit_of_page(command.ppn) != unit);
      if (joins && !command.two_plane()) partner = take_partner(unit, command);
      if (partner) queued_command_ns_ += static_cast<std::uint64_t>(t);  // (taken too)
      if (four_plane_ && joins &&
          start_joined(unit, entry, command, partner ? &*partner : nullptr, false, t)) [[unlikely]]
        continue;
      if (!partner) {
        start(entry, command, t);
        continue;
      }
      // A two-plane command (a move's two halves reserved together).
      if (latches_.on() && programs(command)) latch_programmed(command, entry, &*partner, t);
      if (suspend_ && FlashTimeline::suspendable(command)) {
        hold(entry, &*partner, command, t);
        continue;
      }
      const TimeNs end = timeline_.schedule(command, t);
      dispatched(entry, end);
      dispatched(*partner, end);
    }
    if (!takeable(unit)) return;
    const TimeNs next = std::max(t, timeline_.unit_free_at(unit));
    // Nothing can happen before `next` (no event of ours or the owner's, no
    // completion the owner has yet to handle): go on without the event.
    if (next > horizon_ || next >= earliest_report_ ||
        (!events_.empty() && next >= events_.top().at))
      return wake(unit, next);
    t = next;
  }
}

FlashScheduler::Entry FlashScheduler::take(std::uint32_t unit, TimeNs t) {
  if (order_.fewest_queued) return take_fewest_queued(unit);
  if (order_.flin) return take_flin(unit, t);
  std::uint32_t from = 0;
  if (order_.fifo) {
    const Entry* oldest = nullptr;
    for (std::uint32_t work = 0; work < kWorkClasses; ++work) {
      const Entry* front = queues_.front_entry(unit, work);
      if (front && (!oldest || front->seq < oldest->seq)) oldest = front, from = work;
    }
  } else {
    for (const WorkClass work : order_.order) {
      from = static_cast<std::uint32_t>(work);
      if (queues_.front_entry(unit, from)) break;
    }
  }
  const Entry entry = *queues_.front_entry(unit, from);
  queues_.pop_front(unit, from);
  return entry;
}

}  // namespace ssdlab::flash
