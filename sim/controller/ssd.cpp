#include "sim/controller/ssd.h"

#include <stdexcept>

#include "common/error.h"
#include "ftl/page_runs.h"
#include "ftl/pools.h"
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

Ssd::Ssd(const DeviceConfig& config, SsdChecks checks)
    : config_(config),
      ftl_(ftl::make_ftl({config.geometry, config.ftl, 0})),
      scheduler_(config.geometry, config.timing, config.controller.dispatch_order, config.suspend),
      timeline_(scheduler_.timeline()),
      logical_bytes_(ftl_->logical_pages() * ftl_->logical_page_size()),
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
  if (config.controller.write_buffer_bytes) {
    // With map units, flushes pack them into whole pages of each pool; on
    // one-shot cells, into whole wordlines (close_wordlines() pads the rest);
    // on a zoned device, into whole stripes of each zone.
    WriteBufferFront::Packing packing{map_units_.units_per_page(), 1,
                                      config.ftl.wordline_pages > 1};
    if (const ftl::ZonedDevice* zoned = ftl_->zoned())
      packing = ZoneStack::buffer_packing(config, *zoned);
    else if (packing.units_per_page > 1 || packing.whole_chunks) {
      packing.pools = ftl::PoolLayout::pool_count(config.geometry, config.ftl.pool);
      packing.planes_per_pool = config.geometry.planes() / packing.pools;
      if (config.ftl.placement.on()) packing.handles = config.ftl.placement.handles;
    }
    buffer_ = std::make_unique<WriteBufferFront>(config.controller, ftl_->logical_page_size(),
                                                 static_cast<WriteBufferFront::Flash&>(*this),
                                                 packing);
  }
  cleaner_ = BackgroundCleaner::make(config, *ftl_, timeline_, *this);
  errors_ = ReadErrors::make(config.errors, *ftl_, config.source);
  if (ControllerLimits::wanted(config.controller))
    limits_ = std::make_unique<ControllerLimits>(config.controller, config.power, timeline_);
  list_parts();
  if (ftl::ZonedDevice* zoned = ftl_->zoned()) {
    zoned_ = std::make_unique<ZoneStack>(config, *zoned, ftl_->logical_page_size(), buffer_.get(),
                                         static_cast<ZoneStack::Core&>(*this), checks.verify);
    if (const HostLog* log = zoned_->log()) logical_bytes_ = log->exported_bytes();
  } else if (config.controller.host_log.on()) {
    throw make_error("host.log: a host log writes zones: it needs a zoned device (ftl.type = "
                     "\"zoned\"), not {}",
                     config.ftl.type);
  }
  // A placement range maps exported addresses (L4), as namespaces must fit (sim/run/tenants.cpp).
  const auto& ranges = config.ftl.placement.ranges;
  for (std::size_t i = 0; i < ranges.size(); ++i)
    if (ranges[i].offset > logical_bytes_ || ranges[i].size > logical_bytes_ - ranges[i].offset)
      throw make_error(
          "{}: ftl.placement_map[{}]: the range of {} bytes at offset {} ends beyond the "
          "device's logical capacity of {} bytes",
          config.source, i + 1, ranges[i].size, ranges[i].offset, logical_bytes_);
}

void Ssd::list_parts() {
  parts_.clear();
  for (SsdPart* part :
       std::initializer_list<SsdPart*>{power_.get(), cleaner_.get(), errors_.get(), limits_.get()})
    if (part) parts_.push_back(part);
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

std::optional<TimeNs> Ssd::schedule(TimeNs now, const Dispatch& dispatch) {
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

void Ssd::host_done(std::uint64_t tag, TimeNs at) {
  if (errors_) at += errors_->take_decode(tag);
  if (tag == kWait)
    sync_done_ = at;
  else if (tag != kBackground)
    completions_.push_back(Completed{tag, at});
  observers_.queued_done(tag, at);
}

void Ssd::cleaning_done(std::uint64_t tag, TimeNs start, TimeNs end) {
  cleaning_.last_end = end;
  cleaning_.count(start, end, tag == kBackground ? CleaningStart::kBackground
                                                 : CleaningStart::kForeground);
}

void Ssd::settle() {
  if (!scheduler_.idle()) scheduler_.drain();
}

void Ssd::emit(CommandSource source, ftl::PageRuns ranges, Acknowledge acknowledge) {
  each_part(&SsdPart::emitted, EmittedCommands{source, ranges, commands_, acknowledge, clock_});
  observers_.commands(source, ranges, commands_);
}

void Ssd::clean_pool(std::uint32_t pool, TimeNs now, Reserve reserve) {
  clock_ = now;
  commands_.clear();
  ftl_->clean_in_background(pool, commands_);
  ftl_->close_wordlines(commands_);
  emit(CommandSource::kBackground, nullptr);
  schedule(now, {flash::WorkClass::kCleaning, flash::HostWait::kNone,
                 reserve == Reserve::kAtOnce ? kWait : kBackground});
}

std::optional<TimeNs> Ssd::submit(CommandSource source, const ftl::PageRange* range, TimeNs now,
                                  std::uint64_t tag) {
  emit(source, range);
  if (power_ && source == CommandSource::kHostTrim) power_->trimmed(*range);
  return schedule(now, {flash::WorkClass::kHostWrite, flash::HostWait::kNone, tag});
}

void Ssd::write_at_once(const ftl::PageRange& range) {
  ftl_->write(range, commands_);
  emit(CommandSource::kFunctional, &range, Acknowledge::kAtOnce);
}

void Ssd::idle(TimeNs from, TimeNs until) {
  clock_ = from;
  if (buffer_) buffer_->flush_at_idle(from);
  settle();
  if (cleaner_) cleaner_->idle(from, until);
}

void Ssd::after_request() {
  ++requests_;
  if (invariants_every_ && requests_ % invariants_every_ == 0) ftl_->check_invariants();
}

std::optional<TimeNs> Ssd::flash_write(ftl::PageRuns runs, TimeNs now, WriteOrigin origin,
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

std::optional<TimeNs> Ssd::flash_read(const ftl::PageRange& range, TimeNs now, std::uint64_t tag,
                                      const HostIo* request) {
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
  if (decode && done) *done += decode;
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

std::optional<TimeNs> Ssd::trim(const ftl::PageRange& range, TimeNs now, std::uint64_t tag) {
  // A buffered copy of a trimmed page must not reach flash later.
  if (buffer_)
    buffer_->drop(range.first + (range.partial_first ? 1 : 0),
                  range.first + range.count - (range.partial_last ? 1 : 0));
  commands_.clear();
  ftl_->trim(range, commands_);
  ftl_->close_wordlines(commands_);
  emit(CommandSource::kHostTrim, &range);
  if (power_) power_->trimmed(range);
  each_part(&SsdPart::before_host_commands, commands_);
  return schedule(now, {flash::WorkClass::kHostWrite, flash::HostWait::kNone, tag});
}

std::optional<TimeNs> Ssd::start(const HostIo& request, TimeNs now, std::uint64_t tag) {
  // Only a zoned device takes zone commands; a conventional one would serve
  // them as reads of nothing (issue 51, H4). Plans are refused before the
  // run (with_device_zones); this is what an io.csv replayed here meets.
  if (!zoned_ && request.mode > IoMode::kTrim)
    throw make_error("a zone command ({}) of {} bytes at offset {} needs a zoned device "
                     "(ftl.type = \"zoned\"); this device's FTL is {}",
                     io_mode_letter(request.mode), request.size, request.offset, config_.ftl.type);
  ftl::PageRange range = to_range(request.offset, request.size);
  // (A write buffer keeps the identifier for the flush: WriteBuffer.)
  range.placement = request.placement & kPlacementIdMask;
  const bool write = request.mode == IoMode::kWrite;
  // A read the write buffer holds no page of goes to flash as on a device
  // without one: queued, unless another part needs its time at once.
  const bool past_buffer =
      buffer_ && !zoned_ && request.mode == IoMode::kRead && buffer_->misses_all(range);
  if (past_buffer ? needs_times_at_once_besides_buffer() : needs_times_at_once()) tag = kWait;
  each_part(&SsdPart::before_request, now);
  if (write && !zoned_) {
    host_bytes_written_ += request.size;
    if (request.placement & kRuhUpdate) [[unlikely]]
      update_reclaim_unit_handle(range.placement, now);
  }
  flow_ = request.flow;
  read_class_ = 0;
  clock_ = now;
  const std::optional<TimeNs> done =
      zoned_                          ? zoned_->serve(request, now, tag)
      : request.mode == IoMode::kTrim ? trim(range, now, tag)
      : buffer_ && write              ? buffer_->write(range, request.size, now)
      : buffer_ && !past_buffer       ? buffer_->read(range, request.size, now)
      : write ? flash_write(ftl::PageRuns{&range, 1}, now, WriteOrigin::kHost, tag)
              : flash_read(range, now, tag, &request);
  flow_ = 0;
  if (done)
    observers_.request_done(request, now, *done);
  else
    observers_.request_queued(tag, request, now);
  each_part(&SsdPart::after_request, now, tag == kWait ? Reserve::kAtOnce : Reserve::kQueued);
  if (errors_) errors_->reclaim(*this, now);
  after_request();
  return done;
}

void Ssd::write_functionally(std::uint64_t offset, std::uint64_t size) {
  if (zoned_) return zoned_->write_functionally(offset, size);
  const ftl::PageRange range = to_range(offset, size);
  host_bytes_written_ += size;
  if (buffer_) buffer_->drop(range.first, range.first + range.count);  // now stale
  commands_.clear();
  {
    const ftl::UnreadLists unread(*ftl_, !functional_lists_read());
    ftl_->write(range, commands_);
  }
  emit(CommandSource::kFunctional, &range, Acknowledge::kAtOnce);
  after_request();
}

void Ssd::write_runs_functionally(ftl::PageRuns runs) {
  if (zoned_)
    throw std::logic_error("write_runs_functionally: a zoned device writes request by request");
  if (buffer_)
    for (const ftl::PageRange& run : runs) buffer_->drop(run.first, run.first + run.count);
  commands_.clear();
  {
    const ftl::UnreadLists unread(*ftl_, !functional_lists_read());
    ftl_->write_runs(runs, commands_);
  }
  emit(CommandSource::kFunctional, runs, Acknowledge::kAtOnce);
}

ftl::Ftl* Ssd::ftl_for_direct_writes() {
  const bool buffered = buffer_ && buffer_->holds_data();
  // (The error part sees every list: the blocks written before the run.)
  return power_ || zoned_ || errors_ || !observers_.empty() || buffered ? nullptr : ftl_.get();
}

std::uint64_t Ssd::prefill(std::uint64_t offset, std::uint64_t size) {
  // A zoned device reads a block never written as unwritten, as a drive
  // does: nothing to prefill (its host log, if any, is a conventional device).
  const HostLog* log = zoned_ ? zoned_->log() : nullptr;
  if (zoned_ && !log) return 0;
  const ftl::PageRange whole = to_range(offset, size);
  const std::uint64_t page = ftl_->logical_page_size();
  std::uint64_t written = 0;
  // Map units: the units go in runs of consecutive ones (ftl/page_runs.h),
  // which fill flash pages (one page each would pad every page).
  std::vector<ftl::Lpn> units;
  std::vector<ftl::PageRange> runs;
  const auto write_runs = [&] {
    if (units.empty()) return;
    const std::uint64_t count = units.size();
    ftl::page_runs(units, runs);
    write_runs_functionally(runs);
    count_functional_writes(count, count * page);
    units.clear();
  };
  for (ftl::Lpn lpn = whole.first; lpn < whole.first + whole.count; ++lpn) {
    // (A page the write buffer holds is written already, just not on flash.)
    const bool mapped = log ? log->is_mapped(lpn) : ftl_->is_mapped(lpn);
    if (mapped || (buffer_ && buffer_->holds(lpn))) continue;
    ++written;
    if (!map_units_.on()) {
      write_functionally(lpn * page, page);
      continue;
    }
    units.push_back(lpn);
    if (units.size() == kPrefillRun) write_runs();
  }
  write_runs();
  end_functional_writes();
  return written;
}

}  // namespace ssdlab::sim
