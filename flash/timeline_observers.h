// Several observers of one flash timeline (the Ssd's: --timeline and
// --io-detail together). Apart from timeline_observer.h, which the timeline
// includes: the timeline's calls stay plain virtual calls.
#pragma once

#include <algorithm>
#include <vector>

#include "flash/timeline_observer.h"

namespace ssdlab::flash {

// Several observers of one timeline (--timeline and --io-detail together),
// each told every phase, in the order they were added.
class TimelineObservers final : public TimelineObserver {
 public:
  void add(TimelineObserver* observer) { observers_.push_back(observer); }
  void remove(TimelineObserver* observer) { std::erase(observers_, observer); }
  // What the timeline reports to: none, the only one (no extra call), or
  // this fan-out.
  TimelineObserver* target() {
    return observers_.empty() ? nullptr : observers_.size() == 1 ? observers_.front() : this;
  }
  void phase(Resource resource, std::uint32_t index, Phase phase, TimeNs start, TimeNs end,
             const Command& command) override {
    for (TimelineObserver* observer : observers_)
      observer->phase(resource, index, phase, start, end, command);
  }

 private:
  std::vector<TimelineObserver*> observers_;
};

}  // namespace ssdlab::flash
