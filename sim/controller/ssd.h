// The SSD controller: splits host requests into logical pages, asks the FTL
// for flash commands, and schedules them on the flash timelines.
//
// Stages of one command list run in order (a read-modify-write's reads before
// its programs); commands of one stage start as soon as their resources allow.
// A request completes when all of its flash work has.
//
// The Ssd is a small core with parts (DeviceConfig::controller, Agrawal et al.
// §3.3), each owning its state and its checkpoint section (docs/layout.md,
// "The controller as parts"): the write buffer (write_buffer_front.h),
// background cleaning (background_cleaner.h), power-safe scheduling
// (power_safe.h), the firmware's cores and data path (controller_limits.h),
// the zone stack (zone_stack.h: the host log and the zone part), read
// errors (read_errors.h), and the observers (ssd_observers.h: the verifier,
// the teaching views). A device feature is a part and its construction
// here; the core calls the hooks of SsdPart (ssd_part.h) on the parts it
// lists, one loop a hook (each_part()).
#pragma once

#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/host_io.h"
#include "common/units.h"
#include "flash/scheduler.h"
#include "flash/timeline.h"
#include "flash/timeline_observers.h"
#include "ftl/ftl.h"
#include "sim/config/config.h"
#include "sim/controller/background_cleaner.h"
#include "sim/controller/cleaning_clock.h"
#include "sim/controller/controller_limits.h"
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

class Ssd final : private flash::FlashScheduler::Listener,
                  private WriteBufferFront::Flash,
                  private BackgroundCleaner::Core,
                  private ZoneStack::Core,
                  private ReadErrors::Rewriter {
 public:
  explicit Ssd(const DeviceConfig& config, SsdChecks checks = {});
  Ssd(const Ssd&) = delete;
  Ssd& operator=(const Ssd&) = delete;

  std::uint64_t logical_bytes() const { return logical_bytes_; }
  // The FTL's pages per flash page: its map units (ftl/page_mapped/page_mapped_units.h), or 1.
  std::uint32_t map_units_per_page() const { return map_units_.units_per_page(); }
  // A hint: the host accesses these I/Os next (nullptr: unknown); the FTL
  // starts loading their state into the cache (ftl::Ftl::prefetch).
  template <class Io>
  void prefetch(const Io* soon, const Io* later) const {
    ftl_->prefetch(first_lpn(soon), first_lpn(later));
  }
  const DeviceConfig& config() const { return config_; }
  const ftl::Ftl& ftl() const { return *ftl_; }
  // --trace-ftl: the candidates of each victim the FTL chooses go to `into`
  // (nullptr: no more); ftl::Ftl::explain_victims.
  void explain_victims(ftl::VictimExplanations* into) { ftl_->explain_victims(into); }
  const flash::FlashTimeline& timeline() const { return timeline_; }
  const flash::FlashScheduler& scheduler() const { return scheduler_; }
  // The FLIN dispatch order's stage 2: each flow's NVMe priority class
  // (flash::FlashScheduler::set_flow_priorities); nothing under the others.
  void set_flow_priorities(std::vector<std::uint8_t> flow_class,
                           std::array<std::uint32_t, 3> weights) {
    scheduler_.set_flow_priorities(std::move(flow_class), weights);
  }
  // Simulated time during which cleaning was in progress, summed over
  // cleaning batches (foreground and background), and the same split by what
  // started it: host writes and buffer flushes (foreground) or idle pools
  // (background).
  TimeNs cleaning_ns() const { return cleaning_.total_ns; }
  TimeNs foreground_cleaning_ns() const { return cleaning_.foreground_ns(); }
  TimeNs background_cleaning_ns() const { return cleaning_.background_ns; }
  // Bytes the host asked to write: the sizes of its write requests and of
  // functional (preconditioning) writes, whatever the write buffer and the
  // FTL made of them. The denominator of byte-based write amplification
  // (flash bytes programmed / host bytes written; DeviceCounters).
  std::uint64_t host_bytes_written() const { return host_bytes_written_; }
  // A zoned device's layers above the core: its zone part, how the last
  // request start() took ended there, its host log ([host.log]); null on a
  // conventional device.
  const ZoneStack* zoned() const { return zoned_.get(); }
  const WriteBuffer* write_buffer() const { return buffer_ ? &buffer_->buffer() : nullptr; }
  // Flash read errors ([errors]), or null; and the pages of the last
  // request start() took that no step of the ECC corrected (media errors).
  const ReadErrors* read_errors() const { return errors_.get(); }
  std::span<const MediaError> media_errors() const {
    return errors_ ? std::span<const MediaError>(errors_->media_errors())
                   : std::span<const MediaError>();
  }
  // What the last read start() took waits for in the flash array: its slowest
  // page's class (flash::FlashTimeline::read_page_class); 0 if it read no
  // flash page (the buffer served it, its pages are unwritten, or SLC cells).
  std::uint8_t read_page_class() const { return read_class_; }
  // The firmware's cores and the data path, or null if the config has
  // neither.
  ControllerLimits* limits() { return limits_.get(); }
  const ControllerLimits* limits() const { return limits_.get(); }

  // The one entry point of host requests: starts `request` at `now`. A trim
  // forgets the whole logical pages it covers (a partly covered page keeps
  // its data); it completes once the commands its FTL needs, if any, have.
  // Returns the completion if it is known at once. Else the flash scheduler
  // holds the request's commands (queued dispatch, flash/scheduler.h), and
  // the completion appears in completions() under `tag` once advance_flash()
  // has dispatched its last command. With kWait, or on a device whose parts
  // need completion times at once (a write buffer, power cuts, preemptible
  // background cleaning), every queued command is reserved first and the
  // completion is always returned: the request is served first come, first
  // served behind them.
  static constexpr std::uint64_t kWait = ZoneStack::kWait;
  std::optional<TimeNs> start(const HostIo& request, TimeNs now, std::uint64_t tag = kWait);
  TimeNs next_flash_event() const { return scheduler_.next_event(); }
  // Processes the scheduler's events up to `until`; the caller has nothing
  // of its own before `horizon` (flash/scheduler.h, advance()).
  void advance_flash(TimeNs until, TimeNs horizon) { scheduler_.advance(until, horizon); }
  struct Completed {
    std::uint64_t tag;
    TimeNs at;
  };
  // Completions reported since the caller last cleared it.
  std::vector<Completed>& completions() { return completions_; }
  // Reserves every queued command (the end of a run, an idle period).
  void settle();

  // Writes every never-written logical page in [offset, offset + size)
  // functionally: maps and flash state change, no time passes. Returns the
  // number of logical pages written.
  std::uint64_t prefill(std::uint64_t offset, std::uint64_t size);

  // The host sends nothing from `from` until `until`: a write-back buffer
  // flushes what it holds (a zoned device's, its whole stripes), and idle
  // pools clean in the background (if configured), round after round.
  void idle(TimeNs from, TimeNs until);

  // Writes [offset, offset + size) functionally (including any cleaning it
  // triggers): no time passes. For preconditioning.
  void write_functionally(std::uint64_t offset, std::uint64_t size);
  // Writes the whole logical pages of `runs` (ftl/page_runs.h) functionally
  // in one FTL call, as a write buffer's flush does: with map units, their
  // units fill flash pages together. Counts no request (the caller counts
  // the writes it gathered: count_functional_writes()). Not on a zoned
  // device.
  void write_runs_functionally(ftl::PageRuns runs);
  // Preconditioning on several threads (sim/state/precondition.h): the FTL,
  // if functional writes need nothing else of the controller (no observers,
  // power cuts or buffered data), else null. Writes may then go to it
  // directly; count_functional_writes() adds the write_functionally() calls
  // they stand for (and their bytes) to the request count.
  ftl::Ftl* ftl_for_direct_writes();
  void count_functional_writes(std::uint64_t writes, std::uint64_t bytes) {
    requests_ += writes;
    host_bytes_written_ += bytes;
  }
  // The end of functional writes: the wordlines they left open are padded
  // with no flash work (ftl::Ftl::close_wordlines_functionally).
  void end_functional_writes() { ftl_->close_wordlines_functionally(); }
  // Whether anything reads a functional write's command list (emit()): the
  // power-cut recorder, the error part, an observer. If not, the FTL need
  // not shape them (Ftl::set_lists_unread).
  bool functional_lists_read() const { return power_ || errors_ || !observers_.empty(); }

  // Power-loss simulation (power_cut.h, power_safe.h; ssd_power.cpp). Call
  // before the first request; throws ssdlab::Error if the FTL cannot recover
  // from a cut or --verify is on (a cut makes the verifier's view of flash
  // wrong; the cut checks every acknowledged write itself).
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
  // Checkpoints (sim/state/checkpoint.h; ssd_state.cpp): the FTL's state, the
  // flash timelines (busy-until times are absolute: the caller restores the
  // clock), the controller's counters and each part's section. load_state()
  // expects an Ssd freshly built from the same device config; with
  // verification on, the verifier then takes the loaded data as written.
  // Throws ssdlab::Error if the data does not fit.
  void save_state(StateWriter& out) const;
  void load_state(StateReader& in);

  // Observers (ssd_observers.h: the verifier, the teaching views,
  // --io-detail); none changes what the Ssd does.
  SsdObservers& observers() { return observers_; }
  const SsdObservers& observers() const { return observers_; }

 private:
  ftl::PageRange to_range(std::uint64_t offset, std::uint64_t size) const;
  // The logical page holding byte `offset`: on every request's path, so a
  // shift where the page is a power of two bytes (every preset's), not a
  // 64-bit division.
  std::uint64_t page_index(std::uint64_t offset) const {
    const std::uint64_t page = ftl_->logical_page_size();
    // (Not std::has_single_bit: without -mpopcnt it is a library call, on
    // every request's path twice.)
    return (page & (page - 1)) == 0 ? offset >> std::countr_zero(page) : offset / page;
  }
  template <class Io>
  ftl::Lpn first_lpn(const Io* io) const {
    return io && io->offset < logical_bytes_ ? static_cast<ftl::Lpn>(page_index(io->offset))
                                             : flash::kNoLpn;
  }
  // Parts that need every completion time at once: their requests are
  // reserved on the timelines as they are served.
  bool needs_times_at_once() const { return buffer_ || needs_times_at_once_besides_buffer(); }
  // (A read the write buffer holds nothing of needs no time at once for it.)
  bool needs_times_at_once_besides_buffer() const {
    return power_ || (zoned_ && zoned_->log()) || (cleaner_ && cleaner_->preemptible());
  }

  // How commands_ go to the flash: host commands (of class `work`) and
  // cleaning commands are two chains of stages; host commands wait for the
  // cleaning chain as `host_wait` says (the ones on its packages, all, or
  // none). With `tag` kWait every queued command is then reserved and the
  // result is when the host commands complete; with a host loop's tag, the
  // result is that time only if known at once (see start()).
  struct Dispatch {
    flash::WorkClass work = flash::WorkClass::kHostWrite;
    flash::HostWait host_wait = flash::HostWait::kNone;
    std::uint64_t tag = kWait;
  };
  static constexpr std::uint64_t kBackground = kWait - 1;
  // prefill() with map units: the units one FTL call writes at most.
  static constexpr std::uint32_t kPrefillRun = 4096;
  std::optional<TimeNs> schedule(TimeNs now, const Dispatch& dispatch);
  // The scheduler's reports (Listener).
  void host_done(std::uint64_t tag, TimeNs at) override;
  void cleaning_done(std::uint64_t tag, TimeNs start, TimeNs end) override;
  // commands_, just emitted by the FTL for `source` (`range`: the host's
  // pages, null for background work), to the recorder and the observers.
  void emit(CommandSource source, ftl::PageRuns ranges,
            Acknowledge acknowledge = Acknowledge::kWhenDone);
  void emit(CommandSource source, const ftl::PageRange* range,
            Acknowledge acknowledge = Acknowledge::kWhenDone) override {
    emit(source, range ? ftl::PageRuns{range, 1} : ftl::PageRuns{}, acknowledge);
  }
  // One host read or write of `range` on flash, from `now`; returns when
  // done, or with a tag, as schedule(): the completion only if known at once.
  // `request`: the host's request, whose read units (member pages of a
  // synchronous shared-bus gang, codewords) a read moves (read_units.h);
  // without it, whole pages.
  // (Also what the zone stack asks of the core: ZoneStack::Core.)
  std::optional<TimeNs> flash_write(ftl::PageRuns runs, TimeNs now, WriteOrigin origin,
                                    std::uint64_t tag) override;
  std::optional<TimeNs> flash_read(const ftl::PageRange& range, TimeNs now, std::uint64_t tag,
                                   const HostIo* request) override;
  std::optional<TimeNs> trim(const ftl::PageRange& range, TimeNs now, std::uint64_t tag);
  // What the zone stack asks of the core besides (ZoneStack::Core; ssd.cpp).
  flash::CommandList& commands() override { return commands_; }
  std::optional<TimeNs> submit(CommandSource source, const ftl::PageRange* range, TimeNs now,
                               std::uint64_t tag) override;
  void write_at_once(const ftl::PageRange& range) override;
  void host_wrote(std::uint64_t bytes) override { host_bytes_written_ += bytes; }
  void after_request() override;
  // What read reclaim asks of the core (ReadErrors::Rewriter; ssd_errors.cpp).
  bool held_in_buffer(ftl::Lpn lpn) const override { return buffer_ && buffer_->holds(lpn); }
  void rewrite(const flash::CommandList& reads, ftl::PageRuns runs, TimeNs now) override;
  // An I/O Management Send before a write (HostIo::placement's kRuhUpdate):
  // TP4146's Reclaim Unit Handle Update for identifier `id` (ssd_placement.cpp).
  void update_reclaim_unit_handle(std::uint8_t id, TimeNs now);
  // A cut at `at`: with a power-protected write buffer the device stays up
  // on its capacitor until the buffer is flushed and every flash command
  // already reserved has completed; returns when the power is off.
  TimeNs hold_up(TimeNs at);
  // parts_: the SsdPart parts built, in the order their hooks run.
  void list_parts();
  template <class Hook, class... Args>
  void each_part(Hook hook, const Args&... args) {
    for (SsdPart* part : parts_) (part->*hook)(args...);
  }

  // What the parts ask of the core (WriteBufferFront::Flash,
  // BackgroundCleaner::Core).
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
  PowerSafeScheduling* power_safe() override { return power_.get(); }

  DeviceConfig config_;
  std::unique_ptr<ftl::Ftl> ftl_;
  flash::FlashScheduler scheduler_;
  flash::FlashTimeline& timeline_;  // the scheduler's
  std::uint64_t logical_bytes_;
  std::uint64_t invariants_every_;  // 0 without verification
  std::uint64_t requests_ = 0;
  std::uint64_t host_bytes_written_ = 0;
  CleaningClock cleaning_;
  std::uint32_t read_units_ = 0;  // host reads move only theirs, of so many a page (read_units.h)
  flash::CommandList commands_;  // reused for every request
  // Map units smaller than the flash page: the FTL's unit commands become
  // page commands on their way to the scheduler (map_units.h).
  MapUnitFlash map_units_;
  std::vector<std::uint32_t> carriers_;  // power-cut runs: each unit command's flash command
  // The flow (HostIo::flow) of the request start() is serving, 0 outside
  // it: the scheduler's jobs carry it, the flushes and cleaning a request's
  // write triggers too (the fewest-queued dispatch order tells flows apart by it).
  std::uint16_t flow_ = 0;
  std::uint8_t read_class_ = 0;  // read_page_class()
  SsdObservers observers_;
  std::vector<Completed> completions_;  // start(): reported by the scheduler
  std::optional<TimeNs> sync_done_;     // schedule(kWait): the host chain's end

  // The parts, each null unless the config or the run asks for it; those
  // with SsdPart hooks listed in parts_ too.
  std::vector<SsdPart*> parts_;
  std::unique_ptr<WriteBufferFront> buffer_;
  std::unique_ptr<BackgroundCleaner> cleaner_;
  std::unique_ptr<PowerSafeScheduling> power_;
  std::unique_ptr<ZoneStack> zoned_;
  std::unique_ptr<ControllerLimits> limits_;
  std::unique_ptr<ReadErrors> errors_;
  // With errors_: the time the command lists emitted now belong to (the
  // blocks they program are stamped with it).
  TimeNs clock_ = 0;
};

}  // namespace ssdlab::sim
