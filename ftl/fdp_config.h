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
  // What cleaning reclaims (ftl.fdp_reclaim): the victim policy's block, or
  // whole reclaim units (page_mapped_reclaim_units.h).
  bool reclaim_units = false;
  // TP4146's Estimated Reclaim Unit Time Limit (ERUTL, seconds; the FDP
  // configurations log page; ftl.fdp_ru_time_limit): a reclaim unit a handle
  // keeps open longer is closed by the controller at the next write, and the
  // handle moves on to a new one (events 0x01 and 0x81). 0, the default: none.
  std::uint32_t ru_time_limit_s = 0;
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

const char* placement_mode_name(PlacementMode mode);
bool parse_placement_mode(std::string_view name, PlacementMode& out);
const char* isolation_name(Isolation isolation);
bool parse_isolation(std::string_view name, Isolation& out);

}  // namespace ssdlab::ftl
