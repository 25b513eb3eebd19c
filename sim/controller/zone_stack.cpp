// The zone stack (zone_stack.h): a zoned device's requests through the host
// log, if any, and the zone part, which admits each, refuses it, or turns a
// zone management action into flash commands.
#include "sim/controller/zone_stack.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/error.h"
#include "ftl/zoned.h"
#include "sim/controller/buffer_transfer.h"

namespace ssdlab::sim {

ZoneStack::ZoneStack(const DeviceConfig& config, ftl::ZonedDevice& device, std::uint32_t page_size,
                     WriteBufferFront* buffer, Core& core, bool verify)
    : device_(device),
      front_(device, page_size, static_cast<TimeNs>(std::llround(device.command_us() * 1000.0))),
      buffer_(buffer),
      core_(core),
      controller_(config.controller) {
  if (!config.controller.host_log.on()) return;
  // The log's heads (host writes, one per placement head, and cleaning)
  // write as many zones at once, and each stays active (open, or closed
  // part written) until it is full: a device that keeps fewer active
  // refuses the log's writes mid-run (issue 51, M4). An open limit below
  // is served by the device's implicit close.
  const std::uint32_t heads = config.controller.host_log.placement_heads + 1;
  if (const std::uint32_t active = config.ftl.keys.get<ftl::ZonedKeys>().max_active_zones;
      active != 0 && active < heads)
    throw make_error(
        "host.log: ftl.max_active_zones = {}, but the log keeps {} zones active at once (a "
        "zone for host writes per placement head and one for cleaning); set "
        "ftl.max_active_zones to 0 (no limit) or at least {}",
        active, heads, heads);
  log_ = std::make_unique<HostLog>(config.controller.host_log, device, page_size,
                                   static_cast<HostLog::Device&>(*this), verify);
}

// The write buffer of a zoned device (docs/zns.md, "The write buffer"), as
// ZN540-class drives keep one: DRAM that acknowledges a write once its data
// is in, and programs each zone in whole stripes, a wordline (the pages one
// program of a one-shot cell writes) on every plane of the zone's dies, so
// that zones written at once each program all their dies together. It must
// be power-protected: a zone's write pointer moves when the write is
// acknowledged, which a power cut may not take back.
WriteBufferFront::Packing ZoneStack::buffer_packing(const DeviceConfig& config,
                                                    const ftl::ZonedDevice& device) {
  const ControllerConfig& controller = config.controller;
  if (!controller.write_through && !controller.buffer_power_protected)
    throw make_error(
        "{}: controller.write_buffer_power_protected = false: a zoned device's write-back buffer "
        "must be power-protected (a zone's write pointer moves when a write is acknowledged, and a "
        "power cut may not take it back); set it to true, or write_buffer_policy = "
        "\"write-through\"",
        config.source);
  WriteBufferFront::Packing packing;
  packing.whole_chunks = true;
  packing.pools = static_cast<std::uint32_t>(device.zones());
  // (The planes a zone's consecutive pages go round: ftl/zoned.cpp.)
  const std::uint32_t width = config.ftl.keys.get<ftl::ZonedKeys>().zone_width;
  packing.planes_per_pool =
      (width ? width : config.geometry.dies()) * config.geometry.planes_per_die;
  packing.wordline = config.timing.cell.program == flash::ProgramScheme::kOneShot
                         ? config.geometry.bits_per_cell()
                         : 1;
  packing.partial_waits = true;
  return packing;
}

std::optional<TimeNs> ZoneStack::serve(const HostIo& request, TimeNs now, std::uint64_t tag) {
  if (!log_) return serve_zoned(request, now, tag);
  const TimeNs done = log_->serve(request, now);
  // The host sees its own request served where it asked, whatever the log
  // sent the device.
  outcome_ = {ftl::ZoneStatus::kSuccess, request.offset};
  return std::max(done, request.mode == IoMode::kTrim ? now : now + front_.command_ns());
}

std::optional<TimeNs> ZoneStack::serve_zoned(const HostIo& request, TimeNs now, std::uint64_t tag) {
  using Kind = ZoneFront::Decision::Kind;
  // A finish programs the zone's pages past the write pointer (padding),
  // after the ones its ZRWA and the buffer hold.
  if (request.mode == IoMode::kZoneFinish) flush_zone(request.offset, now);
  flash::CommandList& commands = core_.commands();
  commands.clear();
  const ZoneFront::Decision decision = front_.decide(request, commands);
  outcome_ = {decision.status, decision.offset};
  const TimeNs quick = now + front_.command_ns();
  if (buffer_ && request.mode == IoMode::kZoneReset && decision.status == ftl::ZoneStatus::kSuccess)
    buffer_->drop(decision.range.first, decision.range.first + decision.range.count);
  switch (decision.kind) {
    case Kind::kWrite:
      core_.host_wrote(request.size);
      if (!buffer_)
        return core_.flash_write(ftl::PageRuns{&decision.range, 1}, now, WriteOrigin::kHost, tag);
      flush_below(decision.range, now);
      return buffer_->write(decision.range, request.size, now);
    case Kind::kRead:
      if (buffer_ && !buffer_->misses_all(decision.range))
        return buffer_->read(decision.range, request.size, now);
      return core_.flash_read(decision.range, now, tag, &request);
    case Kind::kTrim:
      return now;  // advisory: nothing to do
    case Kind::kCommands: {
      // A reset forgets its zone's data (the verifier and the power-cut
      // recorder take it as a trim of the zone); a finish's padding holds none.
      const bool reset = request.mode == IoMode::kZoneReset;
      const std::optional<TimeNs> done =
          core_.submit(reset ? CommandSource::kHostTrim : CommandSource::kBackground,
                       reset ? &decision.range : nullptr, now, tag);
      if (done) return std::max(*done, quick);
      return done;
    }
    case Kind::kZrwa: {
      // In the controller's memory once its data is in (an explicit flush:
      // its command time); what it commits is then written.
      if (request.mode == IoMode::kWrite) core_.host_wrote(request.size);
      const TimeNs held =
          request.mode == IoMode::kZoneFlush
              ? quick
              : now + std::max<TimeNs>(buffer_transfer_ns(controller_, request.size), 1);
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

// Through the write buffer if there is one (then the command completes when
// they are in it), else to flash (when they are programmed: without a
// buffer the controller has nowhere else to keep them).
std::optional<TimeNs> ZoneStack::commit_pages(const ftl::PageRange& range, TimeNs now,
                                              std::uint64_t tag) {
  if (!buffer_) return core_.flash_write(ftl::PageRuns{&range, 1}, now, WriteOrigin::kHost, tag);
  flush_below(range, now);
  return buffer_->write(range, 0, now);
}

void ZoneStack::flush_below(const ftl::PageRange& range, TimeNs now) {
  if (range.count <= buffer_->buffer().capacity()) return;
  const std::uint64_t zone_pages = device_.zone_pages();
  buffer_->flush_range(static_cast<ftl::Lpn>(range.first / zone_pages * zone_pages), range.first,
                       now);
}

void ZoneStack::flush_zone(std::uint64_t offset, TimeNs now) {
  const std::uint64_t bytes = front_.zone_bytes();
  const std::uint64_t pages = device_.zone_pages();
  if (offset % bytes != 0 || offset / bytes >= device_.zones()) return;  // (refused)
  if (const ftl::ZonedDevice::Commit commit = device_.commit_zrwa(offset / bytes); commit.count)
    commit_pages(ftl::PageRange{commit.first, commit.count}, now, kWait);
  const auto first = static_cast<ftl::Lpn>(offset / bytes * pages);
  if (buffer_) buffer_->flush_range(first, first + static_cast<ftl::Lpn>(pages), now);
}

TimeNs ZoneStack::command(const HostIo& io, TimeNs now) {
  const std::optional<TimeNs> done = serve_zoned(io, now, kWait);
  if (outcome_.status != ftl::ZoneStatus::kSuccess)
    throw std::logic_error(fmt::format("host log: the device refused its {} of {} bytes at {}: {}",
                                       io_mode_letter(io.mode), io.size, io.offset,
                                       ftl::zone_status_name(outcome_.status)));
  return *done;
}

void ZoneStack::functional(const HostIo& io) {
  using Kind = ZoneFront::Decision::Kind;
  flash::CommandList& commands = core_.commands();
  commands.clear();
  const ZoneFront::Decision decision = front_.decide(io, commands);
  switch (decision.kind) {
    case Kind::kWrite:
      core_.host_wrote(io.size);
      core_.write_at_once(decision.range);
      core_.after_request();
      return;
    case Kind::kZrwa:  // (a write into a ZRWA, or its flush: what it commits)
      if (io.mode == IoMode::kWrite) core_.host_wrote(io.size);
      if (decision.range.count) core_.write_at_once(decision.range);
      if (io.mode == IoMode::kWrite) core_.after_request();
      return;
    case Kind::kCommands:
      if (io.mode == IoMode::kZoneReset)
        core_.emit(CommandSource::kHostTrim, &decision.range, Acknowledge::kWhenDone);
      else
        core_.emit(CommandSource::kBackground, nullptr, Acknowledge::kWhenDone);
      return;
    case Kind::kRefused:
      throw make_error(
          "a zoned device refuses the functional {} of {} bytes at offset {}: {} "
          "(preconditioning writes a zoned device at its write pointers only)",
          io_mode_letter(io.mode), io.size, io.offset, ftl::zone_status_name(decision.status));
    default:
      return;  // reads, trims, opens and closes change nothing here
  }
}

void ZoneStack::write_functionally(std::uint64_t offset, std::uint64_t size) {
  if (log_) return log_->write_functionally(offset, size);
  constexpr std::uint64_t kChunk = std::uint64_t{1} << 30;  // (HostIo's size is 32 bits)
  for (std::uint64_t done = 0; done < size; done += kChunk) {
    HostIo io;
    io.offset = offset + done;
    io.size = static_cast<std::uint32_t>(std::min(kChunk, size - done));
    io.mode = IoMode::kWrite;
    functional(io);
  }
}

void ZoneStack::save_state(StateWriter& out) const {
  if (log_) log_->save_state(out);
}

void ZoneStack::load_state(StateReader& in) {
  if (log_) log_->load_state(in);
}

}  // namespace ssdlab::sim
