#include "ftl/zoned.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "ftl/pools.h"

namespace ssdlab::ftl {

using flash::BlockId;
using flash::Op;
using flash::Ppn;

std::string_view zone_state_name(ZoneState state) {
  switch (state) {
    case ZoneState::kEmpty: return "empty";
    case ZoneState::kImplicitlyOpen: return "implicitly_open";
    case ZoneState::kExplicitlyOpen: return "explicitly_open";
    case ZoneState::kClosed: return "closed";
    case ZoneState::kReadOnly: return "read_only";
    case ZoneState::kFull: return "full";
    case ZoneState::kOffline: return "offline";
  }
  return "?";
}

std::string_view zone_status_name(ZoneStatus status) {
  switch (status) {
    case ZoneStatus::kSuccess: return "success";
    case ZoneStatus::kInvalidField: return "invalid_field";
    case ZoneStatus::kLbaOutOfRange: return "lba_out_of_range";
    case ZoneStatus::kBoundaryError: return "zone_boundary_error";
    case ZoneStatus::kZoneFull: return "zone_is_full";
    case ZoneStatus::kZoneReadOnly: return "zone_is_read_only";
    case ZoneStatus::kZoneOffline: return "zone_is_offline";
    case ZoneStatus::kInvalidWrite: return "zone_invalid_write";
    case ZoneStatus::kTooManyActive: return "too_many_active_zones";
    case ZoneStatus::kTooManyOpen: return "too_many_open_zones";
    case ZoneStatus::kInvalidTransition: return "invalid_zone_state_transition";
    case ZoneStatus::kInvalidZoneOperation:
      return "invalid_zone_operation";
    case ZoneStatus::kNoZrwa:
      return "zrwa_resources_unavailable";
  }
  return "?";
}

// Layout: the device's dies form groups of zone_width dies, die g, g + G,
// g + 2G, ... in group g of G (so that a zone's dies spread over channels).
// Zone z lies in group z mod G, in the (z div G)-th run of blocks_per_unit
// blocks of each plane of its dies. Its pages go round its planes (a die's
// planes next to each other, so that two pages of a die pair into one
// two-plane program), one page each, row by row.
ZonedFtl::ZonedFtl(const FtlContext& context)
    : geometry_(context.geometry),
      config_(context.config),
      keys_(context.config.keys.get<ZonedKeys>()),
      nand_(context.geometry) {
  const flash::Geometry& g = context.geometry;
  if (config_.logical_page_size != g.page_size)
    throw make_error("zoned FTL: ftl.logical_page_size must equal the flash page size ({} B)",
                     g.page_size);
  const std::uint32_t width = keys_.zone_width ? keys_.zone_width : g.dies();
  if (width > g.dies() || g.dies() % width != 0)
    throw make_error("zoned FTL: ftl.zone_width {} must divide the device's {} dies", width,
                     g.dies());
  groups_ = g.dies() / width;
  units_ = width * g.planes_per_die;
  const std::uint64_t block_bytes = std::uint64_t{g.pages_per_block} * g.page_size;
  const std::uint64_t row_bytes = block_bytes * units_;
  const std::uint64_t size = keys_.zone_size ? keys_.zone_size : row_bytes;
  if (size % row_bytes != 0)
    throw make_error(
        "zoned FTL: ftl.zone_size {} B is not a whole number of blocks on each of its {} planes "
        "({} B per block row)",
        size, units_, row_bytes);
  blocks_per_unit_ = static_cast<std::uint32_t>(size / row_bytes);
  zone_pages_ = size / g.page_size;
  const std::uint64_t capacity = keys_.zone_capacity ? keys_.zone_capacity : size;
  if (capacity > size || capacity % g.page_size != 0)
    throw make_error(
        "zoned FTL: ftl.zone_capacity {} B must be whole pages and at most the zone size {} B",
        capacity, size);
  capacity_pages_ = capacity / g.page_size;
  zrwa_pages_ = static_cast<std::uint32_t>(keys_.zrwa_size / g.page_size);
  if (keys_.zrwa_flush_granularity)
    zrwa_granule_ = static_cast<std::uint32_t>(keys_.zrwa_flush_granularity / g.page_size);
  // Over-provisioning: the share of each plane's blocks no zone holds, the
  // spare that replaces a worn block at a reset.
  const auto usable = static_cast<std::uint32_t>(static_cast<double>(g.blocks_per_plane) *
                                                 (1.0 - config_.overprovisioning));
  const std::uint32_t runs = usable / blocks_per_unit_;
  if (runs == 0)
    throw make_error("zoned FTL: a zone needs {} blocks per plane, {} are usable",
                     blocks_per_unit_, usable);
  zones_ = std::uint64_t{runs} * groups_;
  if (zones_ * zone_pages_ >= flash::kNoLpn)
    throw make_error("the device has too many logical pages");
  blocks_.resize(zones_ * units_ * blocks_per_unit_);
  for (std::uint64_t z = 0; z < zones_; ++z)
    for (std::uint32_t u = 0; u < units_; ++u) {
      const std::uint32_t die = static_cast<std::uint32_t>(z % groups_) + (u / g.planes_per_die) * groups_;
      const std::uint32_t plane = die * g.planes_per_die + u % g.planes_per_die;
      for (std::uint32_t b = 0; b < blocks_per_unit_; ++b)
        block(z, u, b) = plane * g.blocks_per_plane +
                         static_cast<BlockId>(z / groups_) * blocks_per_unit_ + b;
    }
  spare_.resize(g.planes());
  for (std::uint32_t plane = 0; plane < g.planes(); ++plane)
    for (BlockId b = runs * blocks_per_unit_; b < g.blocks_per_plane; ++b)
      spare_[plane].push_back(plane * g.blocks_per_plane + b);
  zones_state_.resize(zones_);
  stats_.blocks_cleaned_per_pool.assign(1, 0);
}

Ppn ZonedFtl::page_of(Lpn lpn) const {
  const std::uint64_t zone = lpn / zone_pages_;
  const std::uint64_t offset = lpn - zone * zone_pages_;
  const auto unit = static_cast<std::uint32_t>(offset % units_);
  const std::uint64_t row = offset / units_;
  const auto row_block = static_cast<std::uint32_t>(row / geometry_.pages_per_block);
  return geometry_.first_page(block(zone, unit, row_block)) +
         static_cast<std::uint32_t>(row % geometry_.pages_per_block);
}

void ZonedFtl::write(const PageRange& range, CommandList& out) {
  const std::size_t start = out.size();
  for (Lpn lpn = range.first; lpn < range.first + range.count; ++lpn) {
    const Ppn ppn = page_of(lpn);
    nand_.program(ppn, lpn);
    out.push_back(flash::page_command(Op::kProgram, ppn, lpn));
  }
  stats_.host_pages_written += range.count;
  stats_.flash_pages_written += range.count;
  if (config_.two_plane) merge_two_plane(geometry_, out, start);
}

void ZonedFtl::read(const PageRange& range, CommandList& out) {
  const std::size_t start = out.size();
  for (Lpn lpn = range.first; lpn < range.first + range.count; ++lpn) {
    if (!is_mapped(lpn)) {
      ++stats_.unmapped_pages_read;  // above the write pointer, or reset
      continue;
    }
    out.push_back(flash::page_command(Op::kRead, page_of(lpn), lpn));
    ++stats_.flash_pages_read;
  }
  stats_.host_pages_read += range.count;
  if (config_.two_plane) merge_two_plane(geometry_, out, start);
}

// A deallocation is advisory on a zoned namespace: only a reset frees a
// zone's blocks, so a trim changes nothing (docs/zns.md).
void ZonedFtl::trim(const PageRange& /*range*/, CommandList& /*out*/) {}

records::ZoneCounters new_zone_counters() {
  records::ZoneCounters counters;
  for (const ZoneStatus status : kZoneErrors)
    counters.refusals.push_back(
        {std::string(zone_status_name(status)), static_cast<std::uint64_t>(status), 0});
  return counters;
}

ZoneStatus ZonedFtl::refuse(ZoneStatus status) {
  count_refusal(status);
  return status;
}

void ZonedFtl::count_refusal(ZoneStatus status) {
  const auto* it = std::find(kZoneErrors.begin(), kZoneErrors.end(), status);
  if (it != kZoneErrors.end())
    ++counters_.refusals[static_cast<std::size_t>(it - kZoneErrors.begin())].count;
}

ZoneStatus ZonedFtl::writable(const Zone& zone) const {
  switch (zone.state) {
    case ZoneState::kFull: return ZoneStatus::kZoneFull;
    case ZoneState::kReadOnly: return ZoneStatus::kZoneReadOnly;
    case ZoneState::kOffline: return ZoneStatus::kZoneOffline;
    default: return ZoneStatus::kSuccess;
  }
}

void ZonedFtl::set_state(std::uint64_t index, ZoneState to) {
  Zone& zone = zones_state_[index];
  if (zone.state == ZoneState::kImplicitlyOpen) std::erase(implicitly_open_, index);
  open_ -= is_open(zone.state);
  active_ -= is_active(zone.state);
  zone.state = to;
  if (to == ZoneState::kImplicitlyOpen) implicitly_open_.push_back(index);
  open_ += is_open(to);
  active_ += is_active(to);
}

// ZNS §2.1.1.4 (managing resources): a zone that opens needs an open
// resource, and an active one unless it is closed already; with no open
// resource left the controller closes an implicitly open zone, the one
// opened first (the specification leaves the choice to the controller).
ZoneStatus ZonedFtl::take_resources(std::uint64_t index, ZoneState to) {
  const ZoneState from = zones_state_[index].state;
  if (is_open(from)) {
    if (from != to) set_state(index, to);
    return ZoneStatus::kSuccess;
  }
  if (from == ZoneState::kEmpty && keys_.max_active_zones && active_ >= keys_.max_active_zones)
    return ZoneStatus::kTooManyActive;
  if (keys_.max_open_zones && open_ >= keys_.max_open_zones) {
    if (implicitly_open_.empty()) return ZoneStatus::kTooManyOpen;
    const std::uint64_t oldest = implicitly_open_.front();
    set_state(oldest, ZoneState::kClosed);
    ++counters_.implicit_closes;
  }
  set_state(index, to);
  return ZoneStatus::kSuccess;
}

ZoneStatus ZonedFtl::open_for_write(std::uint64_t index) {
  return take_resources(index, zones_state_[index].state == ZoneState::kExplicitlyOpen
                                   ? ZoneState::kExplicitlyOpen
                                   : ZoneState::kImplicitlyOpen);
}

ZoneStatus ZonedFtl::admit_write(Lpn first, std::uint32_t count) {
  const std::uint64_t index = first / zone_pages_;
  if (index >= zones_ || count == 0) return refuse(ZoneStatus::kLbaOutOfRange);
  Zone& zone = zones_state_[index];
  if (has_zrwa(index)) throw std::logic_error("zoned FTL: admit_write to a zone with a ZRWA");
  if (const ZoneStatus status = writable(zone); status != ZoneStatus::kSuccess)
    return refuse(status);
  if (first - index * zone_pages_ != zone.write_pointer) return refuse(ZoneStatus::kInvalidWrite);
  if (zone.write_pointer + std::uint64_t{count} > capacity_pages_)
    return refuse(ZoneStatus::kBoundaryError);
  if (const ZoneStatus status = open_for_write(index); status != ZoneStatus::kSuccess)
    return refuse(status);
  zone.write_pointer += count;
  if (zone.write_pointer == capacity_pages_) set_state(index, ZoneState::kFull);
  return ZoneStatus::kSuccess;
}

ZoneStatus ZonedFtl::admit_append(std::uint64_t index, std::uint32_t count, Lpn& first) {
  if (index >= zones_) return refuse(ZoneStatus::kLbaOutOfRange);
  // (TP 4076: a zone with a ZRWA takes no append; QEMU and FEMU refuse it so.)
  if (has_zrwa(index)) return refuse(ZoneStatus::kInvalidZoneOperation);
  first = index * zone_pages_ + zones_state_[index].write_pointer;
  const ZoneStatus status = admit_write(first, count);
  if (status == ZoneStatus::kSuccess) ++counters_.appends;
  return status;
}

ZoneStatus ZonedFtl::check_read(Lpn first, std::uint32_t count) const {
  if (count == 0 || first + count > logical_pages()) return ZoneStatus::kLbaOutOfRange;
  for (std::uint64_t z = first / zone_pages_; z <= (first + count - 1) / zone_pages_; ++z)
    if (zones_state_[z].state == ZoneState::kOffline) return ZoneStatus::kZoneOffline;
  return ZoneStatus::kSuccess;
}

ZoneStatus ZonedFtl::reset(std::uint64_t index, CommandList& out) {
  if (index >= zones_) return refuse(ZoneStatus::kLbaOutOfRange);
  Zone& zone = zones_state_[index];
  if (zone.state == ZoneState::kOffline) return refuse(ZoneStatus::kZoneOffline);
  if (zone.state == ZoneState::kReadOnly) return refuse(ZoneStatus::kInvalidTransition);
  ++counters_.resets;
  zrwa_.erase(index);  // (what it held is forgotten with the zone)
  if (zone.state == ZoneState::kEmpty) return ZoneStatus::kSuccess;  // nothing to erase
  // The reset is logged as device metadata before its erases (a mount after
  // a cut that interrupts them erases what they left: zoned_state.cpp).
  nand_.record_trim(index * zone_pages_, (index + 1) * zone_pages_);
  const std::size_t start = out.size();
  erase_zone(index, out);
  if (config_.two_plane) merge_two_plane(geometry_, out, start, /*erases=*/true);
  zone.write_pointer = 0;
  zone.finished = false;
  set_state(index, zone.state == ZoneState::kOffline ? ZoneState::kOffline : ZoneState::kEmpty);
  // The last zone gone offline: the device holds no data any more, which is
  // the end of life the other FTLs report when they cannot keep their
  // capacity (issue 51, L8).
  if (zone.state == ZoneState::kOffline &&
      std::all_of(zones_state_.begin(), zones_state_.end(),
                  [](const Zone& z) { return z.state == ZoneState::kOffline; }))
    throw EndOfLife(fmt::format(
        "end of life: all {} zones are offline (their worn blocks had no spare left to replace "
        "them; ftl.overprovisioning sets the spares)",
        zones_));
  return ZoneStatus::kSuccess;
}

// The zone's written blocks are erased (blocks no page of the zone reached
// are erased already). A block that reaches its rated cycles is retired and
// replaced by an erased spare block of its plane; with none left the zone
// goes offline (ZNS §2.1.1: the controller may take a zone offline).
void ZonedFtl::erase_zone(std::uint64_t index, CommandList& out) {
  const std::uint32_t pe_cycles = geometry_.pe_cycles;
  for (std::uint32_t u = 0; u < units_; ++u)
    for (std::uint32_t b = 0; b < blocks_per_unit_; ++b) {
      BlockId& id = block(index, u, b);
      if (nand_.is_erased(id)) continue;
      // The zone's data is discarded: its pages are valid no more.
      const Ppn first = geometry_.first_page(id);
      for (std::uint32_t p = 0; p < nand_.write_pointer(id); ++p)
        if (nand_.is_valid(first + p)) nand_.invalidate(first + p);
      out.push_back(flash::page_command(Op::kErase, first, flash::kNoLpn));
      nand_.erase(id);
      ++stats_.erases;  // (not cleaning: a zoned device never cleans)
      if (pe_cycles == 0 || nand_.erase_count(id) < pe_cycles) continue;
      ++stats_.blocks_retired;
      std::vector<BlockId>& spare = spare_[geometry_.plane_of_block(id)];
      if (spare.empty()) {
        set_state(index, ZoneState::kOffline);
        continue;
      }
      id = spare.back();
      spare.pop_back();
      ++counters_.blocks_replaced;
    }
}

ZoneStatus ZonedFtl::finish(std::uint64_t index, CommandList& out) {
  if (index >= zones_) return refuse(ZoneStatus::kLbaOutOfRange);
  Zone& zone = zones_state_[index];
  if (zone.state == ZoneState::kOffline) return refuse(ZoneStatus::kZoneOffline);
  if (zone.state == ZoneState::kReadOnly) return refuse(ZoneStatus::kInvalidTransition);
  ++counters_.finishes;
  if (zone.state == ZoneState::kFull) return ZoneStatus::kSuccess;
  // (The controller commits a ZRWA before the finish: commit_zrwa.)
  if (const auto it = zrwa_.find(index); it != zrwa_.end()) {
    if (std::find(it->second.begin(), it->second.end(), true) != it->second.end())
      throw std::logic_error("zoned FTL: a finish of a zone whose ZRWA holds pages");
    zrwa_.erase(it);
  }
  // (An empty zone holds no block to keep closed: nothing to pad, as a
  // ZN540 finishes one in 13.5 us and one holding a single block in 908 ms;
  // docs/zns.md, "Finish".)
  if (keys_.finish == ZoneFinish::kPad && zone.write_pointer > 0) pad_zone(index, out);
  zone.write_pointer = static_cast<std::uint32_t>(capacity_pages_);
  zone.finished = true;
  set_state(index, ZoneState::kFull);
  return ZoneStatus::kSuccess;
}

// zone_finish = "pad": the pages from the write pointer to the zone's
// capacity are programmed with filler, as a device that keeps no
// partly written blocks does.
void ZonedFtl::pad_zone(std::uint64_t index, CommandList& out) {
  const std::size_t start = out.size();
  const Lpn base = index * zone_pages_;
  for (std::uint64_t p = zones_state_[index].write_pointer; p < capacity_pages_; ++p) {
    const Ppn ppn = page_of(base + p);
    nand_.pad(ppn);
    out.push_back(flash::page_command(Op::kProgram, ppn, flash::kNoLpn));
    ++stats_.flash_pages_written;
    ++stats_.padding_pages;
    ++counters_.finish_padding_pages;
  }
  if (config_.two_plane) merge_two_plane(geometry_, out, start);
}

ZoneStatus ZonedFtl::open(std::uint64_t index) {
  if (index >= zones_) return refuse(ZoneStatus::kLbaOutOfRange);
  const ZoneState state = zones_state_[index].state;
  if (state == ZoneState::kExplicitlyOpen) return ZoneStatus::kSuccess;
  if (state != ZoneState::kEmpty && state != ZoneState::kClosed &&
      state != ZoneState::kImplicitlyOpen)
    return refuse(ZoneStatus::kInvalidTransition);
  if (const ZoneStatus status = zrwa_allowed(index); status != ZoneStatus::kSuccess)
    return refuse(status);
  if (const ZoneStatus status = take_resources(index, ZoneState::kExplicitlyOpen);
      status != ZoneStatus::kSuccess)
    return refuse(status);
  if (keys_.zrwa_size && !has_zrwa(index)) {
    zrwa_.emplace(index, std::vector<bool>(2 * std::size_t{zrwa_pages_}, false));
    ++counters_.zrwa_allocations;
  }
  ++counters_.opens;
  return ZoneStatus::kSuccess;
}

ZoneStatus ZonedFtl::close(std::uint64_t index) {
  if (index >= zones_) return refuse(ZoneStatus::kLbaOutOfRange);
  const ZoneState state = zones_state_[index].state;
  if (state == ZoneState::kClosed) return ZoneStatus::kSuccess;
  if (!is_open(state)) return refuse(ZoneStatus::kInvalidTransition);
  // ZNS 1.1 §3.4.3.1.1 (Close Zone): an open zone goes to Closed, whatever
  // its write pointer, so a zone closed before its first write keeps its
  // active resource (as QEMU's nvme_zrm_close and FEMU's zns_close_zone do;
  // SCSI ZBC, and Linux's null_blk after it, return such a zone to Empty).
  // Only a reset (§2.1.1.3.2-3), or a controller's start with the write
  // pointer at the zone's start (§2.1.1.3, our mount: state_from()), makes
  // it Empty.
  set_state(index, ZoneState::kClosed);
  ++counters_.closes;
  return ZoneStatus::kSuccess;
}

}  // namespace ssdlab::ftl
