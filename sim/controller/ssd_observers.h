// The observers of one Ssd (ssd_observer.h): the verifier, the teaching
// views (--timeline, --trace-ftl) and --io-detail. Each command list the
// FTL emits and each request the Ssd completes goes to every observer, in
// the order they were added; the flash timeline's phases go to its own
// observers (flash/timeline_observers.h). With verification on, the
// verifier is the first observer and this list owns it. None changes what
// the Ssd does; with none the Ssd pays one emptiness check a request.
// Observers added from outside must outlive the Ssd or be removed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/host_io.h"
#include "common/units.h"
#include "flash/command.h"
#include "flash/timeline.h"
#include "flash/timeline_observers.h"
#include "ftl/ftl.h"
#include "sim/controller/ssd_observer.h"
#include "sim/controller/verifier_check.h"

namespace ssdlab::sim {

class SsdObservers {
 public:
  explicit SsdObservers(flash::FlashTimeline& timeline) : timeline_(timeline) {}
  SsdObservers(const SsdObservers&) = delete;
  SsdObservers& operator=(const SsdObservers&) = delete;

  void add(SsdObserver* observer) { list_.push_back(observer); }
  void remove(SsdObserver* observer) { std::erase(list_, observer); }
  void add_flash(flash::TimelineObserver* observer) {
    flash_.add(observer);
    timeline_.set_observer(flash_.target());
  }
  void remove_flash(flash::TimelineObserver* observer) {
    flash_.remove(observer);
    timeline_.set_observer(flash_.target());
  }
  bool empty() const { return list_.empty(); }

  // --verify: `verifier` checks every list from now on, first of all.
  void verify_with(std::unique_ptr<VerifierCheck> verifier) {
    verifier_ = std::move(verifier);
    list_.insert(list_.begin(), verifier_.get());
  }
  VerifierCheck* verifier() const { return verifier_.get(); }
  std::uint64_t verified_pages() const { return verifier_ ? verifier_->pages_checked() : 0; }

  // What the Ssd reports.
  void commands(CommandSource source, ftl::PageRuns ranges,
                const flash::CommandList& commands) const {
    for (SsdObserver* observer : list_) observer->commands(source, ranges, commands);
  }
  // `request`, started at `submitted`, completes at `done`; or, its
  // completion not known yet, later under `tag` (queued_done()).
  void request_done(const HostIo& request, TimeNs submitted, TimeNs done) const {
    for (SsdObserver* observer : list_) observer->request_done(request, submitted, done);
  }
  void request_queued(std::uint64_t tag, const HostIo& request, TimeNs submitted) {
    if (!list_.empty()) queued_.emplace(tag, std::pair{request, submitted});
  }
  void queued_done(std::uint64_t tag, TimeNs at) {
    if (queued_.empty()) return;
    const auto it = queued_.find(tag);
    if (it == queued_.end()) return;
    request_done(it->second.first, it->second.second, at);
    queued_.erase(it);
  }

 private:
  flash::FlashTimeline& timeline_;
  std::vector<SsdObserver*> list_;
  flash::TimelineObservers flash_;
  std::unique_ptr<VerifierCheck> verifier_;
  // Requests whose completion comes later, by tag: their request and start.
  std::unordered_map<std::uint64_t, std::pair<HostIo, TimeNs>> queued_;
};

}  // namespace ssdlab::sim
