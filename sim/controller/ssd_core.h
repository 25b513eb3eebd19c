// The controller's core, the bottom of its serving stack (docs/layout.md,
// "The controller as parts"): it asks the FTL for the flash commands of a
// host read, write or trim, of a write buffer's flush, of a zone action, of
// cleaning and of read reclaim; hands each list to the parts that watch
// lists (SsdPart::emitted) and to the observers; and schedules it on the
// flash timelines (flash/scheduler.h), or through power-safe scheduling on a
// device with power cuts (power_safe.h).
//
// The parts that act on command lists belong to it: power-safe scheduling,
// read errors (read_errors.h) and the observers (ssd_observers.h). The
// layers above it (the write buffer, the zone stack) and the parts that
// run around requests (background cleaning, the controller's limits) are
// the Ssd's (ssd.h), which lists their hooks here (list_parts()).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "common/host_io.h"
#include "common/state_io.h"
#include "common/units.h"
#include "flash/scheduler.h"
#include "flash/timeline.h"
#include "ftl/ftl.h"
#include "sim/config/config.h"
#include "sim/controller/background_cleaner.h"
#include "sim/controller/cleaning_clock.h"
#include "sim/controller/device_parts.h"
#include "sim/controller/map_units.h"
#include "sim/controller/power_cut.h"
#include "sim/controller/power_safe.h"
#include "sim/controller/read_errors.h"
#include "sim/controller/ssd_observers.h"
#include "sim/controller/ssd_part.h"
#include "sim/controller/write_buffer_front.h"
#include "sim/controller/zone_stack.h"

namespace ssdlab::sim {

// The checks a run asks of the controller.
struct SsdChecks {
  // Every command list goes through the verifier (verifier_check.h).
  bool verify = false;
  // With verify: the FTL's invariants are checked every this many requests
  // (0: never here; callers check at the end of runs).
  std::uint64_t invariants_every = 100000;
};

class SsdCore final : private flash::FlashScheduler::Listener,
                      public WriteBufferFront::Flash,
                      public BackgroundCleaner::Core,
                      public ZoneStack::Core,
                      public ReadErrors::Rewriter {
 public:
  // A request's tag that asks for its completion at once.
  static constexpr std::uint64_t kWait = ZoneStack::kWait;

  SsdCore(const DeviceConfig& config, SsdChecks checks);
  SsdCore(const SsdCore&) = delete;
  SsdCore& operator=(const SsdCore&) = delete;

  const DeviceConfig& config() const { return config_; }
  ftl::Ftl& ftl() { return *ftl_; }
  const ftl::Ftl& ftl() const { return *ftl_; }
  // --trace-ftl: the candidates of each victim the FTL chooses go to `into`
  // (nullptr: no more); ftl::Ftl::explain_victims.
  void explain_victims(ftl::VictimExplanations* into) { ftl_->explain_victims(into); }
  flash::FlashTimeline& timeline() { return timeline_; }
  const flash::FlashTimeline& timeline() const { return timeline_; }
  const flash::FlashScheduler& scheduler() const { return scheduler_; }
  // The FTL's pages per flash page: its map units
  // (ftl/page_mapped/page_mapped_units.h), or 1.
  std::uint32_t map_units_per_page() const { return map_units_.units_per_page(); }

  // The FTL's logical pages [offset, offset + size) touches; a partly
  // covered first or last page is marked so.
  ftl::PageRange to_range(std::uint64_t offset, std::uint64_t size) const;
  // The logical page `io` starts in, or flash::kNoLpn (no I/O, or past
  // `logical_bytes`).
  template <class Io>
  ftl::Lpn first_lpn(const Io* io, std::uint64_t logical_bytes) const {
    return io && io->offset < logical_bytes ? static_cast<ftl::Lpn>(page_index(io->offset))
                                            : flash::kNoLpn;
  }

  // The host loop's side of queued dispatch (Ssd::start).
  struct Completed {
    std::uint64_t tag;
    TimeNs at;
  };
  TimeNs next_flash_event() const { return scheduler_.next_event(); }
  // Processes the scheduler's events up to `until`; the caller has nothing
  // of its own before `horizon` (flash/scheduler.h, advance()).
  void advance_flash(TimeNs until, TimeNs horizon) { scheduler_.advance(until, horizon); }
  // Completions reported since the caller last cleared it.
  std::vector<Completed>& completions() { return completions_; }
  // Reserves every queued command (the end of a run, an idle period);
  // throws std::logic_error if some can never start (a scheduler deadlock).
  void settle();
  // The FLIN dispatch order's stage 2: each flow's NVMe priority class
  // (flash::FlashScheduler::set_flow_priorities); nothing under the others.
  void set_flow_priorities(std::vector<std::uint8_t> flow_class,
                           std::array<std::uint32_t, 3> weights) {
    scheduler_.set_flow_priorities(std::move(flow_class), weights);
  }

  // Simulated time during which cleaning was in progress, summed over
  // cleaning batches (foreground and background), and split by what started
  // it (CleaningClock).
  const CleaningClock& cleaning_time() const { return cleaning_; }
  // Bytes the host asked to write: the sizes of its write requests and of
  // functional (preconditioning) writes, whatever the write buffer and the
  // FTL made of them. The denominator of byte-based write amplification
  // (flash bytes programmed / host bytes written; DeviceCounters).
  std::uint64_t host_bytes_written() const { return host_bytes_written_; }
  std::uint64_t requests() const { return requests_; }
  // What the last host read waits for in the flash array: its slowest
  // page's class (flash::FlashTimeline::read_page_class); 0 if it read no
  // flash page (the buffer served it, its pages are unwritten, or SLC cells).
  std::uint8_t read_page_class() const { return read_class_; }
  // Flash read errors ([errors]), or null; and the pages of the last host
  // request that no step of the ECC corrected (media errors).
  ReadErrors* read_errors() { return errors_.get(); }
  const ReadErrors* read_errors() const { return errors_.get(); }
  std::span<const MediaError> media_errors() const {
    return errors_ ? std::span<const MediaError>(errors_->media_errors())
                   : std::span<const MediaError>();
  }
  // Observers (ssd_observers.h: the verifier, the teaching views,
  // --io-detail); none changes what the controller does.
  SsdObservers& observers() { return observers_; }
  const SsdObservers& observers() const { return observers_; }
  // Power-safe scheduling (power_safe.h), once power cuts are enabled.
  PowerSafeScheduling* power_safe() override { return power_.get(); }
  bool power_cuts_enabled() const { return power_ != nullptr; }

  // The parts whose hooks run (SsdPart): power-safe scheduling first,
  // then `more` (null ones skipped), then the registered parts
  // (made_parts()), then read errors, in that order; `kept_only` take no
  // hook and are listed for their checkpoints alone.
  void list_parts(std::initializer_list<SsdPart*> more,
                  std::initializer_list<SsdPart*> kept_only = {});
  // The listed parts with state of their own (SsdPart::checkpoint()), in
  // the order they are saved (Ssd::save_state).
  std::span<SsdPart* const> kept_parts() const { return kept_; }
  // Whether a listed part holds a copy of `lpn` newer than flash's
  // (SsdPart::holds: the write buffer's).
  bool held_above(ftl::Lpn lpn) const override {
    return std::any_of(parts_.begin(), parts_.end(),
                       [lpn](const SsdPart* part) { return part->holds(lpn); });
  }
  // The registered parts this device has (device_parts.h), in
  // registration order: each with its name.
  struct MadePart {
    const char* name;
    std::unique_ptr<RegisteredPart> part;
  };
  std::span<const MadePart> made_parts() const { return made_; }
  template <class Hook, class... Args>
  void each_part(Hook hook, const Args&... args) {
    for (SsdPart* part : parts_) (part->*hook)(args...);
  }
  // Whether background work (read reclaim's rewrites, a reclaim unit
  // handle update's padding) is reserved at once: the device needs every
  // completion time at once.
  void reserve_background_at_once(bool at_once) { background_at_once_ = at_once; }

  // A host request of flow `flow` (HostIo::flow; 0 for the device's own
  // work, an idle period's) is served from `now` until end_request(): the
  // scheduler's jobs carry its flow, the flushes and cleaning its write
  // triggers too, and the lists it emits belong to `now`.
  void begin_request(std::uint16_t flow, TimeNs now) {
    flow_ = flow;
    read_class_ = 0;
    clock_ = now;
  }
  void end_request() { flow_ = 0; }
  // One host read or write of `runs` on flash, from `now`; returns when
  // done, or with a tag other than kWait, the completion only if known at
  // once (queued dispatch: it appears in completions()). `request`: the
  // host's request, whose read units (member pages of a synchronous
  // shared-bus gang, codewords) a read moves (read_units.h); without it,
  // whole pages. (Also what the zone stack asks of the core:
  // ZoneStack::Core.)
  std::optional<TimeNs> flash_write(ftl::PageRuns runs, TimeNs now, WriteOrigin origin,
                                    std::uint64_t tag) override;
  std::optional<TimeNs> flash_read(const ftl::PageRange& range, TimeNs now, std::uint64_t tag,
                                   const HostIo* request) override;
  // The FTL forgets the whole logical pages of `range`.
  std::optional<TimeNs> trim(const ftl::PageRange& range, TimeNs now, std::uint64_t tag);
  // An I/O Management Send before a write (HostIo::placement's
  // kRuhUpdate): TP4146's Reclaim Unit Handle Update for identifier `id`
  // (ssd_placement.cpp).
  void update_reclaim_unit_handle(std::uint8_t id, TimeNs now);
  // A request done: counted, and every so many the FTL's invariants checked
  // (with verification).
  void after_request() override;
  void host_wrote(std::uint64_t bytes) override { host_bytes_written_ += bytes; }

  // Functional writes (preconditioning): the FTL writes `runs` in one call
  // (as_runs: ftl::Ftl::write_runs, as a write buffer's flush does; else
  // its one range, ftl::Ftl::write); no time passes.
  void write_functionally(ftl::PageRuns runs, bool as_runs);
  // Whether anything reads a functional write's command list: the
  // power-cut recorder, the error part, an observer. If not, the FTL need
  // not shape them (Ftl::set_lists_unread).
  bool functional_lists_read() const { return power_ || errors_ || !observers_.empty(); }
  // write_functionally() calls made directly on the FTL, `writes` requests
  // of `bytes` in all, counted (sim/state/precondition.h).
  void count_functional_writes(std::uint64_t writes, std::uint64_t bytes) {
    requests_ += writes;
    host_bytes_written_ += bytes;
  }
  // The end of functional writes: the wordlines they left open are padded
  // with no flash work (ftl::Ftl::close_wordlines_functionally).
  void end_functional_writes() { ftl_->close_wordlines_functionally(); }

  // Power cuts (ssd_power.cpp): power-safe scheduling from now on, with
  // the pages a torn program loses together (`paired`).
  void enable_power_cuts(const PairedPages& paired);
  // The power goes off at `off`: the recorder loses what the controller
  // held (`buffered`: the write buffer's pages), the FTL mounts again (OOB
  // scan, its merges on the timelines), and every acknowledged write is
  // checked; fills `report` from its pages scanned on.
  void power_cut(TimeNs off, std::vector<ftl::Lpn> buffered, ftl::RecoveryPolicy policy,
                 PowerCutReport& report);

  // Checkpoints (ssd_state.cpp): the FTL, the timelines and the core's
  // clocks and counters, the first part of the controller's section; the
  // read error part's section is the Ssd's to place.
  void save_state(StateWriter& out) const;
  void load_state(StateReader& in);

 private:
  // The logical page holding byte `offset`: on every request's path, so a
  // shift where the page is a power of two bytes (every preset's), not a
  // 64-bit division.
  std::uint64_t page_index(std::uint64_t offset) const {
    const std::uint64_t page = ftl_->logical_page_size();
    // (Not std::has_single_bit: without -mpopcnt it is a library call, on
    // every request's path twice.)
    return (page & (page - 1)) == 0 ? offset >> std::countr_zero(page) : offset / page;
  }

  // How commands_ go to the flash: host commands (of class `work`) and
  // cleaning commands are two chains of stages; host commands wait for the
  // cleaning chain as `host_wait` says (the ones on its packages, all, or
  // none). With `tag` kWait every queued command is then reserved and the
  // result is when the host commands complete; with a host loop's tag, the
  // result is that time only if known at once (see Ssd::start()).
  struct Dispatch {
    flash::WorkClass work = flash::WorkClass::kHostWrite;
    flash::HostWait host_wait = flash::HostWait::kNone;
    std::uint64_t tag = kWait;
  };
  static constexpr std::uint64_t kBackground = kWait - 1;
  std::optional<TimeNs> schedule(TimeNs now, const Dispatch& dispatch);
  // Background work in commands_, from `now`: at once or queued, as
  // reserve_background_at_once() said.
  void schedule_background(TimeNs now);
  // The scheduler's reports (Listener).
  void host_done(std::uint64_t tag, TimeNs at) override;
  void cleaning_done(std::uint64_t tag, TimeNs start, TimeNs end) override;
  // commands_, just emitted by the FTL for `source` (`ranges`: the host's
  // pages, none for background work), to the parts and the observers.
  void emit(CommandSource source, ftl::PageRuns ranges,
            Acknowledge acknowledge = Acknowledge::kWhenDone);
  void emit(CommandSource source, const ftl::PageRange* range,
            Acknowledge acknowledge = Acknowledge::kWhenDone) override {
    emit(source, range ? ftl::PageRuns{range, 1} : ftl::PageRuns{}, acknowledge);
  }

  // What the zone stack asks of the core besides (ZoneStack::Core).
  flash::CommandList& commands() override { return commands_; }
  std::optional<TimeNs> submit(CommandSource source, const ftl::PageRange* range, TimeNs now,
                               std::uint64_t tag) override;
  void write_at_once(const ftl::PageRange& range) override;
  // What read reclaim asks (ReadErrors::Rewriter; ssd_errors.cpp).
  void rewrite(const flash::CommandList& reads, ftl::PageRuns runs, TimeNs now) override;
  // What the write buffer and background cleaning ask
  // (WriteBufferFront::Flash, BackgroundCleaner::Core).
  TimeNs write(ftl::PageRuns runs, TimeNs now, WriteOrigin origin) override {
    return *flash_write(runs, now, origin, kWait);
  }
  std::uint32_t pack_pool(ftl::Lpn lpn) const override { return ftl_->pool_of_page(lpn); }
  std::uint32_t write_handle(ftl::Lpn lpn, std::uint8_t placement) const override {
    return ftl_->write_handle(lpn, placement);
  }
  std::uint32_t wordline_pages(std::uint32_t pool) const override {
    return ftl_->host_wordline_pages(pool);
  }
  TimeNs read(const ftl::PageRange& range, TimeNs now) override {
    return *flash_read(range, now, kWait, nullptr);
  }
  CleaningClock& cleaning() override { return cleaning_; }
  void clean_pool(std::uint32_t pool, TimeNs now, Reserve reserve) override;
  void announce(const flash::CommandList& commands) override {
    observers_.commands(CommandSource::kBackground, {}, commands);
  }
  void to_flash(flash::CommandList& commands, std::vector<std::uint32_t>* carriers) override {
    if (carriers) carriers->clear();
    if (map_units_.on()) map_units_.to_flash(commands, carriers);
  }

  DeviceConfig config_;
  std::unique_ptr<ftl::Ftl> ftl_;
  flash::FlashScheduler scheduler_;
  flash::FlashTimeline& timeline_;  // the scheduler's
  std::uint64_t invariants_every_;  // 0 without verification
  std::uint64_t requests_ = 0;
  std::uint64_t host_bytes_written_ = 0;
  CleaningClock cleaning_;
  std::uint32_t read_units_ = 0;  // host reads move only theirs, of so many a page (read_units.h)
  flash::CommandList commands_;   // reused for every request
  // Map units smaller than the flash page: the FTL's unit commands become
  // page commands on their way to the scheduler (map_units.h).
  MapUnitFlash map_units_;
  std::vector<std::uint32_t> carriers_;  // power-cut runs: each unit command's flash command
  // The flow (HostIo::flow) of the request being served, 0 outside one
  // (begin_request()): the fewest-queued dispatch order tells flows apart
  // by it.
  std::uint16_t flow_ = 0;
  std::uint8_t read_class_ = 0;  // read_page_class()
  bool background_at_once_ = false;
  SsdObservers observers_;
  std::vector<Completed> completions_;          // reported by the scheduler
  std::optional<TimeNs> sync_done_;             // schedule(kWait): the host chain's end
  std::vector<SsdPart*> parts_;                 // in the order their hooks run
  std::vector<SsdPart*> kept_;                  // kept_parts()
  std::unique_ptr<PowerSafeScheduling> power_;  // null until enable_power_cuts()
  std::unique_ptr<ReadErrors> errors_;          // null without [errors]
  // The time the command lists emitted now belong to (the blocks they
  // program are stamped with it: read errors' retention).
  TimeNs clock_ = 0;
  std::vector<MadePart> made_;  // made_parts()
};

}  // namespace ssdlab::sim
