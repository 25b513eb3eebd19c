// The host loop driven from outside, request by request, as the live device
// (sim/live) drives it: the model advances to each arrival's wall-clock
// time instead of reading its I/O sources.
#include <algorithm>

#include "ftl/ftl.h"
#include "sim/engine/simulator.h"

namespace ssdlab::sim {

void Simulator::advance_to(TimeNs until) {
  step(until);
  if (outstanding_ > 0 || until <= now_ || !queue_.empty() || recorder_.end_of_life()) return;
  try {
    idle(now_, until);
  } catch (const ftl::EndOfLife& error) {  // idle cleaning found no block: as in step()
    return stop_run(error.what(), true);
  }
  now_ = until;
}

std::uint64_t Simulator::arrive(std::uint32_t stream, const SourceIo& io, TimeNs at) {
  advance_to(at);
  now_ = std::max(now_, at);
  const std::uint64_t number = streams_.next_io(stream);
  if (recorder_.end_of_life()) return number;
  try {
    submit(stream, io);
  } catch (const ftl::EndOfLife& error) {  // as in step(): the run stops here
    stop_run(error.what(), true);
  }
  return number;
}

TimeNs Simulator::next_event() const {
  return std::min(queue_.empty() ? flash::kNever : queue_.next_time(),
                  ssd_.core().next_flash_event());
}

}  // namespace ssdlab::sim
