// Host-guided data placement in the page-mapped FTL and DFTL (ftl.placement;
// fdp_config.h, docs/fdp.md): NVMe Flexible Data Placement (TP4146) and
// multi-stream writes as one mechanism.
//
// Model (TP4146 terms): a reclaim group is an allocation pool (ftl.allocation_pool); a
// reclaim unit (RU) is one block on each plane of its group (a superblock
// slice), its blocks opened as the pool's planes take the handle's pages in
// turn; a reclaim unit handle (RUH) is an active block slot per plane
// (Placement's handle_host_kind()). A write's placement identifier picks the
// handle (0, or one past the last, TP4146's invalid identifier: handle 0);
// without one, a `[[placement]]` range may name it. Cleaning keeps what the
// handle type promises: a persistently isolated handle's valid pages move
// into RUs of that handle only (handle_cleaning_kind()); an initially
// isolated handle's move into the pool's shared cleaning blocks, mixed with
// the other handles'. Streams are persistently isolated handles.
//
// Each block's handle is flash state (NandArray::placement_tag(), in every
// page's OOB area), so that a mount after a power cut gives each partly
// written block back to its handle. The counters here are the part's
// checkpoint section "FDPS".
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "common/state_io.h"
#include "common/units.h"
#include "flash/geometry.h"
#include "flash/nand_array.h"
#include "ftl/fdp_config.h"
#include "ftl/page_mapped/page_mapped_placement.h"
#include "ftl/placement_tag.h"

namespace ssdlab::ftl::page_mapped {

class FdpPlacement {
 public:
  // Off unless `config.on()`; then it enables `nand`'s placement tags (and
  // its pages' with `slc_cache`) and `placement`'s handle slots.
  FdpPlacement(const PlacementConfig& config, std::uint32_t logical_page_size,
               flash::NandArray& nand, Placement& placement, bool slc_cache);

  bool on() const { return config_.on(); }
  // Active blocks per plane beyond the plain FTL's host and cleaning block.
  std::uint32_t extra_active_per_plane() const;

  // The slot a host write to logical page `first` with placement identifier
  // `id` takes (counts a handle change); it is the current handle until the next.
  WriteKind host_kind(std::uint8_t id, std::uint32_t first);
  // The handle a host write with identifier `id` from logical page `first`
  // goes to (what host_kind() picks, counting nothing).
  std::uint32_t handle_of(std::uint8_t id, std::uint32_t first) const;
  // The logical pages from `first` on, at most `count`, that a write with
  // identifier `id` puts on one handle: a write without an identifier ends
  // its handle where a `[[placement]]` range starts or ends.
  std::uint32_t pages_on_one_handle(std::uint8_t id, std::uint32_t first,
                                    std::uint32_t count) const;
  // The current handle's host page(s) went to `first`: tags the block it
  // opened, if it did; in an SLC cache block, tags the pages.
  void host_page(flash::Ppn first, std::uint32_t pages, const flash::FastGeometry& geometry);
  // Where cleaning moves the valid page `from` of `victim`; folding moves a
  // page of an SLC cache block into its own handle's reclaim unit (its host
  // blocks), as the handle's host writes past the cache go.
  WriteKind cleaning_kind(flash::BlockId victim, flash::Ppn from) const {
    if (nand_.is_slc(victim)) return handle_host_kind(handle_of_page(from));
    const std::uint8_t tag = nand_.placement_tag(victim);
    return config_.persistent() && tag != 0 ? handle_cleaning_kind(tag_handle(tag))
                                            : WriteKind::kCleaning;
  }
  // Cleaning (folding) moved `pages` from `from` of `victim` to `target`:
  // tags the block it opened.
  void moved(flash::BlockId victim, flash::Ppn from, flash::Ppn target, std::uint32_t pages,
             const flash::FastGeometry& geometry);
  // Recovery: the slot a partly written block found at mount goes back to.
  WriteKind slot_of(flash::BlockId block) const;

  // TP4146's Reclaim Unit Handle Update for identifier `id` (counted): the
  // slot of the handle whose reclaim units the FTL closes, or nothing for an
  // invalid identifier (TP4146's Invalid Placement Identifier event).
  std::optional<WriteKind> update(std::uint8_t id);
  // An update closed a reclaim unit with `bytes` of its media writes left
  // (TP4146's Reclaim Unit Not Fully Written event).
  void not_fully_written(std::uint64_t bytes) {
    ++not_fully_written_;
    stats_.ru_unwritten_bytes += bytes;
  }
  // Read reclaim rewrote `pages` of a block elsewhere (TP4146's Media
  // Reallocated event); nothing with placement off.
  void reallocated(std::uint64_t pages) {
    if (!on()) return;
    ++reallocated_;
    stats_.reallocated_pages += pages;
  }

  // The reclaim unit time limit (ftl.fdp_ru_time_limit; TP4146's ERUTL):
  // whether there is one; the time of the writes that follow (a time before
  // the last, a new run's, restarts every open unit's clock there); whether
  // the host block `block` has been open longer than the limit; and an
  // expired unit the FTL closed (events 0x01 and 0x81).
  bool time_limited() const { return !opened_at_.empty(); }
  std::uint32_t handles() const { return config_.handles; }
  void set_time(TimeNs now);
  bool expired(flash::BlockId block) const { return now_ - opened_at_[block] > time_limit_ns_; }
  void time_limit_exceeded() { ++time_limit_exceeded_; }

  // The report (summary.json "fdp"): the counters, the log pages' bytes from
  // the FTL's counters and geometry, and each handle's status in each
  // reclaim group: `available(handle, group)`, its reclaim unit's media
  // writes left (bytes).
  template <class Available>
  records::FdpCounters stats(const FtlStats& counters, const flash::Geometry& geometry,
                             std::uint32_t groups, std::uint32_t planes_per_group,
                             Available available) const {
    records::FdpCounters report = stats(counters, geometry, groups, planes_per_group);
    for (std::uint32_t h = 0; h < config_.handles; ++h)
      for (std::uint32_t g = 0; g < groups; ++g)
        report.handle_status.push_back({h, g, available(handle_host_kind(h), g)});
    return report;
  }

  void save_state(StateWriter& out) const;
  void load_state(StateReader& in);

 private:
  records::FdpCounters stats(const FtlStats& counters, const flash::Geometry& geometry,
                             std::uint32_t groups, std::uint32_t planes_per_group) const;
  // The handle of a page in an SLC cache block (handle 0 if untagged).
  std::uint32_t handle_of_page(flash::Ppn ppn) const {
    const std::uint8_t tag = nand_.page_tag(ppn);
    return tag != 0 ? tag_handle(tag) : 0;
  }
  // `block` was opened for `handle`'s host writes (or its folding): tags it.
  void opened(flash::BlockId block, std::uint32_t handle);

  PlacementConfig config_;
  std::uint64_t logical_page_size_;
  flash::NandArray& nand_;
  records::FdpCounters stats_;  // its events and handles, counted per write
  std::uint32_t current_ = 0;  // the handle of the host write in progress
  std::uint32_t last_ = 0;     // the handle of the previous host write
  bool written_ = false;       // a host write has happened (handle changes)
  std::uint64_t not_fully_written_ = 0;  // TP4146 event 0x00
  std::uint64_t reallocated_ = 0;        // TP4146 event 0x80
  // The time limit: per block, when its handle opened it (empty: no limit).
  std::vector<TimeNs> opened_at_;
  TimeNs time_limit_ns_ = 0;
  TimeNs now_ = 0;
  std::uint64_t time_limit_exceeded_ = 0;  // TP4146 events 0x01 and 0x81
};

}  // namespace ssdlab::ftl::page_mapped
