#include "sim/controller/ssd.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>

#include "common/error.h"
#include "ftl/pools.h"
#include "sim/controller/gang_reads.h"

namespace ssdlab::sim {

Ssd::Ssd(const DeviceConfig& config, bool verify, std::uint64_t check_every)
    : config_(config),
      ftl_(ftl::make_ftl({config.geometry, config.ftl, 0})),
      scheduler_(config.geometry, config.timing, config.controller.dispatch_order),
      timeline_(scheduler_.timeline()),
      logical_bytes_(ftl_->logical_pages() * ftl_->logical_page_size()),
      check_every_(check_every) {
  if (verify) verifier_.emplace(config.geometry, ftl_->logical_pages(), config.ftl.copy_back);
  if (config.ftl.clean_high_water > 0) {
    const ftl::PoolLayout layout(config.geometry, config.ftl.pool);
    for (std::uint32_t pool = 0; pool < layout.pools(); ++pool) {
      std::set<std::uint32_t> dies;
      for (const std::uint32_t plane : layout.planes(pool))
        dies.insert(config.geometry.die_of_plane(plane));
      pool_dies_.emplace_back(dies.begin(), dies.end());
    }
  }
  commands_.reserve(1024);
  scheduler_.set_listener(this);
  const ControllerConfig& controller = config.controller;
  preempt_ = controller.preempt_background_cleaning && !pool_dies_.empty();
  // One gang page per logical page: a read's bytes name its member pages.
  read_members_ = config.geometry.gang == flash::Gang::kSharedBusSync &&
                  ftl_->logical_page_size() == config.geometry.page_size;
  if (preempt_) rounds_.resize(pool_dies_.size());
  if (controller.write_buffer_bytes) {
    const std::uint64_t pages = controller.write_buffer_bytes / ftl_->logical_page_size();
    buffer_.emplace(pages);
    buffer_high_ =
        static_cast<std::uint64_t>(static_cast<double>(pages) * controller.flush_high_water);
    buffer_low_ =
        static_cast<std::uint64_t>(static_cast<double>(pages) * controller.flush_low_water);
  }
}

ftl::PageRange Ssd::to_range(std::uint64_t offset, std::uint64_t size) const {
  const std::uint64_t page = ftl_->logical_page_size();
  const std::uint64_t end = offset + size;
  const std::uint64_t first = page_index(offset), past = page_index(end);
  const bool starts_inside = offset != first * page, ends_inside = end != past * page;
  ftl::PageRange range;
  range.first = static_cast<ftl::Lpn>(first);
  range.count = static_cast<std::uint32_t>(past - first + (ends_inside ? 1 : 0));
  range.partial_first = starts_inside || (range.count == 1 && ends_inside);
  range.partial_last = ends_inside;
  return range;
}

TimeNs Ssd::schedule_power_safe(TimeNs now, bool background) {
  TimeNs stage_ready = now, list_done = now, done[2] = {now, now};
  bool cleaning = false;
  int stage = -1;
  for (std::uint32_t i = 0; i < commands_.size(); ++i) {
    const flash::Command& command = commands_[i];
    if (command.stage != stage) {  // a new stage waits for everything before it
      stage_ready = list_done;
      stage = command.stage;
    }
    const TimeNs end = schedule_recorded(command, power_->batch_id(i), stage_ready);
    list_done = std::max(list_done, end);
    done[command.cleaning ? 1 : 0] = std::max(done[command.cleaning ? 1 : 0], end);
    cleaning = cleaning || command.cleaning;
  }
  if (cleaning) {
    cleaning_done_ = done[1];
    count_cleaning(now, done[1], background);
  }
  return done[0];
}

TimeNs Ssd::schedule_recorded(const flash::Command& command, std::uint64_t id, TimeNs ready) {
  if (command.op == flash::Op::kErase) ready = std::max(ready, programs_done_);
  const TimeNs end = timeline_.schedule(command, ready);
  power_->completes(id, end);
  if (command.op != flash::Op::kRead && command.op != flash::Op::kErase)
    programs_done_ = std::max(programs_done_, end);
  return end;
}

std::optional<TimeNs> Ssd::schedule(TimeNs now, flash::HostWait host_wait, bool background,
                                    flash::WorkClass work, std::uint64_t tag) {
  if (power_) return schedule_power_safe(now, background);
  // (Background cleaning has no host commands: its tag only marks its time.)
  const std::uint64_t job = background ? kBackground : tag;
  if (tag != kSync) return scheduler_.submit(commands_, now, work, host_wait, job);
  sync_done_.reset();
  const std::optional<TimeNs> done = scheduler_.submit(commands_, now, work, host_wait, job);
  settle();
  if (done) return done;
  // The host chain ended in the drain (or there was none: the cleaning ended).
  return sync_done_ ? *sync_done_ : now;
}

void Ssd::host_done(std::uint64_t tag, TimeNs at) {
  if (tag == kSync)
    sync_done_ = at;
  else if (tag != kBackground)
    completions_.push_back(Completed{tag, at});
  if (const auto it = observed_.find(tag); it != observed_.end()) {
    for (SsdObserver* observer : observers_)
      observer->request_done(it->second.first, it->second.second, at);
    observed_.erase(it);
  }
}

void Ssd::cleaning_done(std::uint64_t tag, TimeNs start, TimeNs end) {
  cleaning_done_ = end;
  count_cleaning(start, end, tag == kBackground);
}

void Ssd::settle() {
  if (!scheduler_.idle()) scheduler_.drain();
}

bool Ssd::pool_idle(std::uint32_t pool, TimeNs now) const {
  const auto& dies = pool_dies_[pool];
  return std::all_of(dies.begin(), dies.end(),
                     [&](std::uint32_t die) { return timeline_.die_free_at(die) <= now; });
}

bool Ssd::clean_idle_pools(TimeNs now, bool sync) {
  bool cleaned = false;
  for (std::uint32_t pool = 0; pool < pool_dies_.size(); ++pool) {
    if (!pool_idle(pool, now) || !ftl_->wants_background_cleaning(pool)) continue;
    commands_.clear();
    ftl_->clean_in_background(pool, commands_);
    if (verifier_) verifier_->background(commands_);
    record(nullptr);
    if (!observers_.empty()) notify(CommandSource::kBackground, nullptr);
    schedule(now, flash::HostWait::kNone, true, flash::WorkClass::kCleaning,
             sync ? kSync : kBackground);
    cleaned = true;
  }
  return cleaned;
}

void Ssd::idle(TimeNs from, TimeNs until) {
  if (buffer_ && !config_.controller.write_through && buffer_->held() > 0)
    flush(buffer_->held(), from);
  settle();
  if (preempt_) return idle_preemptible(from, until);
  TimeNs now = from;
  while (now < until && clean_idle_pools(now, true)) {
    // The next moment a pool is idle again: its busiest die frees up.
    TimeNs next = until;
    for (const auto& dies : pool_dies_) {
      TimeNs free = now;
      for (std::uint32_t die : dies) free = std::max(free, timeline_.die_free_at(die));
      if (free > now) next = std::min(next, free);
    }
    if (next <= now) break;
    now = next;
  }
}

void Ssd::after_request() {
  ++requests_;
  if (verifier_ && check_every_ && requests_ % check_every_ == 0) ftl_->check_invariants();
}

std::optional<TimeNs> Ssd::flash_request(const ftl::PageRange& range, bool write, TimeNs now,
                                         bool from_buffer, std::uint64_t tag,
                                         const HostRequest* request) {
  commands_.clear();
  if (write) {
    ftl_->write(range, commands_);
    if (verifier_) verifier_->host_write(range, commands_);
  } else {
    ftl_->read(range, commands_);
    if (verifier_) verifier_->host_read(range, commands_);
    if (read_members_ && request)
      select_read_members(config_.geometry, ftl_->logical_page_size(), request->offset,
                          request->size, commands_);
  }
  record(write ? &range : nullptr);
  if (!observers_.empty())
    notify(write ? CommandSource::kHostWrite : CommandSource::kHostRead, &range);
  if (preempt_) finish_conflicting_rounds();
  const auto work = write ? flash::WorkClass::kHostWrite : flash::WorkClass::kHostRead;
  const std::optional<TimeNs> done =
      schedule(now,
               write && config_.ftl.cleaning_blocks_writes ? config_.controller.cleaning_wait
                                                           : flash::HostWait::kNone,
               false, work, tag);
  if (power_ && write) power_->host_write_done(*done, from_buffer);
  return done;
}

std::optional<TimeNs> Ssd::trim_request(const ftl::PageRange& range, TimeNs now,
                                        std::uint64_t tag) {
  if (buffer_) {  // a buffered copy of a trimmed page must not reach flash later
    const ftl::Lpn first = range.first + (range.partial_first ? 1 : 0);
    const ftl::Lpn end = range.first + range.count - (range.partial_last ? 1 : 0);
    for (ftl::Lpn lpn = first; lpn < end; ++lpn) buffer_->drop(lpn);
  }
  commands_.clear();
  ftl_->trim(range, commands_);
  if (verifier_) verifier_->host_trim(range, commands_);
  record(nullptr);
  if (power_) power_->trimmed(range);
  if (!observers_.empty()) notify(CommandSource::kHostWrite, &range);
  if (preempt_) finish_conflicting_rounds();
  return schedule(now, flash::HostWait::kNone, false, flash::WorkClass::kHostWrite, tag);
}

TimeNs Ssd::submit(const HostRequest& request, TimeNs now) {
  return *serve(request, now, kSync);
}

std::optional<TimeNs> Ssd::start(const HostRequest& request, TimeNs now, std::uint64_t tag) {
  if (!queues_flash()) throw std::logic_error("Ssd::start() needs queues_flash()");
  return serve(request, now, tag);
}

std::optional<TimeNs> Ssd::serve(const HostRequest& request, TimeNs now, std::uint64_t tag) {
  if (power_) power_->settle(now);
  // Background work that would have started before this request did.
  if (preempt_) advance_rounds(now);
  const ftl::PageRange range = to_range(request.offset, request.size);
  const bool write = request.mode == IoMode::kWrite;
  if (write) host_bytes_written_ += request.size;
  const std::optional<TimeNs> done =
      request.mode == IoMode::kTrim ? trim_request(range, now, tag)
      : !buffer_                    ? flash_request(range, write, now, false, tag, &request)
      : write                       ? buffered_write(range, request.size, now)
                                    : buffered_read(range, request.size, now);
  if (done)
    for (SsdObserver* observer : observers_) observer->request_done(request, now, *done);
  else if (!observers_.empty())
    observed_.emplace(tag, std::pair{request, now});
  // Pools the request left idle may clean in the background (after the
  // request's own commands, so that it never waits for this cleaning).
  if (preempt_)
    start_rounds(now);
  else if (!pool_dies_.empty())
    clean_idle_pools(now, tag == kSync);
  after_request();
  return done;
}

void Ssd::write_functionally(std::uint64_t offset, std::uint64_t size) {
  const ftl::PageRange range = to_range(offset, size);
  host_bytes_written_ += size;
  if (buffer_)  // a buffered copy would now be stale
    for (ftl::Lpn lpn = range.first; lpn < range.first + range.count; ++lpn) buffer_->drop(lpn);
  commands_.clear();
  ftl_->write(range, commands_);
  if (verifier_) verifier_->host_write(range, commands_);
  record(&range, true);
  if (!observers_.empty()) notify(CommandSource::kFunctional, &range);
  after_request();
}

ftl::Ftl* Ssd::ftl_for_direct_writes() {
  const bool buffered = buffer_ && buffer_->held() > 0;
  return verifier_ || power_ || !observers_.empty() || buffered ? nullptr : ftl_.get();
}

void Ssd::record(const ftl::PageRange* range, bool functional) {
  if (power_)
    power_->apply(range, commands_, ftl_->flash_for_power_cut()->take_erased_images(), functional);
}

void Ssd::enable_power_cuts() {
  if (!ftl_->flash_for_power_cut())
    throw make_error("FTL '{}' cannot recover from a power cut", ftl_->name());
  if (verifier_)
    throw make_error(
        "power cuts and --verify cannot be combined: after a cut the verifier's view of flash "
        "is wrong; every cut checks each acknowledged write itself");
  if (requests_ != 0) throw std::logic_error("enable_power_cuts() after the first request");
  ftl_->flash_for_power_cut()->record_sequence_numbers();
  power_ = std::make_unique<PowerCutRecorder>(
      config_.geometry, ftl_->logical_pages(),
      config_.ftl.logical_page_size / config_.geometry.page_size);
}

PowerCutReport Ssd::power_cut(TimeNs at, ftl::RecoveryPolicy policy) {
  if (!power_) throw std::logic_error("power_cut() without enable_power_cuts()");
  PowerCutReport report;
  report.at = at;
  const TimeNs off = hold_up(at);
  report.hold_up_ns = off - at;
  // Controller RAM: pending cleaning rounds (their unreserved commands are
  // undone below, as in flight) and the buffer's contents.
  for (PendingRound& round : rounds_) round = PendingRound{};
  std::vector<ftl::Lpn> buffered = discard_write_buffer();
  buffer_admit_ = 0;
  flash::NandArray& nand = *ftl_->flash_for_power_cut();
  power_->cut(off, nand, report, std::move(buffered));
  const ScanCost scan = scan_cost(
      nand, config_.timing,
      config_.ftl.summary_page ? ftl::summary_page_bytes(config_.geometry, config_.sector_size)
                               : 0);
  report.pages_scanned = scan.pages_read;
  report.scan_ns = scan.scan_ns;
  commands_.clear();
  ftl::RecoveryReport recovery;
  ftl_->recover(policy, commands_, recovery);
  if (recovery.pages_read != scan.pages_read)
    throw std::logic_error(fmt::format("the FTL's scan read {} pages, the scan model counts {}",
                                       recovery.pages_read, scan.pages_read));
  report.mount_commands = commands_.size();
  record(nullptr);
  const TimeNs scanned = off + scan.scan_ns;
  timeline_.restart_at(scanned);
  programs_done_ = scanned;
  schedule(scanned);  // (power-cut runs reserve in list order: schedule_power_safe)
  const TimeNs done = timeline_.all_done_at(scanned);
  report.merge_ns = done - scanned;
  report.mount_done = done;
  power_->settle(done);
  power_->check(*ftl_, report);
  ftl_->check_invariants();
  return report;
}

TimeNs Ssd::hold_up(TimeNs at) {
  if (!buffer_ || !config_.controller.buffer_power_protected) return at;
  if (!config_.controller.write_through && buffer_->held() > 0) flush(buffer_->held(), at);
  return timeline_.all_done_at(at);
}

std::uint64_t Ssd::prefill(std::uint64_t offset, std::uint64_t size) {
  const ftl::PageRange whole = to_range(offset, size);
  const std::uint64_t page = ftl_->logical_page_size();
  std::uint64_t written = 0;
  for (ftl::Lpn lpn = whole.first; lpn < whole.first + whole.count; ++lpn) {
    // (A page the write buffer holds is written already, just not on flash.)
    if (ftl_->is_mapped(lpn) || (buffer_ && buffer_->contains(lpn))) continue;
    write_functionally(lpn * page, page);
    ++written;
  }
  return written;
}

}  // namespace ssdlab::sim
