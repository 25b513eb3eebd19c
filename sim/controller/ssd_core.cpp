#include "sim/controller/ssd_core.h"

#include <stdexcept>

#include "common/error.h"
#include "ftl/page_runs.h"
#include "sim/controller/buffer_transfer.h"
#include "sim/controller/read_units.h"

namespace ssdlab::sim {
namespace {

// Map units (ftl/page_mapped/page_mapped_units.h): the FTL's pages (`ftl_page` bytes)
// parts of the `flash_page`. Its commands then name units; the flash gets
// pages, a unit's read moving its share of the page's read units (the
// timeline's: codewords, or 1, the whole page, which no unit has a share of).
MapUnitFlash map_unit_flash(std::uint32_t flash_page, std::uint32_t ftl_page,
                            std::uint32_t read_units_per_page) {
  const std::uint32_t units = flash_page / ftl_page;
  if (units <= 1) return {1, 0};
  return {units, read_units_per_page / units};
}

}  // namespace

SsdCore::SsdCore(const DeviceConfig& config, SsdChecks checks)
    : config_(config),
      ftl_(ftl::make_ftl({config.geometry, config.ftl, 0})),
      scheduler_(config.geometry, config.timing, config.controller.dispatch_order, config.suspend),
      timeline_(scheduler_.timeline()),
      invariants_every_(checks.verify ? checks.invariants_every : 0),
      map_units_(map_unit_flash(config.geometry.page_size, ftl_->nand().geometry().page_size,
                                timeline_.read_units_per_page())),
      observers_(timeline_) {
  commands_.reserve(1024);
  scheduler_.set_listener(this);
  // Cells of several bits: the timeline reads which blocks the FTL runs in
  // SLC mode (an SLC device's timeline never asks).
  if (config.geometry.cell_type != flash::CellType::kSlc) timeline_.attach(&ftl_->nand());
  // A die whose latches hold staged pages serves nothing else (flash/die_latches.h).
  if (config.ftl.wordline_pages > 1) scheduler_.hold_wordline_latches();
  // One flash page per logical page: a read's bytes name its member pages
  // (a synchronous shared-bus gang) or its codewords (timing.read_transfer).
  if (const std::uint32_t units = timeline_.read_units_per_page();
      units > 1 && ftl_->logical_page_size() == config.geometry.page_size)
    read_units_ = units;
  if (checks.verify) {
    // (It follows the FTL's pages: with map units, units.)
    observers_.verify_with(std::make_unique<VerifierCheck>(
        map_units_.on() ? flash::Geometry{ftl_->nand().geometry()} : config.geometry,
        ftl_->logical_pages(), config.ftl.copy_back));
  }
  errors_ = ReadErrors::make(config.errors, *ftl_, config.source, *this);
  for (const DevicePart* part : device_parts())
    if (std::unique_ptr<RegisteredPart> made = part->make({config_, *this}))
      made_.push_back({part->name, std::move(made)});
  list_parts({});
}

void SsdCore::list_parts(std::initializer_list<SsdPart*> more,
                         std::initializer_list<SsdPart*> kept_only) {
  parts_.clear();
  // Read errors last: its after_request() (read reclaim) follows the
  // others' (background cleaning's rounds); its other hooks, emitted() and
  // before_request(), touch nothing of the other parts: their place among
  // them changes no result.
  const auto add = [this](SsdPart* part) {
    if (part) parts_.push_back(part);  // (a part the device has)
  };
  add(power_.get());
  for (SsdPart* part : more) add(part);
  for (const MadePart& made : made_) add(made.part.get());
  add(errors_.get());
  kept_.clear();
  for (SsdPart* part : parts_)
    if (part->checkpoint()) kept_.push_back(part);
  for (SsdPart* part : kept_only)
    if (part && part->checkpoint()) kept_.push_back(part);
}

ftl::PageRange SsdCore::to_range(std::uint64_t offset, std::uint64_t size) const {
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

std::optional<TimeNs> SsdCore::schedule(TimeNs now, const Dispatch& dispatch) {
  const CleaningStart start = dispatch.work == flash::WorkClass::kCleaning
                                  ? CleaningStart::kBackground
                                  : CleaningStart::kForeground;
  const bool host_read = dispatch.work == flash::WorkClass::kHostRead;
  if (power_ && map_units_.on()) {
    // (The recorder has the unit commands; the flash gets pages.)
    map_units_.to_flash(commands_, &carriers_);
    if (host_read) read_class_ = scheduler_.timeline().read_page_class(commands_);
    return power_->schedule(commands_, now, cleaning_, start, &carriers_);
  }
  if (map_units_.on()) map_units_.to_flash(commands_);
  if (host_read) read_class_ = scheduler_.timeline().read_page_class(commands_);
  if (power_) return power_->schedule(commands_, now, cleaning_, start);
  // (Background cleaning has no host commands: its tag only marks its time.)
  const std::uint64_t job = start == CleaningStart::kBackground ? kBackground : dispatch.tag;
  const auto submit = [&] {
    return scheduler_.submit(commands_, now, dispatch.work, dispatch.host_wait, job, flow_);
  };
  if (dispatch.tag != kWait) return submit();
  sync_done_.reset();
  const std::optional<TimeNs> done = submit();
  settle();
  if (done) return done;
  // The host chain ended in the drain (or there was none: the cleaning ended).
  return sync_done_ ? *sync_done_ : now;
}

void SsdCore::schedule_background(TimeNs now) {
  schedule(now, {flash::WorkClass::kCleaning, flash::HostWait::kNone,
                 background_at_once_ ? kWait : kBackground});
}

void SsdCore::host_done(std::uint64_t tag, TimeNs at) {
  if (errors_) at += errors_->take_decode(tag);
  if (tag == kWait)
    sync_done_ = at;
  else if (tag != kBackground)
    completions_.push_back(Completed{tag, at});
  observers_.queued_done(tag, at);
}

void SsdCore::cleaning_done(std::uint64_t tag, TimeNs start, TimeNs end) {
  cleaning_.last_end = end;
  cleaning_.count(start, end,
                  tag == kBackground ? CleaningStart::kBackground : CleaningStart::kForeground);
}

void SsdCore::settle() {
  if (scheduler_.idle()) return;
  scheduler_.drain();
  // Work the scheduler can never start would leave its requests without a
  // completion, and the run's io.csv and figures without them: a simulator
  // bug (docs/model.md, "A scheduler deadlock"), which stops the run (exit
  // status 3, no output put in place) rather than let it look complete.
  if (!scheduler_.idle())
    throw std::logic_error(
        "the flash scheduler holds commands it can never start (a deadlock, docs/model.md, "
        "\"A scheduler deadlock\"): the requests waiting for them would never complete" +
        scheduler_.describe_stuck());
}

void SsdCore::emit(CommandSource source, ftl::PageRuns ranges, Acknowledge acknowledge) {
  each_part(&SsdPart::emitted, EmittedCommands{source, ranges, commands_, acknowledge, clock_});
  observers_.commands(source, ranges, commands_);
}

void SsdCore::clean_pool(std::uint32_t pool, TimeNs now, Reserve reserve) {
  clock_ = now;
  commands_.clear();
  ftl_->clean_in_background(pool, commands_);
  ftl_->close_wordlines(commands_);
  emit(CommandSource::kBackground, nullptr);
  schedule(now, {flash::WorkClass::kCleaning, flash::HostWait::kNone,
                 reserve == Reserve::kAtOnce ? kWait : kBackground});
}

std::optional<TimeNs> SsdCore::submit(CommandSource source, const ftl::PageRange* range, TimeNs now,
                                      std::uint64_t tag) {
  emit(source, range);
  if (power_ && source == CommandSource::kHostTrim) power_->trimmed(*range);
  return schedule(now, {flash::WorkClass::kHostWrite, flash::HostWait::kNone, tag});
}

void SsdCore::write_at_once(const ftl::PageRange& range) {
  ftl_->write(range, commands_);
  emit(CommandSource::kFunctional, &range, Acknowledge::kAtOnce);
}

void SsdCore::after_request() {
  ++requests_;
  if (invariants_every_ && requests_ % invariants_every_ == 0) ftl_->check_invariants();
}

std::optional<TimeNs> SsdCore::flash_write(ftl::PageRuns runs, TimeNs now, WriteOrigin origin,
                                           std::uint64_t tag) {
  clock_ = now;
  commands_.clear();
  // (Host-guided placement's reclaim unit time limit: the FTL's only clock.)
  if (config_.ftl.placement.ru_time_limit_s != 0) [[unlikely]]
    ftl_->set_time(now);
  if (runs.size() == 1)
    ftl_->write(runs.front(), commands_);
  else
    ftl_->write_runs(runs, commands_);
  // One-shot wordlines: the controller holds no page past this write (a
  // write buffer's flush gives whole wordlines, a stripe of a pool's planes
  // whose pairs program together), so the write's last wordlines are
  // programmed with it, padded (ftl::Ftl::close_wordlines).
  ftl_->close_wordlines(commands_, origin == WriteOrigin::kBufferFlush);
  emit(CommandSource::kHostWrite, runs);
  each_part(&SsdPart::before_host_commands, commands_);
  const flash::HostWait wait = config_.ftl.cleaning_blocks_writes ? config_.controller.cleaning_wait
                                                                  : flash::HostWait::kNone;
  const std::optional<TimeNs> done = schedule(now, {flash::WorkClass::kHostWrite, wait, tag});
  if (power_) power_->host_write_done(*done, origin);
  return done;
}

std::optional<TimeNs> SsdCore::flash_read(const ftl::PageRange& range, TimeNs now,
                                          std::uint64_t tag, const HostIo* request) {
  clock_ = now;
  commands_.clear();
  ftl_->read(range, commands_);
  ftl_->close_wordlines(commands_);  // (DFTL: the translation pages it wrote back)
  if (read_units_ && request)
    select_read_units(read_units_, ftl_->logical_page_size(), request->offset, request->size,
                      commands_);
  const bool touches_flash = !commands_.empty();
  // (Its retry reads are reads of the list: the observers see them too.)
  const TimeNs decode = errors_ ? errors_->recover_reads(commands_, now) : 0;
  emit(CommandSource::kHostRead, &range);
  each_part(&SsdPart::before_host_commands, commands_);
  std::optional<TimeNs> done =
      schedule(now, {flash::WorkClass::kHostRead, flash::HostWait::kNone, tag});
  if (decode && done)
    *done += decode;
  else if (decode)
    errors_->decode_later(tag, decode);
  if (touches_flash || !done || range.count == 0) return done;
  // Every page unwritten or trimmed: no flash read, but the command still
  // crosses the controller, which returns zeros (NVMe's deallocated blocks)
  // and moves them to the host as it moves buffered data: the request's
  // bytes at write_buffer_ns_per_byte, the model's host interface rate
  // (docs/model.md, "Reads of unwritten pages"), at least 1 ns.
  const std::uint64_t bytes =
      request ? request->size : std::uint64_t{range.count} * ftl_->logical_page_size();
  return std::max(*done, now + std::max<TimeNs>(buffer_transfer_ns(config_.controller, bytes), 1));
}

std::optional<TimeNs> SsdCore::trim(const ftl::PageRange& range, TimeNs now, std::uint64_t tag) {
  commands_.clear();
  ftl_->trim(range, commands_);
  ftl_->close_wordlines(commands_);
  emit(CommandSource::kHostTrim, &range);
  each_part(&SsdPart::trimmed, range);
  each_part(&SsdPart::before_host_commands, commands_);
  return schedule(now, {flash::WorkClass::kHostWrite, flash::HostWait::kNone, tag});
}

void SsdCore::write_functionally(ftl::PageRuns runs, bool as_runs) {
  each_part(&SsdPart::written_functionally, runs);
  commands_.clear();
  {
    const ftl::UnreadLists unread(*ftl_, !functional_lists_read());
    if (as_runs)
      ftl_->write_runs(runs, commands_);
    else
      ftl_->write(runs.front(), commands_);
  }
  emit(CommandSource::kFunctional, runs, Acknowledge::kAtOnce);
}

}  // namespace ssdlab::sim
