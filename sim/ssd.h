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

  // Checkpoints (sim/checkpoint.h): the FTL's state, the flash timelines
  // (busy-until times are absolute: the caller restores the clock) and the
  // controller's counters. load_state() expects an Ssd freshly built from the
  // same device config; with verification on, the verifier then takes the
  // loaded data as written. Throws ssdlab::Error if the data does not fit.
  void save_state(StateWriter& out) const;
  void load_state(StateReader& in);

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
  // Offers idle pools to the FTL for background cleaning; true if any cleaned.
  bool clean_idle_pools(TimeNs now);
  void after_request();
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
};

}  // namespace ssdlab::sim
