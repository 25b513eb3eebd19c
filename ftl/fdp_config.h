// Host-guided data placement (`ftl.placement`; docs/fdp.md): NVMe Flexible
// Data Placement (TP4146) and multi-stream writes, in the page-mapped FTL
// and DFTL. A write carries a placement identifier; its data goes to the
// reclaim unit its reclaim unit handle points at.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace ssdlab::ftl {

// none: one host active block per plane (every write alike). fdp: reclaim
// unit handles (RUH) of one isolation type. streams: multi-stream writes,
// the same mechanism with stream ids (each stream persistently isolated).
enum class PlacementMode : std::uint8_t { kNone, kFdp, kStreams };
// TP4146's two RUH types: initially isolated (cleaning may move the valid
// data of several handles into one shared reclaim unit) or persistently
// isolated (cleaning moves a handle's data only into that handle's own
// reclaim units).
enum class Isolation : std::uint8_t { kInitially, kPersistently };

// Most placement handles (TP4146 allows up to 128 RUHs; the model keeps a
// fixed active-block slot per handle and plane).
constexpr std::uint32_t kMaxPlacementHandles = 8;

struct PlacementConfig {
  PlacementMode mode = PlacementMode::kNone;
  std::uint32_t handles = 4;  // placement handles (fdp) or streams
  // Bytes of one reclaim unit: 0 or exactly one block per plane of a
  // reclaim group (the only size modelled; the reader checks it).
  std::uint64_t ru_size = 0;
  // Reclaim groups: 0 or the number of allocation pools (ftl.allocation_pool): a
  // reclaim group is an allocation pool.
  std::uint32_t groups = 0;
  Isolation isolation = Isolation::kInitially;
  // `[[placement]]` tables: a logical byte range whose writes without a
  // placement identifier (handle 0) take `handle`.
  struct Range {
    std::uint64_t offset = 0, size = 0;
    std::uint32_t handle = 0;
    bool operator==(const Range&) const = default;
  };
  std::vector<Range> ranges;

  bool on() const { return mode != PlacementMode::kNone; }
  bool persistent() const {
    return mode == PlacementMode::kStreams || isolation == Isolation::kPersistently;
  }
};

// FDP statistics log page (TP4146 "FDP Statistics", log page 22h) and
// events (log page 23h), and each handle's reclaim-unit use
// (summary.json "fdp"). Bytes are flash page bytes.
struct FdpStats {
  std::uint64_t host_bytes_written = 0;     // HBMW
  std::uint64_t media_bytes_written = 0;    // MBMW: host and cleaning programs
  std::uint64_t media_bytes_erased = 0;     // MBE
  std::uint64_t ru_switches = 0;            // a handle's RU filled, the next one opened
  std::uint64_t handle_changes = 0;         // host writes whose handle differs from the last's
  std::uint64_t invalid_placement_ids = 0;  // ids past the last handle: handle 0 (TP4146)
  struct Handle {
    std::uint64_t host_pages = 0;       // pages the host wrote with it
    std::uint64_t blocks_opened = 0;    // its host blocks (RU slices) opened
    std::uint64_t cleaning_blocks = 0;  // its own cleaning blocks (persistently isolated)
    std::uint64_t pages_moved = 0;      // its valid pages cleaning moved
    std::uint64_t reclaim_units = 0;    // RUs its host writes used (blocks over a group's planes)
    bool operator==(const Handle&) const = default;
  };
  std::vector<Handle> handles;
  std::uint64_t shared_cleaning_blocks = 0;  // initially isolated: mixed destinations
  bool operator==(const FdpStats&) const = default;
};

const char* placement_mode_name(PlacementMode mode);
bool parse_placement_mode(std::string_view name, PlacementMode& out);
const char* isolation_name(Isolation isolation);
bool parse_isolation(std::string_view name, Isolation& out);

}  // namespace ssdlab::ftl
