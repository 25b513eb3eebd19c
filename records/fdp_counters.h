// Host-guided placement at the end of a run (ftl.placement; docs/fdp.md):
// summary.json's "fdp" block, declared once. TP4146's FDP statistics log
// page (22h: bytes the host wrote, the media wrote and erased), events
// (23h) and configuration (20h), each handle's reclaim-unit use and its
// status (I/O Management Receive). The placement part counts the
// events and the handles' pages per write (ftl/page_mapped/page_mapped_fdp.cpp) and
// fills in the rest when asked (ftl::Ftl::part_records()); the summary writes
// and reads it through the field lists below. Bytes are flash page bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "records/field_list.h"

namespace ssdlab::records {

struct FdpCounters {
  std::string mode;       // ftl::placement_mode_name: "fdp" or "streams"
  std::string isolation;  // "initially" or "persistently"
  std::string reclaim;    // what cleaning reclaims: "block" or "unit" (ftl.fdp_reclaim)
  std::uint64_t host_bytes_written = 0;     // HBMW
  std::uint64_t media_bytes_written = 0;    // MBMW: host and cleaning programs
  std::uint64_t media_bytes_erased = 0;     // MBE
  // Counters, not TP4146 events: a handle's RU filled and the next one
  // opened; host writes whose handle differs from the previous write's.
  std::uint64_t ru_switches = 0;
  std::uint64_t handle_changes = 0;
  std::uint64_t invalid_placement_ids = 0;  // ids past the last handle: handle 0 (TP4146)
  std::uint64_t shared_cleaning_blocks = 0;  // initially isolated: mixed destinations
  std::uint64_t reclaim_units_cleaned = 0;   // units cleaning chose (fdp_reclaim = "unit")
  // The FDP configuration log page (20h): reclaim groups (NRG) and the
  // reclaim unit nominal size (RUNS, bytes).
  std::uint64_t reclaim_groups = 0;
  std::uint64_t reclaim_unit_nominal_size = 0;
  std::uint64_t estimated_ru_time_limit_s = 0;  // ERUTL (ftl.fdp_ru_time_limit); 0: none
  // I/O Management Send: Reclaim Unit Handle Updates served, and the media
  // writes (bytes) they left unused in the reclaim units they closed.
  std::uint64_t ruh_updates = 0;
  std::uint64_t ru_unwritten_bytes = 0;
  // Read reclaim's rewrites ([errors]): the pages moved (the Media
  // Reallocated events count the blocks).
  std::uint64_t reallocated_pages = 0;
  // The FDP events log page (23h): each event type the model raises, by
  // its TP4146 code, with how often it occurred.
  struct Event {
    std::uint64_t type = 0;  // TP4146's event type (0x00 to 0x81)
    std::string name;
    std::uint64_t count = 0;
    bool operator==(const Event&) const = default;
  };
  std::vector<Event> events;
  struct Handle {
    std::uint64_t handle = 0;           // its number, 0 first (its place in `handles`)
    std::uint64_t host_pages = 0;       // pages the host wrote with it
    std::uint64_t blocks_opened = 0;    // its host blocks (RU slices) opened
    std::uint64_t reclaim_units = 0;    // RUs its host writes used (blocks over a group's planes)
    std::uint64_t cleaning_blocks = 0;  // its own cleaning blocks (persistently isolated)
    std::uint64_t pages_moved = 0;      // its valid pages cleaning moved
    std::uint64_t pages_folded = 0;     // its pages folding moved out of the SLC cache
    bool operator==(const Handle&) const = default;
  };
  std::vector<Handle> handles;
  // I/O Management Receive's Reclaim Unit Handle Status: per placement
  // identifier (handle) and reclaim group, the media writes (bytes) left in
  // the reclaim unit the handle references (RUAMW).
  struct HandleStatus {
    std::uint64_t placement_id = 0;
    std::uint64_t reclaim_group = 0;
    std::uint64_t available_media_writes = 0;
    bool operator==(const HandleStatus&) const = default;
  };
  std::vector<HandleStatus> handle_status;

  // Media over host bytes written; 0 without host writes.
  double write_amplification() const {
    return host_bytes_written ? static_cast<double>(media_bytes_written) /
                                    static_cast<double>(host_bytes_written)
                              : 0.0;
  }
  bool operator==(const FdpCounters&) const = default;
};

template <typename V, RecordOf<FdpCounters::Handle> R>
void fields(V& v, R& h) {
  v("handle", h.handle);
  v("host_pages", h.host_pages);
  v("blocks_opened", h.blocks_opened);
  v("reclaim_units", h.reclaim_units);
  v("cleaning_blocks", h.cleaning_blocks);
  v("pages_moved", h.pages_moved);
  v("pages_folded", h.pages_folded);
}

template <typename V, RecordOf<FdpCounters::Event> R>
void fields(V& v, R& e) {
  v("type", e.type);
  v("name", e.name);
  v("count", e.count);
}

template <typename V, RecordOf<FdpCounters::HandleStatus> R>
void fields(V& v, R& s) {
  v("placement_id", s.placement_id);
  v("reclaim_group", s.reclaim_group);
  v("available_media_writes", s.available_media_writes);
}

template <typename V, RecordOf<FdpCounters> R>
void fields(V& v, R& f) {
  v("mode", f.mode);
  v("isolation", f.isolation);
  v("reclaim", f.reclaim);
  v("host_bytes_written", f.host_bytes_written);
  v("media_bytes_written", f.media_bytes_written);
  v("media_bytes_erased", f.media_bytes_erased);
  v.derived("write_amplification", f.write_amplification());
  v("ru_switches", f.ru_switches);
  v("handle_changes", f.handle_changes);
  v("invalid_placement_ids", f.invalid_placement_ids);
  v("shared_cleaning_blocks", f.shared_cleaning_blocks);
  v("reclaim_units_cleaned", f.reclaim_units_cleaned);
  v("reclaim_groups", f.reclaim_groups);
  v("reclaim_unit_nominal_size", f.reclaim_unit_nominal_size);
  v("estimated_ru_time_limit_s", f.estimated_ru_time_limit_s);
  v("ruh_updates", f.ruh_updates);
  v("ru_unwritten_bytes", f.ru_unwritten_bytes);
  v("reallocated_pages", f.reallocated_pages);
  v("events", f.events);
  v("handles", f.handles);
  v("handle_status", f.handle_status);
}

}  // namespace ssdlab::records
