// Program/erase suspend on the timelines (flash/suspend.h): the operation a
// unit has in flight, and the reads that suspend it. The flash scheduler
// decides which operations are in flight and when their completion is final
// (flash/scheduler.h); here are the phases.
#include <algorithm>

#include "flash/timeline.h"

namespace ssdlab::flash {

void FlashTimeline::enable_suspend(const SuspendTiming& suspend) {
  suspend_ = suspend;
  in_flight_.assign(suspend.enabled ? units() : 0, InFlight{});
}

// The array phase of a suspendable operation: the last phase of its reservation.
TimeNs FlashTimeline::array_ns(const Command& command) const {
  return command.op == Op::kErase ? erase_array_ns(command.ppn) : program_array_ns(command.ppn);
}

TimeNs FlashTimeline::schedule_suspendable(const Command& command, TimeNs ready) {
  const TimeNs end = schedule(command, ready);
  InFlight& op = in_flight_[unit_of_die(geometry_.die_of(command.ppn))];
  op.command = command;
  op.array_start = end - array_ns(command);
  op.end = end;
  op.resumed = 0;
  op.suspensions = 0;
  op.active = true;
  return end;
}

std::optional<TimeNs> FlashTimeline::suspend_for_read(const Command& read, TimeNs ready) {
  const std::uint32_t die = geometry_.die_of(read.ppn);
  const std::uint32_t unit = unit_of_die(die);
  InFlight& op = in_flight_[unit];
  // Only the unit's last reservation moves (with a cache register, a command
  // may already be reserved behind it), and only during its array phase,
  // and not before the minimum interval after the previous suspension's
  // resume.
  const bool erase = op.command.op == Op::kErase;
  const TimeNs from =
      std::max(ready, op.suspensions ? op.resumed + suspend_.interval_ns(erase) : op.resumed);
  if (!op.active || op.suspensions >= suspend_.limit || die_free_[unit] != op.end ||
      from < op.array_start || from + timing_.command_ns >= op.end)
    return std::nullopt;
  count_elsewhere(read);
  current_ = &read;
  const TimeNs issued = issue_command(geometry_.channel_of_die(die), from);
  return suspended_read(read, op, from, issued);
}

TimeNs FlashTimeline::suspended_read(const Command& read, InFlight& op, TimeNs start,
                                     TimeNs issued) {
  const std::uint32_t die = geometry_.die_of(read.ppn);
  const std::uint32_t unit = unit_of_die(die);
  const TimeNs read_ns = read_command_array_ns(read);  // its page type's (cells of several bits)
  const TimeNs suspend_ns = suspend_.suspend_ns(op.command.op == Op::kErase);
  const TimeNs array_done = issued + suspend_ns + read_ns;
  report_planes(Phase::kArrayRead, array_done - read_ns, array_done);
  const TimeNs done =
      use_bus(geometry_.channel_of_die(die), array_done, read_transfer_ns(read), Phase::kDataOut);
  report(Resource::kDie, die, Phase::kCommand, start, done);
  // The operation stops from `issued` to its resume, then runs to its end.
  const TimeNs shift = suspend_ns + read_ns + suspend_.resume_ns;
  current_ = &op.command;
  report_planes(Phase::kSuspended, issued, std::min(issued + shift, op.end));
  report_planes(op.command.op == Op::kErase ? Phase::kArrayErase : Phase::kArrayProgram, op.end,
                op.end + shift);
  if (register_free_[unit] == op.end) register_free_[unit] += shift;
  op.end += shift;
  die_free_[unit] = op.end;
  op.resumed = array_done + suspend_.resume_ns;
  ++op.suspensions;
  stats_.die_busy_ns += shift;
  ++(op.command.op == Op::kErase ? stats_.suspend.erase_suspensions
                                  : stats_.suspend.program_suspensions);
  return done;
}

}  // namespace ssdlab::flash
