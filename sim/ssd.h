// The SSD controller: splits host requests into logical pages, asks the FTL
// for flash commands, and schedules them on the flash timelines.
//
// Stages of one command list run in order (a read-modify-write's reads before
// its programs); commands of one stage start as soon as their resources allow.
// A request completes when all of its flash work has.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "common/units.h"
#include "flash/timeline.h"
#include "ftl/ftl.h"
#include "ftl/verifier.h"
#include "sim/config.h"
#include "sim/power_cut.h"
#include "sim/ssd_observer.h"

namespace ssdlab::sim {

struct HostRequest {
  std::uint64_t offset = 0;  // bytes, sector aligned
  std::uint32_t size = 0;    // bytes, sector aligned, > 0
  bool write = false;
};

class Ssd {
 public:
  // With `verify`, every command list goes through the verifier, which throws
  // ftl::VerificationError on the first read that misses the latest write, and
  // the FTL's invariants are checked every `check_every` requests (0: never
  // here; callers check at the end of runs).
  Ssd(const DeviceConfig& config, bool verify, std::uint64_t check_every = 100000);

  std::uint64_t logical_bytes() const { return logical_bytes_; }
  const DeviceConfig& config() const { return config_; }
  const ftl::Ftl& ftl() const { return *ftl_; }
  const flash::FlashTimeline& timeline() const { return timeline_; }
  std::uint64_t verified_pages() const { return verifier_ ? verifier_->pages_checked() : 0; }
  // Simulated time during which cleaning was in progress, summed over
  // cleaning batches (foreground and background).
  TimeNs cleaning_ns() const { return cleaning_ns_; }

  // Starts `request` at `now`; returns when it completes (>= now).
  TimeNs submit(const HostRequest& request, TimeNs now);

  // Writes every never-written logical page in [offset, offset + size)
  // functionally: maps and flash state change, no time passes. Returns the
  // number of logical pages written.
  std::uint64_t prefill(std::uint64_t offset, std::uint64_t size);

  // The host sends nothing from `from` until `until`: idle pools clean in the
  // background (if configured), round after round, as long as they want to.
  void idle(TimeNs from, TimeNs until);

  // Writes [offset, offset + size) functionally (including any cleaning it
  // triggers): no time passes. For preconditioning.
  void write_functionally(std::uint64_t offset, std::uint64_t size);

  // Power-loss simulation (power_cut.h). Call before the first request;
  // throws ssdlab::Error if the FTL cannot recover from a cut or --verify is
  // on (a cut makes the verifier's view of flash wrong; the cut checks every
  // acknowledged write itself).
  void enable_power_cuts();
  bool power_cuts_enabled() const { return power_ != nullptr; }
  // Cuts the power at `at` (no earlier than the last request's submission),
  // mounts again (OOB scan, then the merges the FTL asks for, on the flash
  // timelines) and checks every acknowledged write. Host requests not
  // complete by `at` are not acknowledged; the caller resubmits them after
  // report.mount_done. Throws std::logic_error if the recovered FTL breaks
  // its invariants.
  PowerCutReport power_cut(TimeNs at,
                           ftl::RecoveryPolicy policy = ftl::RecoveryPolicy::kSequenceNumbers);

  // Observers (teaching views: --timeline, --trace-ftl); they must outlive
  // the Ssd or be detached. Neither changes what the Ssd does.
  void add_observer(SsdObserver* observer) { observers_.push_back(observer); }
  void remove_observer(SsdObserver* observer) { std::erase(observers_, observer); }
  void observe_flash(flash::TimelineObserver* observer) { timeline_.set_observer(observer); }

 private:
  ftl::PageRange to_range(std::uint64_t offset, std::uint64_t size) const;
  // Schedules commands_ from `now`: host commands and cleaning commands are two
  // chains of stages, the host chain starting after the cleaning chain if
  // `host_waits`, else independent. Returns when the host commands complete.
  TimeNs schedule(TimeNs now, bool host_waits = false);
  // With power cuts on, schedule() runs commands_ in list order instead, a
  // stage at a time (the FTL's own order), and an erase waits until every
  // program issued before it has completed: otherwise a cut could find the
  // block holding a page's old version erased while the program of its new
  // version is still under way (real FTLs keep such a block until the new
  // data is on flash). Slower than schedule(); power-cut runs only.
  TimeNs schedule_power_safe(TimeNs now);
  // Offers idle pools to the FTL for background cleaning; true if any cleaned.
  bool clean_idle_pools(TimeNs now);
  void after_request();
  // Power-cut runs: hands commands_ (a host write of `range`, or null) to the
  // recorder.
  void record(const ftl::PageRange* range, bool functional = false);
  void notify(CommandSource source, const ftl::PageRange* range) const {
    for (SsdObserver* observer : observers_) observer->commands(source, range, commands_);
  }

  DeviceConfig config_;
  std::unique_ptr<ftl::Ftl> ftl_;
  flash::FlashTimeline timeline_;
  std::optional<ftl::Verifier> verifier_;
  std::uint64_t logical_bytes_;
  std::uint64_t check_every_;
  std::uint64_t requests_ = 0;
  std::vector<std::vector<std::uint32_t>> pool_dies_;  // with background cleaning only
  TimeNs cleaning_ns_ = 0;
  flash::CommandList commands_;             // reused for every request
  std::vector<std::uint32_t> stage_order_;  // schedule(): commands_ indices by stage
  std::vector<SsdObserver*> observers_;
  std::unique_ptr<PowerCutRecorder> power_;  // power-cut runs only
  TimeNs programs_done_ = 0;                 // schedule_power_safe(): last program's end
};

}  // namespace ssdlab::sim
