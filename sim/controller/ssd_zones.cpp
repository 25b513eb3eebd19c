// Ssd on a zoned device (zone_front.h, docs/zns.md): each host request goes
// through the zone part, which admits it, refuses it, or turns a zone
// management action into flash commands.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/error.h"
#include "ftl/zoned.h"
#include "sim/controller/buffer_transfer.h"
#include "sim/controller/ssd.h"

namespace ssdlab::sim {
namespace {

// A write larger than `buffer` goes past it: first the pages it holds of the
// write's zone below the write (a zone is programmed in order).
void flush_below(WriteBufferFront& buffer, std::uint64_t zone_pages, const ftl::PageRange& range,
                 TimeNs now) {
  if (range.count <= buffer.buffer().capacity()) return;
  buffer.flush_range(static_cast<ftl::Lpn>(range.first / zone_pages * zone_pages), range.first,
                     now);
}

}  // namespace

std::unique_ptr<ZoneFront> Ssd::make_zone_front(ftl::ZonedDevice& device) const {
  return std::make_unique<ZoneFront>(device, ftl_->logical_page_size(),
                                     static_cast<TimeNs>(std::llround(device.command_us() * 1000.0)));
}

// The write buffer of a zoned device (docs/zns.md, "The write buffer"), as
// ZN540-class drives keep one: DRAM that acknowledges a write once its data
// is in, and programs each zone in whole stripes, a wordline (the pages one
// program of a one-shot cell writes) on every plane of the zone's dies, so
// that zones written at once each program all their dies together. It must
// be power-protected: a zone's write pointer moves when the write is
// acknowledged, which a power cut may not take back.
WriteBufferFront::Packing Ssd::zone_stripes(const ftl::ZonedDevice& device) const {
  const ControllerConfig& controller = config_.controller;
  if (!controller.write_through && !controller.buffer_power_protected)
    throw make_error(
        "{}: controller.write_buffer_power_protected = false: a zoned device's write-back buffer "
        "must be power-protected (a zone's write pointer moves when a write is acknowledged, and a "
        "power cut may not take it back); set it to true, or write_buffer_policy = "
        "\"write-through\"",
        config_.source);
  WriteBufferFront::Packing packing;
  packing.whole_chunks = true;
  packing.pools = static_cast<std::uint32_t>(device.zones());
  // (The planes a zone's consecutive pages go round: ftl/zoned.cpp.)
  const std::uint32_t width = config_.ftl.keys.get<ftl::ZonedKeys>().zone_width;
  packing.planes_per_pool =
      (width ? width : config_.geometry.dies()) * config_.geometry.planes_per_die;
  packing.wordline = config_.timing.cell.program == flash::ProgramScheme::kOneShot
                         ? config_.geometry.bits_per_cell()
                         : 1;
  packing.partial_waits = true;
  return packing;
}

std::optional<TimeNs> Ssd::serve_zoned(const HostIo& request, TimeNs now, std::uint64_t tag) {
  using Kind = ZoneFront::Decision::Kind;
  // A finish programs the zone's pages past the write pointer (padding),
  // after the ones its ZRWA and the buffer hold.
  if (request.mode == IoMode::kZoneFinish) flush_zone(request.offset, now);
  commands_.clear();
  const ZoneFront::Decision decision = zones_->decide(request, commands_);
  zone_outcome_ = {decision.status, decision.offset};
  const TimeNs quick = now + zones_->command_ns();
  if (buffer_ && request.mode == IoMode::kZoneReset && decision.status == ftl::ZoneStatus::kSuccess)
    buffer_->drop(decision.range.first, decision.range.first + decision.range.count);
  switch (decision.kind) {
    case Kind::kWrite:
      host_bytes_written_ += request.size;
      if (!buffer_)
        return flash_write(ftl::PageRuns{&decision.range, 1}, now, WriteOrigin::kHost, tag);
      flush_below(*buffer_, zones_->device().zone_pages(), decision.range, now);
      return buffer_->write(decision.range, request.size, now);
    case Kind::kRead:
      if (buffer_ && !buffer_->misses_all(decision.range))
        return buffer_->read(decision.range, request.size, now);
      return flash_read(decision.range, now, tag, &request);
    case Kind::kTrim:
      return now;  // advisory: nothing to do
    case Kind::kCommands: {
      // A reset forgets its zone's data (the verifier and the power-cut
      // recorder take it as a trim of the zone); a finish's padding holds none.
      if (request.mode == IoMode::kZoneReset) {
        emit(CommandSource::kHostTrim, &decision.range);
        if (power_) power_->trimmed(decision.range);
      } else {
        emit(CommandSource::kBackground, nullptr);
      }
      const std::optional<TimeNs> done =
          schedule(now, {flash::WorkClass::kHostWrite, flash::HostWait::kNone, tag});
      if (done) return std::max(*done, quick);
      return done;
    }
    case Kind::kZrwa: {
      // In the controller's memory once its data is in (an explicit flush:
      // its command time); what it commits is then written.
      if (request.mode == IoMode::kWrite) host_bytes_written_ += request.size;
      const TimeNs held =
          request.mode == IoMode::kZoneFlush
              ? quick
              : now + std::max<TimeNs>(buffer_transfer_ns(config_.controller, request.size), 1);
      if (decision.range.count == 0) return held;
      const std::optional<TimeNs> done = commit_pages(decision.range, now, tag);
      if (done) return std::max(*done, held);
      return done;
    }
    case Kind::kRefused:
    case Kind::kNoFlash:
      break;
  }
  return quick;
}

// Pages a zone random write area committed: through the write buffer if
// there is one (then the command completes when they are in it), else to
// flash (when they are programmed: without a buffer the controller has
// nowhere else to keep them).
std::optional<TimeNs> Ssd::commit_pages(const ftl::PageRange& range, TimeNs now,
                                        std::uint64_t tag) {
  if (!buffer_) return flash_write(ftl::PageRuns{&range, 1}, now, WriteOrigin::kHost, tag);
  flush_below(*buffer_, zones_->device().zone_pages(), range, now);
  return buffer_->write(range, 0, now);
}

}  // namespace ssdlab::sim

namespace ssdlab::sim {

void Ssd::flush_zone(std::uint64_t offset, TimeNs now) {
  const std::uint64_t bytes = zones_->zone_bytes();
  const std::uint64_t pages = zones_->device().zone_pages();
  if (offset % bytes != 0 || offset / bytes >= zones_->device().zones()) return;  // (refused)
  if (const ftl::ZonedDevice::Commit commit = ftl_->zoned()->commit_zrwa(offset / bytes);
      commit.count)
    commit_pages(ftl::PageRange{commit.first, commit.count}, now, kWait);
  const auto first = static_cast<ftl::Lpn>(offset / bytes * pages);
  if (buffer_) buffer_->flush_range(first, first + static_cast<ftl::Lpn>(pages), now);
}

std::optional<TimeNs> Ssd::serve_logged(const HostIo& request, TimeNs now) {
  const TimeNs done = host_log_->serve(request, now);
  // The host sees its own request served where it asked, whatever the log
  // sent the device.
  zone_outcome_ = {ftl::ZoneStatus::kSuccess, request.offset};
  return std::max(done, request.mode == IoMode::kTrim ? now : now + zones_->command_ns());
}

TimeNs Ssd::command(const HostIo& io, TimeNs now) {
  const std::optional<TimeNs> done = serve_zoned(io, now, kWait);
  if (zone_outcome_.status != ftl::ZoneStatus::kSuccess)
    throw std::logic_error(fmt::format("host log: the device refused its {} of {} bytes at {}: {}",
                                       io_mode_letter(io.mode), io.size, io.offset,
                                       ftl::zone_status_name(zone_outcome_.status)));
  return *done;
}

void Ssd::functional(const HostIo& io) {
  using Kind = ZoneFront::Decision::Kind;
  commands_.clear();
  const ZoneFront::Decision decision = zones_->decide(io, commands_);
  switch (decision.kind) {
    case Kind::kWrite:
      host_bytes_written_ += io.size;
      ftl_->write(decision.range, commands_);
      emit(CommandSource::kFunctional, &decision.range, Acknowledge::kAtOnce);
      after_request();
      return;
    case Kind::kZrwa:  // (a write into a ZRWA, or its flush: what it commits)
      if (io.mode == IoMode::kWrite) host_bytes_written_ += io.size;
      if (decision.range.count) {
        ftl_->write(decision.range, commands_);
        emit(CommandSource::kFunctional, &decision.range, Acknowledge::kAtOnce);
      }
      if (io.mode == IoMode::kWrite) after_request();
      return;
    case Kind::kCommands:
      if (io.mode == IoMode::kZoneReset) emit(CommandSource::kHostTrim, &decision.range);
      else emit(CommandSource::kBackground, nullptr);
      return;
    case Kind::kRefused:
      throw make_error("a zoned device refuses the functional {} of {} bytes at offset {}: {} "
                       "(preconditioning writes a zoned device at its write pointers only)",
                       io_mode_letter(io.mode), io.size, io.offset,
                       ftl::zone_status_name(decision.status));
    default:
      return;  // reads, trims, opens and closes change nothing here
  }
}

void Ssd::write_zoned_functionally(std::uint64_t offset, std::uint64_t size) {
  constexpr std::uint64_t kChunk = std::uint64_t{1} << 30;  // (HostIo's size is 32 bits)
  for (std::uint64_t done = 0; done < size; done += kChunk) {
    HostIo io;
    io.offset = offset + done;
    io.size = static_cast<std::uint32_t>(std::min(kChunk, size - done));
    io.mode = IoMode::kWrite;
    functional(io);
  }
}

}  // namespace ssdlab::sim
