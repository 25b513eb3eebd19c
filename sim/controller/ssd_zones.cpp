// Ssd on a zoned device (zone_front.h, docs/zns.md): each host request goes
// through the zone part, which admits it, refuses it, or turns a zone
// management action into flash commands.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/error.h"
#include "sim/controller/ssd.h"

namespace ssdlab::sim {

std::unique_ptr<ZoneFront> Ssd::make_zone_front(ftl::ZonedDevice& device) const {
  // A zoned drive's host writes each zone in order itself: a write-back
  // buffer that reorders them, or cleaning in the background of a device
  // that never cleans, has no meaning there.
  if (config_.controller.write_buffer_bytes)
    throw make_error("a zoned device (ftl.type = \"zoned\") takes no controller.write_buffer_bytes");
  return std::make_unique<ZoneFront>(device, ftl_->logical_page_size(),
                                     static_cast<TimeNs>(std::llround(device.command_us() * 1000.0)));
}

std::optional<TimeNs> Ssd::serve_zoned(const HostIo& request, TimeNs now, std::uint64_t tag) {
  using Kind = ZoneFront::Decision::Kind;
  commands_.clear();
  const ZoneFront::Decision decision = zones_->decide(request, commands_);
  zone_outcome_ = {decision.status, decision.offset};
  const TimeNs quick = now + zones_->command_ns();
  switch (decision.kind) {
    case Kind::kWrite:
      host_bytes_written_ += request.size;
      return flash_write(ftl::PageRuns{&decision.range, 1}, now, WriteOrigin::kHost, tag);
    case Kind::kRead:
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
    case Kind::kRefused:
    case Kind::kNoFlash:
      break;
  }
  return quick;
}

}  // namespace ssdlab::sim

namespace ssdlab::sim {

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
