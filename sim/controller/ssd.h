// The SSD controller: splits host requests into logical pages, asks the FTL
// for flash commands, and schedules them on the flash timelines.
//
// Stages of one command list run in order (a read-modify-write's reads before
// its programs); commands of one stage start as soon as their resources allow.
// A request completes when all of its flash work has.
//
// The controller model (DeviceConfig::controller, Agrawal et al. §3.3): an
// optional DRAM write buffer (sim/controller/write_buffer.h) in front of the FTL, and
// background cleaning that either runs a whole round once started or yields
// to host requests between its page moves and erases (ssd_background.cpp).
#pragma once

#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/io_mode.h"
#include "common/units.h"
#include "flash/scheduler.h"
#include "flash/timeline.h"
#include "ftl/ftl.h"
#include "ftl/verifier.h"
#include "sim/config/config.h"
#include "sim/controller/ssd_observer.h"
#include "sim/controller/write_buffer.h"
#include "sim/state/power_cut.h"

namespace ssdlab::sim {

struct HostRequest {
  std::uint64_t offset = 0;  // bytes, sector aligned
  std::uint32_t size = 0;    // bytes, sector aligned, > 0
  IoMode mode = IoMode::kRead;
};

class Ssd : private flash::FlashScheduler::Listener {
 public:
  // With `verify`, every command list goes through the verifier, which throws
  // ftl::VerificationError on the first read that misses the latest write, and
  // the FTL's invariants are checked every `check_every` requests (0: never
  // here; callers check at the end of runs).
  Ssd(const DeviceConfig& config, bool verify, std::uint64_t check_every = 100000);

  std::uint64_t logical_bytes() const { return logical_bytes_; }
  // A hint: the host accesses these I/Os next (nullptr: unknown); the FTL
  // starts loading their state into the cache (ftl::Ftl::prefetch).
  template <class Io>
  void prefetch(const Io* soon, const Io* later) const {
    ftl_->prefetch(first_lpn(soon), first_lpn(later));
  }
  const DeviceConfig& config() const { return config_; }
  const ftl::Ftl& ftl() const { return *ftl_; }
  const flash::FlashTimeline& timeline() const { return timeline_; }
  const flash::FlashScheduler& scheduler() const { return scheduler_; }
  std::uint64_t verified_pages() const { return verifier_ ? verifier_->pages_checked() : 0; }
  // Simulated time during which cleaning was in progress, summed over
  // cleaning batches (foreground and background).
  TimeNs cleaning_ns() const { return cleaning_ns_; }
  // The same split by what started it: host writes and buffer flushes
  // (foreground) or idle pools (background).
  TimeNs foreground_cleaning_ns() const { return cleaning_ns_ - background_cleaning_ns_; }
  TimeNs background_cleaning_ns() const { return background_cleaning_ns_; }
  // Bytes the host asked to write: the sizes of its write requests and of
  // functional (preconditioning) writes, whatever the write buffer and the
  // FTL made of them. The denominator of byte-based write amplification
  // (flash bytes programmed / host bytes written; DeviceCounters).
  std::uint64_t host_bytes_written() const { return host_bytes_written_; }

  // The DRAM write buffer, or null if there is none. Power-loss models: with
  // a write-back buffer, contents() are acknowledged writes not yet on flash;
  // discard_write_buffer() drops them as an unprotected power cut would.
  const WriteBuffer* write_buffer() const { return buffer_ ? &*buffer_ : nullptr; }
  std::vector<ftl::Lpn> discard_write_buffer();

  // Starts `request` at `now`; returns when it completes (>= now). A trim
  // forgets the whole logical pages it covers (a partly covered page keeps
  // its data); it completes once the commands its FTL needs, if any, have.
  // The flash scheduler runs ahead until every queued command is reserved,
  // so the request is served first come, first served behind them.
  TimeNs submit(const HostRequest& request, TimeNs now);

  // Queued dispatch (flash/scheduler.h), for a host loop that interleaves the
  // flash scheduler's events with its own: start() queues `request` at `now`
  // and returns its completion if every command was dispatched at once;
  // else the completion appears in completions() (under `tag`) once
  // advance_flash() has dispatched its last command. Only where
  // queues_flash(): without a write buffer, power cuts or preemptible
  // background cleaning, which need completion times at once and run
  // through submit().
  bool queues_flash() const { return !buffer_ && !power_ && !preempt_; }
  std::optional<TimeNs> start(const HostRequest& request, TimeNs now, std::uint64_t tag);
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
  // flushes everything it holds, and idle pools clean in the background (if
  // configured), round after round, as long as they want to.
  void idle(TimeNs from, TimeNs until);

  // Writes [offset, offset + size) functionally (including any cleaning it
  // triggers): no time passes. For preconditioning.
  void write_functionally(std::uint64_t offset, std::uint64_t size);
  // Preconditioning on several threads (sim/state/precondition.h): the FTL,
  // if functional writes need nothing else of the controller (no verifier,
  // power cuts, observers or buffered data), else null. Writes may then go
  // to it directly; count_functional_writes() adds the write_functionally()
  // calls they stand for (and their bytes) to the request count.
  ftl::Ftl* ftl_for_direct_writes();
  void count_functional_writes(std::uint64_t writes, std::uint64_t bytes) {
    requests_ += writes;
    host_bytes_written_ += bytes;
  }

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
  // Checkpoints (sim/state/checkpoint.h): the FTL's state, the flash timelines
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
  // The logical page holding byte `offset`: on every request's path, so a
  // shift where the page is a power of two bytes (every preset's), not a
  // 64-bit division.
  std::uint64_t page_index(std::uint64_t offset) const {
    const std::uint64_t page = ftl_->logical_page_size();
    return std::has_single_bit(page) ? offset >> std::countr_zero(page) : offset / page;
  }
  template <class Io>
  ftl::Lpn first_lpn(const Io* io) const {
    return io && io->offset < logical_bytes_ ? static_cast<ftl::Lpn>(page_index(io->offset))
                                             : flash::kNoLpn;
  }
  // Hands commands_ to the flash scheduler from `now`: host commands (of
  // class `work`) and cleaning commands are two chains of stages; host
  // commands wait for the cleaning chain as `host_wait` says (the ones on
  // its packages, all, or none). With kSync, every queued command is then reserved and the
  // result is when the host commands complete; with a host loop's tag, the
  // result is that time only if known at once (see start()).
  static constexpr std::uint64_t kSync = ~std::uint64_t{0};
  static constexpr std::uint64_t kBackground = kSync - 1;
  std::optional<TimeNs> schedule(TimeNs now, flash::HostWait host_wait = flash::HostWait::kNone,
                                 bool background = false,
                                 flash::WorkClass work = flash::WorkClass::kHostWrite,
                                 std::uint64_t tag = kSync);
  // The scheduler's reports (Listener).
  void host_done(std::uint64_t tag, TimeNs at) override;
  void cleaning_done(std::uint64_t tag, TimeNs start, TimeNs end) override;
  // With power cuts on, schedule() runs commands_ in list order instead, a
  // stage at a time (the FTL's own order), and an erase waits until every
  // program issued before it has completed: otherwise a cut could find the
  // block holding a page's old version erased while the program of its new
  // version is still under way (real FTLs keep such a block until the new
  // data is on flash). Slower than schedule(); power-cut runs only.
  TimeNs schedule_power_safe(TimeNs now, bool background = false);
  // A cleaning batch ran from `start` to `end`: counted in cleaning_ns(),
  // and in background_cleaning_ns() if it ran in the background.
  void count_cleaning(TimeNs start, TimeNs end, bool background) {
    cleaning_ns_ += end - start;
    if (background) background_cleaning_ns_ += end - start;
  }
  // Power-cut runs: reserves `command` (recorder id `id`) from `ready`, an
  // erase no earlier than every program reserved before it; returns its end.
  TimeNs schedule_recorded(const flash::Command& command, std::uint64_t id, TimeNs ready);
  // Offers idle pools to the FTL for background cleaning; true if any cleaned.
  // `sync`: its commands are reserved at once (idle periods).
  bool clean_idle_pools(TimeNs now, bool sync);
  bool pool_idle(std::uint32_t pool, TimeNs now) const;
  // One host read or write of `range` on flash, from `now`; returns when done.
  // `from_buffer`: a write-back buffer's flush (power-cut runs count its
  // pages as the buffer's if a cut interrupts it).
  // With a tag, as schedule(): the completion only if known at once.
  // `request`: the host's request, whose bytes a read on a synchronous
  // shared-bus gang moves (gang_reads.h); without it, whole pages.
  std::optional<TimeNs> flash_request(const ftl::PageRange& range, bool write, TimeNs now,
                                      bool from_buffer = false, std::uint64_t tag = kSync,
                                      const HostRequest* request = nullptr);
  std::optional<TimeNs> trim_request(const ftl::PageRange& range, TimeNs now,
                                     std::uint64_t tag = kSync);
  // submit() and start(): the request on flash or through the buffer.
  std::optional<TimeNs> serve(const HostRequest& request, TimeNs now, std::uint64_t tag);

  // Write buffer (ssd_buffer.cpp).
  TimeNs buffered_write(const ftl::PageRange& range, std::uint32_t bytes, TimeNs now);
  TimeNs buffered_read(const ftl::PageRange& range, std::uint32_t bytes, TimeNs now);
  // Writes the `count` oldest buffered pages to flash from `now`, in runs of
  // consecutive pages; their space frees when the flush completes.
  void flush(std::uint64_t count, TimeNs now);
  TimeNs buffer_transfer_ns(std::uint64_t bytes) const;

  // Preemptible background cleaning (ssd_background.cpp). A round's commands
  // are taken from the FTL at once (its maps change then) but reserved on the
  // timelines one at a time, only when they would start before the next host
  // request: the host goes first, the rest waits for the next idle moment.
  struct PendingRound {
    flash::CommandList commands;  // in stage order
    std::size_t next = 0;         // first command not yet reserved
    std::uint8_t stage = 0;       // stage of the last command reserved
    TimeNs started = 0, stage_ready = 0, stage_done = 0;
    std::vector<flash::BlockId> blocks;  // blocks it programs, erases or reads
    std::vector<std::uint64_t> ids;      // power-cut runs: each command's recorder id
    bool pending() const { return next < commands.size(); }
  };
  // Starts a round on each idle pool that wants one and has none pending.
  bool start_rounds(TimeNs now);
  void sort_round(PendingRound& round);
  // Reserves the commands of pending rounds that would start before `limit`.
  void advance_rounds(TimeNs limit);
  void advance_round(PendingRound& round, TimeNs limit);
  // A host program or erase on a block a pending round still works on waits
  // for the rest of that round (the block must be erased first).
  void finish_conflicting_rounds();
  void idle_preemptible(TimeNs from, TimeNs until);
  void after_request();
  // Power-cut runs: hands commands_ (a host write of `range`, or null) to the
  // recorder.
  void record(const ftl::PageRange* range, bool functional = false);
  // A cut at `at`: with a power-protected write buffer the device stays up
  // on its capacitor until the buffer is flushed and every flash command
  // already reserved has completed; returns when the power is off.
  TimeNs hold_up(TimeNs at);
  void notify(CommandSource source, const ftl::PageRange* range) const {
    for (SsdObserver* observer : observers_) observer->commands(source, range, commands_);
  }

  DeviceConfig config_;
  std::unique_ptr<ftl::Ftl> ftl_;
  flash::FlashScheduler scheduler_;
  flash::FlashTimeline& timeline_;  // the scheduler's
  std::optional<ftl::Verifier> verifier_;
  std::uint64_t logical_bytes_;
  std::uint64_t check_every_;
  std::uint64_t requests_ = 0;
  std::vector<std::vector<std::uint32_t>> pool_dies_;  // with background cleaning only
  TimeNs cleaning_ns_ = 0;
  TimeNs background_cleaning_ns_ = 0;
  std::uint64_t host_bytes_written_ = 0;
  TimeNs cleaning_done_ = 0;          // when the cleaning chain of the last schedule() ended
  bool preempt_ = false;              // background cleaning yields to the host
  bool read_members_ = false;         // host reads move only their member pages (gang_reads.h)
  std::vector<PendingRound> rounds_;  // per pool, with preempt_ only
  std::optional<WriteBuffer> buffer_;
  std::uint64_t buffer_high_ = 0, buffer_low_ = 0;  // flush marks, in pages
  TimeNs buffer_admit_ = 0;  // buffered writes enter in order: the last one's entry
  std::vector<ftl::Lpn> flush_pages_;
  flash::CommandList commands_;             // reused for every request
  std::vector<std::uint32_t> stage_order_;  // schedule(): commands_ indices by stage
  std::vector<SsdObserver*> observers_;
  std::unique_ptr<PowerCutRecorder> power_;  // power-cut runs only
  TimeNs programs_done_ = 0;                 // schedule_power_safe(): last program's end
  std::vector<Completed> completions_;       // start(): reported by the scheduler
  std::optional<TimeNs> sync_done_;          // schedule(kSync): the host chain's end
  // start() with observers: requests whose completion comes later, by tag.
  std::unordered_map<std::uint64_t, std::pair<HostRequest, TimeNs>> observed_;
};

}  // namespace ssdlab::sim
