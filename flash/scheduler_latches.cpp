// The die latches in the flash scheduler (flash/die_latches.h: what they
// hold and why; flash/scheduler.h: hold_wordline_latches()).
#include <algorithm>

#include "flash/scheduler.h"

namespace ssdlab::flash {

bool FlashScheduler::latch_held(const Entry& entry, const Command& command, std::uint32_t unit,
                                TimeNs t) {
  if (command.op == Op::kRead || command.op == Op::kErase) return false;
  const bool half = program_half(entry);
  // A move's read (a two-plane move is only ever joined at dispatch).
  const bool read = command.op == Op::kMove && !half;
  if (read && command.two_plane()) return false;
  const DieLatches::Owner owner{entry.job, static_cast<std::uint8_t>(command.cleaning)};
  if (!latches_.hold(entry, command.ppn, half || read ? kNoPage : command.ppn2, read, unit, owner))
    return false;
  queued_command_ns_ -= static_cast<std::uint64_t>(t);
  if (latches_.holds(unit)) wake(unit, std::max(t, timeline_.unit_free_at(unit)));
  return true;
}

void FlashScheduler::take_held(std::uint32_t unit, TimeNs t) {
  bool read = false;
  const Entry entry = latches_.take(unit, read);
  flin_started(unit, jobs_[entry.job]);
  queued_command_ns_ += static_cast<std::uint64_t>(t);
  Command command = jobs_[entry.job].commands[index_of(entry)];
  Entry partner{};
  const bool joined =
      !read && join_planes_ && !command.two_plane() && !command.host_data &&
      latches_.take_ready_if(
          unit, [&](const Entry& other) { return joins_ready<false>(entry, command, other); },
          partner);
  if (joined) {
    queued_command_ns_ += static_cast<std::uint64_t>(t);  // (the partner, taken too)
    join_into(command, jobs_[partner.job].commands[index_of(partner)]);
  }
  if (four_plane_ && !read && !command.host_data &&
      start_joined(unit, entry, command, joined ? &partner : nullptr, true, t))
    return;
  if (!joined) return start(entry, command, t);  // (a move's read: its program half follows)
  latch_programmed(command, entry, &partner, t);
  TimeNs end = 0;
  if (program_half(entry)) {
    end = timeline_.schedule_move_program(command, t);
  } else if (suspend_ && FlashTimeline::suspendable(command)) {
    return hold(entry, &partner, command, t);
  } else {
    end = timeline_.schedule(command, t);
  }
  dispatched(entry, end);
  dispatched(partner, end);
}

void FlashScheduler::latch_programmed(const Command& command, const Entry& entry,
                                      const Entry* partner, TimeNs t) {
  const Entry& second = partner ? *partner : entry;
  auto owner = [this](const Entry& e) {
    return DieLatches::Owner{
        e.job, static_cast<std::uint8_t>(jobs_[e.job].commands[index_of(e)].cleaning)};
  };
  const std::uint32_t unit = unit_of_page(command.ppn);
  const bool readied =
      latches_.programmed(command.ppn, owner(entry), command.ppn2, owner(second), unit);
  const std::uint32_t first_plane = timeline_.geometry().plane_of(command.ppn);
  for (const std::uint32_t plane : latches_.newly_staged()) {
    std::vector<std::uint32_t>& planes =
        jobs_[plane == first_plane ? entry.job : second.job].staged_planes;
    if (std::find(planes.begin(), planes.end(), plane) == planes.end()) planes.push_back(plane);
  }
  if (readied) wake(unit, t);
  for (const std::uint32_t other : latches_.readied_units()) wake(other, t);
}

void FlashScheduler::latch_stage_ended(std::uint32_t job, int chain, TimeNs t) {
  latches_.stage_ended(DieLatches::Owner{job, static_cast<std::uint8_t>(chain)},
                       jobs_[job].staged_planes, [&](std::uint32_t unit) { wake(unit, t); });
  // (What the other chain staged stays listed; the rest is ended or let go.)
  std::vector<std::uint32_t>& planes = jobs_[job].staged_planes;
  planes.erase(std::remove_if(planes.begin(), planes.end(),
                              [&](std::uint32_t plane) {
                                return !latches_.staged_by(
                                    plane,
                                    DieLatches::Owner{job, static_cast<std::uint8_t>(1 - chain)});
                              }),
               planes.end());
}

}  // namespace ssdlab::flash
