// The zoned FTL's zone random write area (ZRWA; NVMe TP 4076, ratified
// 2021, in the ZNS Command Set after 1.1; docs/zns.md "The zone random write
// area"), as QEMU's NVMe model builds it (hw/nvme/ctrl.c: nvme_open_zone,
// nvme_check_zone_write, nvme_zoned_zrwa_implicit_flush,
// nvme_zone_mgmt_send_zrwa_flush):
//  - a zone opened explicitly gets a ZRWA (Open Zone's ZRWAA bit: here,
//    every explicit open on a device with ftl.zrwa_size asks for one) if a
//    ZRWA resource is left (ftl.max_zrwa_zones, NUMZRWA) and its write
//    pointer is on a flush granule, else Zone Random Write Area Resources
//    Unavailable (1B7h);
//  - its writes may start anywhere at or above the write pointer and end no
//    further than twice the ZRWA's size above it (the ZRWA, then the
//    implicit flush range, IZFR), else Zone Invalid Write; they overwrite
//    each other freely, in the controller's memory;
//  - a write that ends in the IZFR commits the ZRWA's first pages, as many
//    whole flush granules (ZRWAFG) as bring the write's end into the ZRWA:
//    the write pointer moves past them;
//  - Flush Explicit ZRWA Range commits up to and including its SLBA, which
//    must lie in the ZRWA with a whole number of granules up to it (else
//    Zone Boundary Error, Invalid Field);
//  - a zone append is refused (Invalid Zone Operation, 1B6h); a close keeps
//    the ZRWA, a reset forgets it, a finish commits it first (the
//    controller: ZonedDevice::commit_zrwa), and a zone that reaches its
//    capacity releases it.
// A committed page the host never wrote in the ZRWA is written as zeros
// (counted: zrwa_unwritten_pages).
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "ftl/zoned.h"

namespace ssdlab::ftl {

ZoneStatus ZonedFtl::zrwa_allowed(std::uint64_t index) const {
  if (keys_.zrwa_size == 0 || has_zrwa(index)) return ZoneStatus::kSuccess;
  if (keys_.max_zrwa_zones && zrwa_.size() >= keys_.max_zrwa_zones) return ZoneStatus::kNoZrwa;
  if (zones_state_[index].write_pointer % zrwa_granule_ != 0) return ZoneStatus::kNoZrwa;
  return ZoneStatus::kSuccess;
}

ZonedDevice::Commit ZonedFtl::commit(std::uint64_t index, std::uint32_t advance) {
  Zone& zone = zones_state_[index];
  std::vector<bool>& held = zrwa_.at(index);
  const Commit done{static_cast<Lpn>(index * zone_pages_ + zone.write_pointer), advance};
  const auto end = held.begin() + advance;
  counters_.zrwa_unwritten_pages +=
      advance - static_cast<std::uint64_t>(std::count(held.begin(), end, true));
  // The window slides: what lay above the committed pages moves down.
  held.erase(held.begin(), end);
  held.resize(2 * std::size_t{zrwa_pages_}, false);
  zone.write_pointer += advance;
  if (zone.write_pointer == capacity_pages_) {
    set_state(index, ZoneState::kFull);
    zrwa_.erase(index);
  }
  return done;
}

ZoneStatus ZonedFtl::write_zrwa(Lpn first, std::uint32_t count, Commit& commit_out) {
  commit_out = {};
  const std::uint64_t index = first / zone_pages_;
  if (index >= zones_ || !has_zrwa(index))
    throw std::logic_error("zoned FTL: write_zrwa to a zone without a ZRWA");
  Zone& zone = zones_state_[index];
  if (const ZoneStatus status = writable(zone); status != ZoneStatus::kSuccess)
    return refuse(status);
  const std::uint64_t offset = first - index * zone_pages_;
  const std::uint64_t end = offset + count;
  if (end > capacity_pages_) return refuse(ZoneStatus::kBoundaryError);
  const std::uint64_t wp = zone.write_pointer;
  if (offset < wp || end > wp + 2 * std::uint64_t{zrwa_pages_})
    return refuse(ZoneStatus::kInvalidWrite);
  if (const ZoneStatus status = open_for_write(index); status != ZoneStatus::kSuccess)
    return refuse(status);
  std::vector<bool>& held = zrwa_.at(index);
  for (std::uint64_t p = offset - wp; p < end - wp; ++p) {
    counters_.zrwa_overwritten_pages += held[p];
    held[p] = true;
  }
  if (end > wp + zrwa_pages_) {
    const std::uint64_t over = end - wp - zrwa_pages_;
    const auto advance =
        static_cast<std::uint32_t>((over + zrwa_granule_ - 1) / zrwa_granule_ * zrwa_granule_);
    ++counters_.zrwa_implicit_flushes;
    commit_out = commit(
        index, static_cast<std::uint32_t>(std::min<std::uint64_t>(advance, capacity_pages_ - wp)));
  }
  return ZoneStatus::kSuccess;
}

ZoneStatus ZonedFtl::flush_zrwa(Lpn last, Commit& commit_out) {
  commit_out = {};
  const std::uint64_t index = last / zone_pages_;
  if (index >= zones_) return refuse(ZoneStatus::kLbaOutOfRange);
  if (!has_zrwa(index)) return refuse(ZoneStatus::kInvalidField);
  const std::uint64_t offset = last - index * zone_pages_;
  const std::uint64_t wp = zones_state_[index].write_pointer;
  if (offset < wp || offset >= wp + zrwa_pages_) return refuse(ZoneStatus::kBoundaryError);
  const auto advance = static_cast<std::uint32_t>(offset + 1 - wp);
  // (The zone's last granule may be short: the commit then ends at its capacity.)
  if (advance % zrwa_granule_ != 0 && offset + 1 != capacity_pages_)
    return refuse(ZoneStatus::kInvalidField);
  ++counters_.zrwa_explicit_flushes;
  commit_out = commit(index, advance);
  return ZoneStatus::kSuccess;
}

ZonedDevice::Commit ZonedFtl::commit_zrwa(std::uint64_t index) {
  const auto it = zrwa_.find(index);
  if (it == zrwa_.end()) return {};
  const auto last = std::find(it->second.rbegin(), it->second.rend(), true);
  const auto advance = static_cast<std::uint32_t>(it->second.rend() - last);
  return advance ? commit(index, advance) : Commit{};
}

void ZonedFtl::check_zrwa(std::uint64_t zone) const {
  const auto it = zrwa_.find(zone);
  if (it == zrwa_.end()) return;
  const auto fail = [&](const char* what) {
    throw std::logic_error(fmt::format("zoned FTL: zone {}'s ZRWA: {}", zone, what));
  };
  if (it->second.size() != 2 * std::size_t{zrwa_pages_}) fail("not twice the ZRWA's pages");
  if (!is_active(zones_state_[zone].state)) fail("its zone is neither open nor closed");
  if (std::find(it->second.begin() + zrwa_pages_, it->second.end(), true) != it->second.end())
    fail("a page held past the ZRWA");
}

}  // namespace ssdlab::ftl
