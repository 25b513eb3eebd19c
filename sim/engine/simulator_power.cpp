// The host loop's power cuts (simulator.h: plan_power_cuts): when each
// planned cut falls, and what a cut does to the I/Os in flight.
#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"
#include "sim/engine/ftl_failure.h"
#include "sim/engine/simulator.h"

namespace ssdlab::sim {

void Simulator::plan_cut_during(TimeNs done) {
  if (next_io_cut_ < cut_plan_.ios.size() && cut_plan_.ios[next_io_cut_].io == submitted_) {
    const double fraction = cut_plan_.ios[next_io_cut_++].fraction;
    io_cuts_at_.push_back(now_ + static_cast<TimeNs>(fraction * static_cast<double>(done - now_)));
  }
  ++submitted_;
}

void Simulator::plan_power_cuts(PowerCutPlan plan) {
  if (!ssd_.power_cuts_enabled())
    throw std::logic_error("power cuts planned on an Ssd without them");
  cut_plan_ = std::move(plan);
  std::sort(cut_plan_.times.begin(), cut_plan_.times.end());
  std::sort(cut_plan_.ios.begin(), cut_plan_.ios.end(),
            [](const auto& a, const auto& b) { return a.io < b.io; });
}

std::uint64_t Simulator::power_cuts_not_reached() const {
  return (cut_plan_.times.size() - next_time_cut_) + (cut_plan_.ios.size() - next_io_cut_) +
         io_cuts_at_.size();
}

std::optional<TimeNs> Simulator::next_cut() const {
  std::optional<TimeNs> at;
  if (!io_cuts_at_.empty()) at = *std::min_element(io_cuts_at_.begin(), io_cuts_at_.end());
  if (next_time_cut_ < cut_plan_.times.size())
    at = std::min(at.value_or(cut_plan_.times[next_time_cut_]), cut_plan_.times[next_time_cut_]);
  if (at) at = std::max(*at, mounted_at_);  // no cut while mounting
  return at;
}

void Simulator::cut_power(TimeNs at) {
  const auto earliest = std::min_element(io_cuts_at_.begin(), io_cuts_at_.end());
  if (earliest != io_cuts_at_.end() && std::max(*earliest, mounted_at_) == at)
    io_cuts_at_.erase(earliest);
  else
    ++next_time_cut_;
  PowerCutReport report;
  try {
    report = ssd_.power_cut(at);
  } catch (...) {
    rethrow_as_ftl_failure(ssd_.config().ftl.type, "recovery",
                           fmt::format("power cut {} at {} us", cuts_.size() + 1, format_us(at)));
  }
  mounted_at_ = report.mount_done;
  if (link_) link_->reset();  // what was on the link is lost with the rest
  // What is left in the queue lies after the cut: completions of I/Os in
  // flight (not acknowledged: resubmitted once mounted) and arrivals (none
  // before the mount ends).
  std::vector<EventQueue<Event>::Entry> later;
  while (!queue_.empty()) later.push_back(queue_.pop());
  for (auto& entry : later) {
    if (const auto* done = std::get_if<Completion>(&entry.event)) {
      --outstanding_;
      if (!host_queue_.unlimited())  // its slot frees at the cut
        host_queue_.complete(streams_[done->stream].spec.queue);
      const SourceIo io{{done->offset, done->size, done->mode}, 0};
      queue_.push(report.mount_done, Arrival{done->stream, Arrival::Kind::kGiven, io, done->io});
      ++report.requests_resubmitted;
    } else {
      queue_.push(std::max(entry.time, report.mount_done), std::move(entry.event));
    }
  }
  cuts_.push_back(report);
  if (!report.recovered())
    throw ftl::VerificationError(fmt::format(
        "power cut {} at {} us: {} acknowledged page writes lost, {} trimmed pages back; first: {}",
        cuts_.size(), format_us(at), report.lost_writes, report.resurrected_pages,
        report.first_problem));
}

}  // namespace ssdlab::sim
