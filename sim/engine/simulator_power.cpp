// The host loop's power cuts (simulator.h: plan_power_cuts): what a cut does
// to the I/Os in flight (when each planned cut falls: power_cut_schedule.h).
#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"
#include "sim/engine/ftl_failure.h"
#include "sim/engine/simulator.h"

namespace ssdlab::sim {

void Simulator::plan_power_cuts(PowerCutPlan plan) {
  if (!ssd_.core().power_cuts_enabled())
    throw std::logic_error("power cuts planned on an Ssd without them");
  cuts_.plan(std::move(plan));
}

void Simulator::cut_power(TimeNs at) {
  cuts_.take(at);
  PowerCutReport report;
  try {
    report = ssd_.power_cut(at);
  } catch (...) {
    rethrow_as_ftl_failure(
        ssd_.config().ftl.type, "recovery",
        fmt::format("power cut {} at {} us", cuts_.reports().size() + 1, format_us(at)));
  }
  path_.power_lost();  // what was on the link is lost with the rest
  // What is left in the queue lies after the cut: completions of I/Os in
  // flight (not acknowledged: resubmitted once mounted) and arrivals (none
  // before the mount ends).
  std::vector<EventQueue<Event>::Entry> later;
  while (!queue_.empty()) later.push_back(queue_.pop());
  for (auto& entry : later) {
    if (const auto* done = std::get_if<Completion>(&entry.event)) {
      --outstanding_;
      if (!host_queue_.unlimited())  // its slot frees at the cut
        host_queue_.complete(streams_.spec(done->stream).queue);
      const SourceIo io{done->request, 0};
      queue_.push(report.mount_done, Arrival{done->stream, Arrival::Kind::kGiven, io, done->io});
      ++report.requests_resubmitted;
    } else {
      queue_.push(std::max(entry.time, report.mount_done), std::move(entry.event));
    }
  }
  cuts_.record(report);
  if (!report.recovered())
    throw ftl::VerificationError(fmt::format(
        "power cut {} at {} us: {} acknowledged page writes lost, {} trimmed pages back; first: {}",
        cuts_.reports().size(), format_us(at), report.lost_writes, report.resurrected_pages,
        report.first_problem));
}

}  // namespace ssdlab::sim
