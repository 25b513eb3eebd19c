// The zoned FTL's state: its mount after a power cut (write pointers found
// again on flash), its checkpoint section, and its invariants.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <type_traits>

#include "ftl/oob_scan.h"
#include "ftl/pools.h"
#include "ftl/zoned.h"
#include "records/walk.h"

namespace ssdlab::ftl {

using flash::BlockId;
using flash::Ppn;

ZoneState ZonedFtl::state_from(const Zone& zone) const {
  if (zone.state == ZoneState::kOffline || zone.state == ZoneState::kReadOnly) return zone.state;
  if (zone.finished || zone.write_pointer == capacity_pages_) return ZoneState::kFull;
  return zone.write_pointer == 0 ? ZoneState::kEmpty : ZoneState::kClosed;
}

// The open and active counts, from the states (the order of the
// implicitly open zones is kept in implicitly_open_ itself).
void ZonedFtl::recount() {
  open_ = active_ = 0;
  for (const Zone& zone : zones_state_) {
    open_ += is_open(zone.state);
    active_ += is_active(zone.state);
  }
}

// After a power cut (ZNS §2.1.1: open zones are closed by a controller
// reset): each zone's write pointer is one past the last page programmed in
// zone order, found by scanning each block up to its first erased page (a
// page of a write the cut interrupted may leave a hole below it, which
// reads as unwritten: that write was never acknowledged). The zone-to-block
// table and the finished and offline marks are device metadata, logged when
// they change, and survive the cut.
void ZonedFtl::recover(RecoveryPolicy /*policy*/, CommandList& out, RecoveryReport& report) {
  nand_.forget_valid_pages();
  implicitly_open_.clear();
  zrwa_.clear();  // (power cuts are refused with ZRWAs: sim/controller/ssd_power.cpp)
  // The sequence number of each zone's last reset record: pages older than
  // it are the data the reset discarded, blocks holding only such pages are
  // erases the cut interrupted, and the mount erases them.
  std::vector<std::uint64_t> reset_at(zones_, 0);
  for (const flash::NandArray::TrimRecord& record : nand_.trims()) {
    std::uint64_t& at = reset_at[record.first / zone_pages_];
    at = std::max(at, record.sequence);
  }
  const std::size_t mount_start = out.size();
  for (std::uint64_t z = 0; z < zones_; ++z) recover_zone(z, reset_at[z], out, report);
  // The blocks no zone holds are scanned too (each up to its first erased
  // page): the spares, and the worn blocks a reset retired and replaced
  // from them, as the controller's scan model reads every block (issue 51,
  // H3: the mount after a replacement read fewer pages than the model).
  std::vector<std::uint8_t> in_zone(geometry_.blocks(), 0);
  for (const BlockId id : blocks_) in_zone[id] = 1;
  for (BlockId id = 0; id < geometry_.blocks(); ++id)
    if (!in_zone[id]) report.pages_read += scan_pages_of_block(nand_, id, false);
  report.mount_commands += out.size() - mount_start;
  recount();
}

void ZonedFtl::recover_zone(std::uint64_t z, std::uint64_t reset_at, CommandList& out,
                            RecoveryReport& report) {
  Zone& zone = zones_state_[z];
  std::uint64_t end = 0;  // one past the last programmed page, in zone order
  const std::size_t erases = out.size();
  for (std::uint32_t u = 0; u < units_; ++u)
    for (std::uint32_t b = 0; b < blocks_per_unit_; ++b) {
      const BlockId id = block(z, u, b);
      report.pages_read += scan_pages_of_block(nand_, id, false);
      const std::uint32_t written = nand_.write_pointer(id);
      if (written == 0) continue;
      std::uint64_t newest = 0;
      for (std::uint32_t p = 0; p < written; ++p)
        newest = std::max(newest, nand_.sequence_at(geometry_.first_page(id) + p));
      if (reset_at && newest < reset_at) {
        out.push_back(flash::page_command(flash::Op::kErase, geometry_.first_page(id),
                                          flash::kNoLpn));
        nand_.erase(id);
        ++stats_.erases;
        continue;
      }
      const std::uint64_t row = std::uint64_t{b} * geometry_.pages_per_block + written - 1;
      end = std::max(end, row * units_ + u + 1);
    }
  // (The erases of an interrupted reset join as the reset's do.)
  if (config_.two_plane) merge_two_plane(geometry_, out, erases, /*erases=*/true);
  if (zone.state != ZoneState::kOffline && zone.state != ZoneState::kReadOnly) {
    zone.write_pointer = static_cast<std::uint32_t>(std::min(end, capacity_pages_));
    if (zone.finished) zone.write_pointer = static_cast<std::uint32_t>(capacity_pages_);
    zone.state = state_from(zone);
  }
  const Lpn base = z * zone_pages_;
  // Holes: pages below `end` whose program had not started at the cut while
  // a later page of the zone, on another block, had (queue depth above 1).
  // They read as unwritten, but the zone's next writes go above them, and a
  // block is programmed in order: the mount pads them (found by the
  // power-cut fuzzer's zoned mode, issue 51).
  const bool writable = zone.state != ZoneState::kOffline && zone.state != ZoneState::kReadOnly;
  for (std::uint64_t p = 0; writable && p < end; ++p) {
    const Ppn ppn = page_of(base + p);
    if (geometry_.page_in_block(ppn) < nand_.write_pointer(geometry_.block_of(ppn))) continue;
    nand_.pad(ppn);
    out.push_back(flash::page_command(flash::Op::kProgram, ppn, flash::kNoLpn));
    ++stats_.flash_pages_written;
    ++stats_.padding_pages;
  }
  for (std::uint64_t p = 0; p < end; ++p) {
    const Ppn ppn = page_of(base + p);
    if (nand_.lpn_at(ppn) == base + p && !nand_.is_torn(ppn) &&
        nand_.sequence_at(ppn) > reset_at)
      nand_.revalidate(ppn);
  }
}

void ZonedFtl::save_state(StateWriter& out) const {
  out.section("ZONE", 2);
  out.u64(zones_);
  for (const Zone& zone : zones_state_) {
    out.u8(static_cast<std::uint8_t>(zone.state));
    out.boolean(zone.finished);
    out.u32(zone.write_pointer);
  }
  out.vector(blocks_);
  for (const std::vector<BlockId>& spare : spare_) out.vector(spare);
  out.vector(implicitly_open_);
  out.u64(zrwa_.size());
  for (const auto& [zone, held] : zrwa_) {
    out.u64(zone);
    for (const bool page : held) out.boolean(page);
  }
  records::each_counter(counters_, [&](const char*, const auto& counter) {
    if constexpr (std::is_same_v<std::decay_t<decltype(counter)>, std::uint64_t>)
      out.u64(counter);
    else
      for (const records::ZoneCounters::Refusal& refusal : counter) out.u64(refusal.count);
  });
  nand_.save_state(out);
  save_stats(out, stats_);
}

void ZonedFtl::load_state(StateReader& in) {
  in.section("ZONE", 2);
  if (in.u64() != zones_) throw make_error("the checkpoint's zones do not fit this device");
  for (Zone& zone : zones_state_) {
    const std::uint8_t state = in.u8();
    zone.state = static_cast<ZoneState>(state);
    if (zone_state_name(zone.state) == "?")
      throw make_error("corrupt: zone state {}", state);
    zone.finished = in.boolean();
    zone.write_pointer = in.u32();
    if (zone.write_pointer > capacity_pages_)
      throw make_error("corrupt: a write pointer past the zone capacity");
  }
  in.vector(blocks_, blocks_.size(), "the zones' blocks");
  for (const BlockId id : blocks_)
    if (id >= geometry_.blocks()) throw make_error("corrupt: a zone holds block {}", id);
  for (std::vector<BlockId>& spare : spare_) {
    const std::uint64_t count = in.u64();
    if (count > geometry_.blocks_per_plane) throw make_error("corrupt: the spare blocks");
    spare.resize(count);
    for (BlockId& id : spare) id = in.u32();
  }
  const std::uint64_t open = in.u64();
  if (open > zones_) throw make_error("corrupt: the open zones");
  implicitly_open_.resize(open);
  for (std::uint64_t& z : implicitly_open_)
    if ((z = in.u64()) >= zones_) throw make_error("corrupt: an open zone");
  const std::uint64_t windows = in.u64();
  if (windows > zones_ || (windows && keys_.zrwa_size == 0))
    throw make_error("the checkpoint's zone random write areas do not fit this device");
  zrwa_.clear();
  for (std::uint64_t w = 0; w < windows; ++w) {
    const std::uint64_t zone = in.u64();
    if (zone >= zones_) throw make_error("corrupt: a ZRWA's zone");
    std::vector<bool>& held = zrwa_[zone];
    held.resize(2 * std::size_t{zrwa_pages_});
    for (std::size_t p = 0; p < held.size(); ++p) held[p] = in.boolean();
  }
  records::each_counter(counters_, [&](const char*, auto& counter) {
    if constexpr (std::is_same_v<std::decay_t<decltype(counter)>, std::uint64_t>)
      counter = in.u64();
    else
      for (records::ZoneCounters::Refusal& refusal : counter) refusal.count = in.u64();
  });
  nand_.load_state(in);
  load_stats(in, stats_);
  recount();
}

void ZonedFtl::check_invariants() const {
  nand_.check_invariants();
  std::uint32_t open = 0, active = 0;
  for (std::uint64_t z = 0; z < zones_; ++z) {
    const Zone& zone = zones_state_[z];
    open += is_open(zone.state);
    active += is_active(zone.state);
    const auto fail = [&](const char* what) {
      throw std::logic_error(fmt::format("zoned FTL: zone {} ({}, write pointer {}): {}", z,
                                         zone_state_name(zone.state), zone.write_pointer, what));
    };
    if (zone.state == ZoneState::kEmpty && zone.write_pointer != 0) fail("empty but written");
    if (zone.state == ZoneState::kFull && zone.write_pointer != capacity_pages_)
      fail("full below its capacity");
    if (zone.state == ZoneState::kOffline) continue;
    check_zrwa(z);
    const Lpn base = z * zone_pages_;
    for (std::uint64_t p = 0; p < zone_pages_; ++p) {
      const Ppn ppn = page_of(base + p);
      if (nand_.is_valid(ppn) && (p >= zone.write_pointer || nand_.lpn_at(ppn) != base + p))
        fail(fmt::format("page {} is valid above the write pointer or holds another", p).c_str());
    }
  }
  if (open != open_ || active != active_)
    throw std::logic_error(fmt::format("zoned FTL: {} open and {} active zones counted as {} and {}",
                                       open, active, open_, active_));
  if (keys_.max_open_zones && open_ > keys_.max_open_zones)
    throw std::logic_error("zoned FTL: more open zones than the limit");
  if (keys_.max_active_zones && active_ > keys_.max_active_zones)
    throw std::logic_error("zoned FTL: more active zones than the limit");
}

}  // namespace ssdlab::ftl
