#include "sim/engine/power_cut_schedule.h"

#include <algorithm>

namespace ssdlab::sim {

void PowerCutSchedule::plan(PowerCutPlan plan) {
  plan_ = std::move(plan);
  std::sort(plan_.times.begin(), plan_.times.end());
  std::sort(plan_.ios.begin(), plan_.ios.end(),
            [](const auto& a, const auto& b) { return a.io < b.io; });
}

void PowerCutSchedule::dispatched(TimeNs now, TimeNs done) {
  if (next_io_ < plan_.ios.size() && plan_.ios[next_io_].io == dispatched_) {
    const double fraction = plan_.ios[next_io_++].fraction;
    during_.push_back(now + static_cast<TimeNs>(fraction * static_cast<double>(done - now)));
  }
  ++dispatched_;
}

std::optional<TimeNs> PowerCutSchedule::next() const {
  std::optional<TimeNs> at;
  if (!during_.empty()) at = *std::min_element(during_.begin(), during_.end());
  if (next_time_ < plan_.times.size())
    at = std::min(at.value_or(plan_.times[next_time_]), plan_.times[next_time_]);
  if (at) at = std::max(*at, mounted_at_);  // no cut while mounting
  return at;
}

void PowerCutSchedule::take(TimeNs at) {
  const auto earliest = std::min_element(during_.begin(), during_.end());
  if (earliest != during_.end() && std::max(*earliest, mounted_at_) == at)
    during_.erase(earliest);
  else
    ++next_time_;
}

std::uint64_t PowerCutSchedule::not_reached() const {
  return (plan_.times.size() - next_time_) + (plan_.ios.size() - next_io_) + during_.size();
}

}  // namespace ssdlab::sim
