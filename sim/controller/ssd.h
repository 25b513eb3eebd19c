// The SSD controller's entry point: splits host requests into logical
// pages and hands each to the top of its serving stack, whose bottom is the
// core (ssd_core.h: the FTL, the flash scheduler, the parts that act on
// command lists).
//
// Stages of one command list run in order (a read-modify-write's reads before
// its programs); commands of one stage start as soon as their resources allow.
// A request completes when all of its flash work has.
//
// The Ssd is a small front with parts (DeviceConfig::controller, Agrawal et
// al. §3.3), each owning its state and its checkpoint section (docs/layout.md,
// "The controller as parts"): the write buffer (write_buffer_front.h), the
// zone stack (zone_stack.h: the host log and the zone part), background
// cleaning (background_cleaner.h) and the firmware's cores and data path
// (controller_limits.h) here; power-safe scheduling (power_safe.h), read
// errors (read_errors.h) and the observers (ssd_observers.h) in the core. A
// device feature is a part and its construction; the core calls the hooks
// of SsdPart (ssd_part.h) on the parts it lists, one loop a hook.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "common/host_io.h"
#include "common/state_io.h"
#include "common/units.h"
#include "ftl/ftl.h"
#include "sim/config/config.h"
#include "sim/controller/background_cleaner.h"
#include "sim/controller/controller_limits.h"
#include "sim/controller/power_cut.h"
#include "sim/controller/ssd_core.h"
#include "sim/controller/write_buffer_front.h"
#include "sim/controller/zone_stack.h"

namespace ssdlab::sim {

class Ssd {
 public:
  explicit Ssd(const DeviceConfig& config, SsdChecks checks = {});
  Ssd(const Ssd&) = delete;
  Ssd& operator=(const Ssd&) = delete;

  const DeviceConfig& config() const { return core_.config(); }
  std::uint64_t logical_bytes() const { return logical_bytes_; }
  const ftl::Ftl& ftl() const { return core_.ftl(); }
  // The core (ssd_core.h): the flash scheduler and its completions, the
  // timelines, the counters, read errors, the observers.
  SsdCore& core() { return core_; }
  const SsdCore& core() const { return core_; }
  // A hint: the host accesses these I/Os next (nullptr: unknown); the FTL
  // starts loading their state into the cache (ftl::Ftl::prefetch).
  template <class Io>
  void prefetch(const Io* soon, const Io* later) {
    core_.ftl().prefetch(core_.first_lpn(soon, logical_bytes_),
                         core_.first_lpn(later, logical_bytes_));
  }
  // A zoned device's layers above the core: its zone part, how the last
  // request start() took ended there, its host log ([host.log]); null on a
  // conventional device.
  const ZoneStack* zoned() const { return zoned_.get(); }
  const WriteBuffer* write_buffer() const { return buffer_ ? &buffer_->buffer() : nullptr; }
  // The firmware's cores and the data path, or null if the config has
  // neither.
  ControllerLimits* limits() { return limits_.get(); }
  const ControllerLimits* limits() const { return limits_.get(); }

  // The one entry point of host requests: starts `request` at `now`. A trim
  // forgets the whole logical pages it covers (a partly covered page keeps
  // its data); it completes once the commands its FTL needs, if any, have.
  // Returns the completion if it is known at once. Else the flash scheduler
  // holds the request's commands (queued dispatch, flash/scheduler.h), and
  // the completion appears in core().completions() under `tag` once
  // core().advance_flash() has dispatched its last command. With kWait, or
  // on a device whose parts need completion times at once (a write buffer,
  // power cuts, preemptible background cleaning), every queued command is
  // reserved first and the completion is always returned: the request is
  // served first come, first served behind them.
  static constexpr std::uint64_t kWait = SsdCore::kWait;
  using Completed = SsdCore::Completed;
  std::optional<TimeNs> start(const HostIo& request, TimeNs now, std::uint64_t tag = kWait);

  // The host sends nothing from `from` until `until`: a write-back buffer
  // flushes what it holds (a zoned device's, its whole stripes), and idle
  // pools clean in the background (if configured), round after round.
  void idle(TimeNs from, TimeNs until);

  // Writes every never-written logical page in [offset, offset + size)
  // functionally: maps and flash state change, no time passes. Returns the
  // number of logical pages written.
  std::uint64_t prefill(std::uint64_t offset, std::uint64_t size);
  // Writes [offset, offset + size) functionally (including any cleaning it
  // triggers): no time passes. For preconditioning.
  void write_functionally(std::uint64_t offset, std::uint64_t size);
  // Writes the whole logical pages of `runs` (ftl/page_runs.h) functionally
  // in one FTL call, as a write buffer's flush does: with map units, their
  // units fill flash pages together. Counts no request (the caller counts
  // the writes it gathered: SsdCore::count_functional_writes()). Not on a
  // zoned device.
  void write_runs_functionally(ftl::PageRuns runs);
  // Preconditioning on several threads (sim/state/precondition.h): the FTL,
  // if functional writes need nothing else of the controller (no observers,
  // power cuts or buffered data), else null. Writes may then go to it
  // directly; SsdCore::count_functional_writes() adds the
  // write_functionally() calls they stand for (and their bytes) to the
  // request count.
  ftl::Ftl* ftl_for_direct_writes();

  // Power-loss simulation (power_cut.h, power_safe.h; ssd_power.cpp). Call
  // before the first request; throws ssdlab::Error if the FTL cannot recover
  // from a cut or --verify is on (a cut makes the verifier's view of flash
  // wrong; the cut checks every acknowledged write itself).
  void enable_power_cuts();
  // Cuts the power at `at` (no earlier than the last request's submission),
  // mounts again (OOB scan, then the merges the FTL asks for, on the flash
  // timelines) and checks every acknowledged write. Host requests not
  // complete by `at` are not acknowledged; the caller resubmits them after
  // report.mount_done. Throws std::logic_error if the recovered FTL breaks
  // its invariants.
  PowerCutReport power_cut(TimeNs at,
                           ftl::RecoveryPolicy policy = ftl::RecoveryPolicy::kSequenceNumbers);
  // Checkpoints (sim/state/checkpoint.h; ssd_state.cpp): the FTL's state, the
  // flash timelines (busy-until times are absolute: the caller restores the
  // clock), the controller's counters and each part's section. load_state()
  // expects an Ssd freshly built from the same device config; with
  // verification on, the verifier then takes the loaded data as written.
  // Throws ssdlab::Error if the data does not fit.
  void save_state(StateWriter& out) const;
  void load_state(StateReader& in);

 private:
  // Whether the parts need every completion time at once: requests'
  // commands are then reserved on the timelines as they are served. A read
  // the write buffer holds nothing of (`past_buffer`) needs no time at once
  // for the buffer.
  bool needs_times_at_once(bool past_buffer = false) const {
    return (buffer_ && !past_buffer) || core_.power_cuts_enabled() || (zoned_ && zoned_->log()) ||
           (cleaner_ && cleaner_->preemptible());
  }
  // A cut at `at`: with a power-protected write buffer the device stays up
  // on its capacitor until the buffer is flushed and every flash command
  // already reserved has completed; returns when the power is off.
  TimeNs hold_up(TimeNs at);
  // The core lists the parts' hooks, and learns whether background work is
  // reserved at once.
  void list_parts();

  SsdCore core_;
  std::uint64_t logical_bytes_;
  // The parts, each null unless the config asks for it.
  std::unique_ptr<WriteBufferFront> buffer_;
  std::unique_ptr<BackgroundCleaner> cleaner_;
  std::unique_ptr<ZoneStack> zoned_;
  std::unique_ptr<ControllerLimits> limits_;
};

}  // namespace ssdlab::sim
