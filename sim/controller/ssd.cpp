#include "sim/controller/ssd.h"

#include <stdexcept>

#include "common/error.h"
#include "ftl/page_runs.h"
#include "ftl/pools.h"

namespace ssdlab::sim {

Ssd::Ssd(const DeviceConfig& config, SsdChecks checks)
    : core_(config, checks),
      logical_bytes_(core_.ftl().logical_pages() * core_.ftl().logical_page_size()) {
  ftl::Ftl& ftl = core_.ftl();
  if (config.controller.write_buffer_bytes) {
    // With map units, flushes pack them into whole pages of each pool; on
    // one-shot cells, into whole wordlines (close_wordlines() pads the rest);
    // on a zoned device, into whole stripes of each zone.
    WriteBufferFront::Packing packing{core_.map_units_per_page(), 1, config.ftl.wordline_pages > 1};
    if (const ftl::ZonedDevice* zoned = ftl.zoned())
      packing = ZoneStack::buffer_packing(config, *zoned);
    else if (packing.units_per_page > 1 || packing.whole_chunks) {
      packing.pools = ftl::PoolLayout::pool_count(config.geometry, config.ftl.pool);
      packing.planes_per_pool = config.geometry.planes() / packing.pools;
      if (config.ftl.placement.on()) packing.handles = config.ftl.placement.handles;
    }
    buffer_ =
        std::make_unique<WriteBufferFront>(config.controller, ftl.logical_page_size(),
                                           static_cast<WriteBufferFront::Flash&>(core_), packing);
  }
  cleaner_ = BackgroundCleaner::make(config, ftl, core_.timeline(), core_);
  if (ControllerLimits::wanted(config.controller))
    limits_ = std::make_unique<ControllerLimits>(config.controller, config.power, core_.timeline());
  if (ftl::ZonedDevice* zoned = ftl.zoned()) {
    zoned_ = std::make_unique<ZoneStack>(config, *zoned, ftl.logical_page_size(), buffer_.get(),
                                         static_cast<ZoneStack::Core&>(core_), checks.verify);
    if (const HostLog* log = zoned_->log()) logical_bytes_ = log->exported_bytes();
  } else if (config.controller.host_log.on()) {
    throw make_error("host.log: a host log writes zones: it needs a zoned device (ftl.type = "
                     "\"zoned\"), not {}",
                     config.ftl.type);
  }
  list_parts();
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
  core_.list_parts({buffer_.get(), cleaner_.get(), limits_.get()}, {zoned_.get()});
  core_.reserve_background_at_once(needs_times_at_once());
}

void Ssd::idle(TimeNs from, TimeNs until) {
  core_.begin_request(0, from);
  core_.each_part(&SsdPart::idle_begins, from);
  core_.settle();
  core_.each_part(&SsdPart::idle, from, until);
}

std::optional<TimeNs> Ssd::start(const HostIo& request, TimeNs now, std::uint64_t tag) {
  // Only a zoned device takes zone commands; a conventional one would serve
  // them as reads of nothing (issue 51, H4). Plans are refused before the
  // run (with_device_zones); this is what an io.csv replayed here meets.
  if (!zoned_ && request.mode > IoMode::kTrim)
    throw make_error(
        "a zone command ({}) of {} bytes at offset {} needs a zoned device "
        "(ftl.type = \"zoned\"); this device's FTL is {}",
        io_mode_letter(request.mode), request.size, request.offset, config().ftl.type);
  ftl::PageRange range = core_.to_range(request.offset, request.size);
  // (A write buffer keeps the identifier for the flush: WriteBuffer.)
  range.placement = request.placement & kPlacementIdMask;
  const bool write = request.mode == IoMode::kWrite;
  // A read the write buffer holds no page of goes to flash as on a device
  // without one: queued, unless another part needs its time at once.
  const bool past_buffer =
      buffer_ && !zoned_ && request.mode == IoMode::kRead && buffer_->misses_all(range);
  if (needs_times_at_once(past_buffer)) tag = kWait;
  core_.each_part(&SsdPart::before_request, now);
  if (write && !zoned_) {
    core_.host_wrote(request.size);
    if (request.placement & kRuhUpdate) [[unlikely]]
      core_.update_reclaim_unit_handle(range.placement, now);
  }
  core_.begin_request(request.flow, now);
  const std::optional<TimeNs> done =
      zoned_                          ? zoned_->serve(request, now, tag)
      : request.mode == IoMode::kTrim ? core_.trim(range, now, tag)
      : buffer_ && write              ? buffer_->write(range, request.size, now)
      : buffer_ && !past_buffer       ? buffer_->read(range, request.size, now)
      : write ? core_.flash_write(ftl::PageRuns{&range, 1}, now, WriteOrigin::kHost, tag)
              : core_.flash_read(range, now, tag, &request);
  core_.end_request();
  if (done)
    core_.observers().request_done(request, now, *done);
  else
    core_.observers().request_queued(tag, request, now);
  core_.each_part(&SsdPart::after_request, now, tag == kWait ? Reserve::kAtOnce : Reserve::kQueued);
  core_.after_request();
  return done;
}

void Ssd::write_functionally(std::uint64_t offset, std::uint64_t size) {
  if (zoned_) return zoned_->write_functionally(offset, size);
  const ftl::PageRange range = core_.to_range(offset, size);
  core_.host_wrote(size);
  core_.write_functionally(ftl::PageRuns{&range, 1}, false);
  core_.after_request();
}

void Ssd::write_runs_functionally(ftl::PageRuns runs) {
  if (zoned_)
    throw std::logic_error("write_runs_functionally: a zoned device writes request by request");
  core_.write_functionally(runs, true);
}

ftl::Ftl* Ssd::ftl_for_direct_writes() {
  const bool buffered = buffer_ && buffer_->holds_data();
  // (The error part sees every list: the blocks written before the run.)
  return zoned_ || buffered || core_.functional_lists_read() ? nullptr : &core_.ftl();
}

std::uint64_t Ssd::prefill(std::uint64_t offset, std::uint64_t size) {
  // A zoned device reads a block never written as unwritten, as a drive
  // does: nothing to prefill (its host log, if any, is a conventional device).
  const HostLog* log = zoned_ ? zoned_->log() : nullptr;
  if (zoned_ && !log) return 0;
  const ftl::PageRange whole = core_.to_range(offset, size);
  const std::uint64_t page = ftl().logical_page_size();
  // prefill() with map units: the units one FTL call writes at most.
  constexpr std::uint32_t kPrefillRun = 4096;
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
    core_.count_functional_writes(count, count * page);
    units.clear();
  };
  const bool unit_runs = core_.map_units_per_page() > 1;
  for (ftl::Lpn lpn = whole.first; lpn < whole.first + whole.count; ++lpn) {
    // (A page the write buffer holds is written already, just not on flash.)
    const bool mapped = log ? log->is_mapped(lpn) : ftl().is_mapped(lpn);
    if (mapped || core_.held_above(lpn)) continue;
    ++written;
    if (!unit_runs) {
      write_functionally(lpn * page, page);
      continue;
    }
    units.push_back(lpn);
    if (units.size() == kPrefillRun) write_runs();
  }
  write_runs();
  core_.end_functional_writes();
  return written;
}

}  // namespace ssdlab::sim
