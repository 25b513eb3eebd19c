// Zones of a zoned device (NVMe Zoned Namespace Command Set 1.1, "ZNS";
// docs/zns.md): what a zoned FTL (ftl/zoned.cpp) offers the controller
// besides the Ftl interface. Zones are numbered from 0 and lie one after
// another in the logical space, each `zone_pages` logical pages long, of
// which the first `capacity_pages` can be written (the zone capacity, ZNS
// §2.1.1). The controller's zone part (sim/controller/zone_front.h) checks
// every host command against the zone's state here before the FTL sees it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "flash/command.h"
#include "records/zone_counters.h"

namespace ssdlab::ftl {

// The zone states of ZNS §2.1.1 (Figure "Zone State Machine"), with the
// values a Report Zones descriptor carries (ZNS Figure 37, "Zone State").
enum class ZoneState : std::uint8_t {
  kEmpty = 0x1,
  kImplicitlyOpen = 0x2,
  kExplicitlyOpen = 0x3,
  kClosed = 0x4,
  kReadOnly = 0xD,
  kFull = 0xE,
  kOffline = 0xF,
};
std::string_view zone_state_name(ZoneState state);
inline bool is_open(ZoneState s) {
  return s == ZoneState::kImplicitlyOpen || s == ZoneState::kExplicitlyOpen;
}
// Open or closed: the zones that hold the device's active resources (ZNS §2.1.1.3).
inline bool is_active(ZoneState s) { return is_open(s) || s == ZoneState::kClosed; }

// How a command ended: success, or the ZNS command-specific status a drive
// returns (ZNS 1.1 Figure 26; the same values as QEMU's NVMe model,
// include/block/nvme.h), plus the generic "LBA Out of Range" (NVMe Base 2.0
// Figure 102) and "Invalid Field in Command" for a request no zone command
// can express (not whole logical pages, or not at a zone's start), and the
// two a zone random write area adds (NVMe TP 4076; QEMU's NVME_ZONE_INVALID_OP
// and NVME_NOZRWA).
enum class ZoneStatus : std::uint16_t {
  kSuccess = 0x000,
  kInvalidField = 0x002,
  kLbaOutOfRange = 0x080,
  kInvalidZoneOperation = 0x1B6,
  kNoZrwa = 0x1B7,
  kBoundaryError = 0x1B8,
  kZoneFull = 0x1B9,
  kZoneReadOnly = 0x1BA,
  kZoneOffline = 0x1BB,
  kInvalidWrite = 0x1BC,
  kTooManyActive = 0x1BD,
  kTooManyOpen = 0x1BE,
  kInvalidTransition = 0x1BF,
};
std::string_view zone_status_name(ZoneStatus status);
// Every status but success, in the order summaries list them.
inline constexpr std::array<ZoneStatus, 12> kZoneErrors = {
    ZoneStatus::kInvalidField,      ZoneStatus::kLbaOutOfRange,        ZoneStatus::kBoundaryError,
    ZoneStatus::kZoneFull,          ZoneStatus::kZoneReadOnly,         ZoneStatus::kZoneOffline,
    ZoneStatus::kInvalidWrite,      ZoneStatus::kTooManyActive,        ZoneStatus::kTooManyOpen,
    ZoneStatus::kInvalidTransition, ZoneStatus::kInvalidZoneOperation, ZoneStatus::kNoZrwa};

// One zone as a Report Zones descriptor shows it (ZNS Figure 37).
struct ZoneReport {
  ZoneState state = ZoneState::kEmpty;
  std::uint64_t write_pointer = 0;  // logical pages written from the zone's start
};

// What a zoned device counts (records/zone_counters.h): its refusals
// listed by kZoneErrors, at 0.
records::ZoneCounters new_zone_counters();

// The zone commands of a zoned FTL. Every call that changes a zone first
// checks it and, if the command must be refused, returns the status and
// changes nothing. Pages are logical pages of the whole device.
class ZonedDevice {
 public:
  virtual ~ZonedDevice() = default;
  virtual std::uint64_t zones() const = 0;
  virtual std::uint64_t zone_pages() const = 0;      // the zone size
  virtual std::uint64_t capacity_pages() const = 0;  // writable pages of each zone
  virtual ZoneReport zone(std::uint64_t index) const = 0;
  virtual const records::ZoneCounters& zone_counters() const = 0;
  // The controller's time for a command that touches no flash.
  virtual double command_us() const = 0;

  // May `count` pages be written from `first` (a write: at the zone's write
  // pointer, inside its capacity, the zone writable and within the open and
  // active limits)? Success: the zone is (implicitly) open and its write
  // pointer past the pages, which the caller then writes with Ftl::write.
  virtual ZoneStatus admit_write(flash::Lpn first, std::uint32_t count) = 0;
  // A zone append of `count` pages to zone `index`: the first page the
  // device gives it, or the status it is refused with.
  virtual ZoneStatus admit_append(std::uint64_t index, std::uint32_t count, flash::Lpn& first) = 0;
  // Reads may not cross a zone's end or read an offline zone.
  virtual ZoneStatus check_read(flash::Lpn first, std::uint32_t count) const = 0;
  // The management actions (ZNS §3.4.3): commands (erases, padding) go to `out`.
  virtual ZoneStatus reset(std::uint64_t index, flash::CommandList& out) = 0;
  virtual ZoneStatus finish(std::uint64_t index, flash::CommandList& out) = 0;
  virtual ZoneStatus open(std::uint64_t index) = 0;
  virtual ZoneStatus close(std::uint64_t index) = 0;
  // A refusal the controller found itself (the request's shape), counted.
  virtual void count_refusal(ZoneStatus status) = 0;

  // The zone random write area (ZRWA; NVMe TP 4076, docs/zns.md "The zone
  // random write area"): with ftl.zrwa_size, a zone opened explicitly gets
  // one, if a resource is left. Its writes may land anywhere from the write
  // pointer up to twice the ZRWA's size above it, in any order, over each
  // other; they wait in the controller's memory, and the write pointer moves
  // only when pages are committed, `commit`'s pages, which the caller then
  // writes with Ftl::write (every page of the range: one the host never
  // wrote in the ZRWA reads as written zeros).
  struct Commit {
    flash::Lpn first = 0;
    std::uint32_t count = 0;  // 0: nothing committed
  };
  virtual bool has_zrwa(std::uint64_t index) const = 0;
  // A write into a zone's ZRWA; one that ends in the implicit flush range
  // (the ZRWA's size above the ZRWA) commits as many whole flush granules
  // as bring its end into the ZRWA.
  virtual ZoneStatus write_zrwa(flash::Lpn first, std::uint32_t count, Commit& commit) = 0;
  // Flush Explicit ZRWA Range: commits up to and including page `last`.
  virtual ZoneStatus flush_zrwa(flash::Lpn last, Commit& commit) = 0;
  // Everything the zone's ZRWA holds, up to its last page written, committed
  // (before a finish, which fills the zone).
  virtual Commit commit_zrwa(std::uint64_t index) = 0;
};

}  // namespace ssdlab::ftl
