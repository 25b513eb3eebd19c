// Program/erase suspend in the flash scheduler (flash/scheduler.h, at the
// top: the design): held completions and the reads that move them.
#include "flash/scheduler.h"

namespace ssdlab::flash {

void FlashScheduler::hold(const Entry& entry, const Entry* partner, const Command& command,
                          TimeNs t) {
  const std::uint32_t unit = unit_of(command);
  Held& held = held_[unit];
  // The unit takes another command behind the one held (a cache register):
  // the held one can no longer move, so its end is final now.
  if (held.count) complete(held, held.end);
  Held& now = held_[unit];
  now.entries[0] = entry;
  now.count = 1;
  if (partner) now.entries[now.count++] = *partner;
  now.end = timeline_.schedule_suspendable(command, t);
  push(now.end, unit, kOpDone);
}

bool FlashScheduler::suspend_for(const Entry& entry, const Command& command, TimeNs t) {
  if (command.op != Op::kRead || program_half(entry) ||
      class_of(jobs_[entry.job], command) != WorkClass::kHostRead)
    return false;
  const std::uint32_t unit = unit_of(command);
  Held& held = held_[unit];
  if (!held.count) return false;
  // (A die whose latches hold staged pages senses nothing: die_latches.h.)
  if (latches_.on() && latches_.latched(unit)) return false;
  const std::optional<TimeNs> end = timeline_.suspend_for_read(command, t);
  if (!end) return false;
  held.end = timeline_.suspendable_end(unit);
  push(held.end, unit, kOpDone);  // (the event at the old end is superseded)
  dispatched(entry, *end);
  return true;
}

void FlashScheduler::held_done(std::uint32_t unit, TimeNs at) {
  Held& held = held_[unit];
  if (!held.count || held.end != at) return;  // superseded: a suspension moved it
  timeline_.forget_suspendable(unit);  // (before its chains go on, which may hold anew)
  complete(held, at);
}

void FlashScheduler::complete(Held& held, TimeNs end) {
  const Held done = held;
  held.count = 0;
  for (std::uint8_t i = 0; i < done.count; ++i) dispatched(done.entries[i], end);
}

}  // namespace ssdlab::flash
