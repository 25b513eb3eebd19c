#include "sim/controller/zone_front.h"

namespace ssdlab::sim {

using ftl::ZoneStatus;
using Kind = ZoneFront::Decision::Kind;

ZoneFront::Decision ZoneFront::refuse(ZoneStatus status, std::uint64_t offset) {
  device_.count_refusal(status);
  return {Kind::kRefused, status, {}, offset};
}

bool ZoneFront::whole_pages(const HostIo& request, ftl::PageRange& range) const {
  const std::uint64_t device_bytes = device_.zones() * zone_bytes();
  if (request.offset % page_size_ || request.size % page_size_ || request.size == 0 ||
      request.offset + request.size > device_bytes)
    return false;
  range.first = static_cast<ftl::Lpn>(request.offset / page_size_);
  range.count = static_cast<std::uint32_t>(request.size / page_size_);
  return true;
}

ZoneFront::Decision ZoneFront::decide(const HostIo& request, flash::CommandList& out) {
  ftl::PageRange range;
  range.placement = request.placement;
  switch (request.mode) {
    case IoMode::kTrim:
      return {Kind::kTrim, ZoneStatus::kSuccess, {}, request.offset};
    case IoMode::kRead:
    case IoMode::kWrite:
    case IoMode::kZoneAppend: {
      // A zoned namespace takes whole logical blocks: here, whole pages.
      if (!whole_pages(request, range))
        return refuse(request.offset + request.size > device_.zones() * zone_bytes()
                          ? ZoneStatus::kLbaOutOfRange
                          : ZoneStatus::kInvalidField,
                      request.offset);
      if (request.mode == IoMode::kRead) {
        const ZoneStatus status = device_.check_read(range.first, range.count);
        if (status != ZoneStatus::kSuccess) return refuse(status, request.offset);
        return {Kind::kRead, status, range, request.offset};
      }
      ZoneStatus status;
      const std::uint64_t zone = range.first / device_.zone_pages();
      if (request.mode == IoMode::kWrite && device_.has_zrwa(zone)) {
        ftl::ZonedDevice::Commit commit;
        status = device_.write_zrwa(range.first, range.count, commit);
        if (status != ZoneStatus::kSuccess) return {Kind::kRefused, status, {}, request.offset};
        return {Kind::kZrwa, status, ftl::PageRange{commit.first, commit.count}, request.offset};
      }
      if (request.mode == IoMode::kWrite) {
        status = device_.admit_write(range.first, range.count);
      } else {
        // An append names its zone by the zone's first byte (ZSLBA).
        if (request.offset % zone_bytes()) return refuse(ZoneStatus::kInvalidField, request.offset);
        status = device_.admit_append(request.offset / zone_bytes(), range.count, range.first);
      }
      if (status != ZoneStatus::kSuccess) return {Kind::kRefused, status, {}, request.offset};
      return {Kind::kWrite, status, range, std::uint64_t{range.first} * page_size_};
    }
    case IoMode::kZoneFlush: {
      // Its range ends with the last logical block it commits (the SLBA).
      if (!whole_pages(request, range)) return refuse(ZoneStatus::kInvalidField, request.offset);
      ftl::ZonedDevice::Commit commit;
      const ZoneStatus status = device_.flush_zrwa(range.first + range.count - 1, commit);
      if (status != ZoneStatus::kSuccess) return {Kind::kRefused, status, {}, request.offset};
      return {Kind::kZrwa, status, ftl::PageRange{commit.first, commit.count}, request.offset};
    }
    default:
      return zone_action(request, out);
  }
}

ZoneFront::Decision ZoneFront::zone_action(const HostIo& request, flash::CommandList& out) {
  if (request.offset % zone_bytes()) return refuse(ZoneStatus::kInvalidField, request.offset);
  const std::uint64_t zone = request.offset / zone_bytes();
  const std::size_t before = out.size();
  ZoneStatus status = ZoneStatus::kSuccess;
  switch (request.mode) {
    case IoMode::kZoneReset: status = device_.reset(zone, out); break;
    case IoMode::kZoneFinish: status = device_.finish(zone, out); break;
    case IoMode::kZoneOpen: status = device_.open(zone); break;
    default: status = device_.close(zone); break;
  }
  if (status != ZoneStatus::kSuccess) return {Kind::kRefused, status, {}, request.offset};
  ftl::PageRange range;  // the zone (a reset forgets its data)
  range.first = static_cast<ftl::Lpn>(zone * device_.zone_pages());
  range.count = static_cast<std::uint32_t>(device_.zone_pages());
  return {out.size() > before ? Kind::kCommands : Kind::kNoFlash, status, range, request.offset};
}

}  // namespace ssdlab::sim
