// Host-guided placement of the page-mapped FTL (page_mapped_fdp.h): handles
// of host writes, cleaning's destinations, block tags and the FDP counters.
#include "ftl/page_mapped/page_mapped_fdp.h"

#include <algorithm>

#include "common/error.h"

namespace ssdlab::ftl::page_mapped {

FdpPlacement::FdpPlacement(const PlacementConfig& config, std::uint32_t logical_page_size,
                           flash::NandArray& nand, Placement& placement, bool slc_cache)
    : config_(config), logical_page_size_(logical_page_size), nand_(nand) {
  if (!on()) return;
  nand_.enable_placement_tags();
  if (slc_cache) nand_.enable_page_tags();
  placement.enable_handles();
  stats_.mode = placement_mode_name(config_.mode);
  stats_.isolation = config_.persistent() ? "persistently" : "initially";
  stats_.handles.resize(config_.handles);
  for (std::uint32_t h = 0; h < config_.handles; ++h) stats_.handles[h].handle = h;
  stats_.estimated_ru_time_limit_s = config_.ru_time_limit_s;
  if (config_.ru_time_limit_s != 0) {
    opened_at_.assign(nand_.geometry().blocks(), 0);
    time_limit_ns_ = TimeNs{config_.ru_time_limit_s} * 1'000'000'000;
  }
}

void FdpPlacement::set_time(TimeNs now) {
  if (now < now_) std::fill(opened_at_.begin(), opened_at_.end(), now);
  now_ = now;
}

std::uint32_t FdpPlacement::extra_active_per_plane() const {
  if (!on()) return 0;
  // Every handle's host slot replaces the plain host block; persistently
  // isolated handles' cleaning slots replace the shared cleaning block.
  return (config_.handles - 1) * (config_.persistent() ? 2 : 1);
}

std::uint32_t FdpPlacement::handle_of(std::uint8_t id, std::uint32_t first) const {
  if (id >= config_.handles) return 0;  // TP4146: an invalid identifier; handle 0 here
  if (id == 0 && !config_.ranges.empty()) {
    const std::uint64_t offset = std::uint64_t{first} * logical_page_size_;
    for (const PlacementConfig::Range& range : config_.ranges)
      if (offset >= range.offset && offset - range.offset < range.size) return range.handle;
  }
  return id;
}

std::uint32_t FdpPlacement::pages_on_one_handle(std::uint8_t id, std::uint32_t first,
                                                std::uint32_t count) const {
  if (id != 0 || config_.ranges.empty()) return count;
  const std::uint64_t start = std::uint64_t{first} * logical_page_size_;
  std::uint64_t end = start + std::uint64_t{count} * logical_page_size_;
  for (const PlacementConfig::Range& range : config_.ranges)
    for (const std::uint64_t edge : {range.offset, range.offset + range.size})
      if (edge > start && edge < end) end = edge;
  // (An edge inside a logical page: the page goes with the pages before it,
  // as host_kind() judges a run by its first page's first byte.)
  return static_cast<std::uint32_t>(
      std::max<std::uint64_t>(1, (end - start + logical_page_size_ - 1) / logical_page_size_));
}

WriteKind FdpPlacement::host_kind(std::uint8_t id, std::uint32_t first) {
  if (id >= config_.handles) ++stats_.invalid_placement_ids;
  const std::uint32_t handle = handle_of(id, first);
  if (written_ && handle != last_) ++stats_.handle_changes;
  written_ = true;
  last_ = current_ = handle;
  return handle_host_kind(handle);
}

void FdpPlacement::host_page(flash::Ppn first, std::uint32_t pages,
                             const flash::FastGeometry& geometry) {
  stats_.handles[current_].host_pages += pages;
  const flash::BlockId block = geometry.block_of(first);
  if (nand_.is_slc(block)) {
    for (std::uint32_t i = 0; i < pages; ++i) nand_.set_page_tag(first + i, host_tag(current_));
    return;
  }
  if (geometry.page_in_block(first) == 0) opened(block, current_);
}

void FdpPlacement::opened(flash::BlockId block, std::uint32_t handle) {
  if (time_limited()) opened_at_[block] = now_;
  nand_.set_placement_tag(block, host_tag(handle));
  ++stats_.handles[handle].blocks_opened;
}

void FdpPlacement::moved(flash::BlockId victim, flash::Ppn from, flash::Ppn target,
                         std::uint32_t pages, const flash::FastGeometry& geometry) {
  if (nand_.is_slc(victim)) {
    // Folding: into the page's own handle's host blocks.
    const std::uint32_t handle = handle_of_page(from);
    stats_.handles[handle].pages_folded += pages;
    if (geometry.page_in_block(target) == 0) opened(geometry.block_of(target), handle);
    return;
  }
  const std::uint8_t tag = nand_.placement_tag(victim);
  if (tag != 0) stats_.handles[tag_handle(tag)].pages_moved += pages;
  if (geometry.page_in_block(target) != 0) return;
  if (config_.persistent() && tag != 0) {
    nand_.set_placement_tag(geometry.block_of(target),
                            static_cast<std::uint8_t>(tag | kCleaningTag));
    ++stats_.handles[tag_handle(tag)].cleaning_blocks;
  } else {
    ++stats_.shared_cleaning_blocks;  // tag 0: data of several handles may meet here
  }
}

WriteKind FdpPlacement::slot_of(flash::BlockId block) const {
  const std::uint8_t tag = nand_.placement_tag(block);
  if (tag == 0) return WriteKind::kCleaning;
  return (tag & kCleaningTag) ? handle_cleaning_kind(tag_handle(tag))
                              : handle_host_kind(tag_handle(tag));
}

std::optional<WriteKind> FdpPlacement::update(std::uint8_t id) {
  ++stats_.ruh_updates;
  if (id >= config_.handles) {
    ++stats_.invalid_placement_ids;
    return std::nullopt;
  }
  return handle_host_kind(id);
}

namespace {

// TP4146's FDP event types (the FDP Events log page, 23h), as NVMe 2.1
// numbers them: host events from 0x00, controller events from 0x80. The
// model raises these three, and with a reclaim unit time limit 0x01 and
// 0x81; docs/fdp.md says why not 0x02.
constexpr std::uint64_t kRuNotFullyWritten = 0x00;
constexpr std::uint64_t kRuTimeLimitExceeded = 0x01;
constexpr std::uint64_t kInvalidPlacementIdentifier = 0x03;
constexpr std::uint64_t kMediaReallocated = 0x80;
constexpr std::uint64_t kImplicitlyModifiedRuh = 0x81;

}  // namespace

records::FdpCounters FdpPlacement::stats(const FtlStats& counters, const flash::Geometry& geometry,
                                         std::uint32_t groups,
                                         std::uint32_t planes_per_group) const {
  records::FdpCounters report = stats_;
  report.reclaim_groups = groups;
  report.reclaim_unit_nominal_size =
      std::uint64_t{planes_per_group} * geometry.pages_per_block * geometry.page_size;
  report.events = {
      {kRuNotFullyWritten, "Reclaim Unit Not Fully Written", not_fully_written_},
      {kInvalidPlacementIdentifier, "Invalid Placement Identifier", stats_.invalid_placement_ids},
      {kMediaReallocated, "Media Reallocated", reallocated_},
  };
  if (time_limited()) {  // (listed only with a limit: summaries without one stay as they were)
    report.events.insert(
        report.events.begin() + 1,
        {kRuTimeLimitExceeded, "Reclaim Unit Time Limit Exceeded", time_limit_exceeded_});
    report.events.push_back(
        {kImplicitlyModifiedRuh, "Implicitly Modified Reclaim Unit Handle", time_limit_exceeded_});
  }
  const std::uint64_t page = geometry.page_size;
  report.host_bytes_written = counters.host_pages_written * page;
  report.media_bytes_written = counters.flash_pages_written * page;
  report.media_bytes_erased = counters.erases * geometry.pages_per_block * page;
  // An RU is a block on each plane of its group: each RU a handle opened
  // past its first is a switch to a new RU.
  for (records::FdpCounters::Handle& handle : report.handles) {
    const std::uint64_t units = (handle.blocks_opened + planes_per_group - 1) / planes_per_group;
    handle.reclaim_units = units;
    report.ru_switches += units > 0 ? units - 1 : 0;
  }
  return report;
}

namespace {
// 2: RUH Updates; 3: folding; 4: reallocations; 5: the reclaim unit time limit.
constexpr std::uint32_t kFdpStateVersion = 5;
}  // namespace

void FdpPlacement::save_state(StateWriter& out) const {
  out.section("FDPS", kFdpStateVersion);
  out.u64(stats_.handle_changes);
  out.u64(stats_.invalid_placement_ids);
  out.u64(stats_.shared_cleaning_blocks);
  out.u64(stats_.ruh_updates);
  out.u64(stats_.ru_unwritten_bytes);
  out.u64(not_fully_written_);
  out.u64(reallocated_);
  out.u64(stats_.reallocated_pages);
  out.u64(stats_.handles.size());
  for (const records::FdpCounters::Handle& h : stats_.handles) {
    out.u64(h.host_pages);
    out.u64(h.blocks_opened);
    out.u64(h.cleaning_blocks);
    out.u64(h.pages_moved);
    out.u64(h.pages_folded);
  }
  out.u32(last_);
  out.u32(written_ ? 1 : 0);
  out.u64(time_limit_exceeded_);
  out.vector(opened_at_);
  out.i64(now_);
}

void FdpPlacement::load_state(StateReader& in) {
  in.section("FDPS", kFdpStateVersion);
  stats_.handle_changes = in.u64();
  stats_.invalid_placement_ids = in.u64();
  stats_.shared_cleaning_blocks = in.u64();
  stats_.ruh_updates = in.u64();
  stats_.ru_unwritten_bytes = in.u64();
  not_fully_written_ = in.u64();
  reallocated_ = in.u64();
  stats_.reallocated_pages = in.u64();
  if (in.count(stats_.handles.size(), "the placement handles") != stats_.handles.size())
    throw make_error("the checkpoint's placement handles do not match the config's {}",
                     stats_.handles.size());
  for (records::FdpCounters::Handle& h : stats_.handles) {
    h.host_pages = in.u64();
    h.blocks_opened = in.u64();
    h.cleaning_blocks = in.u64();
    h.pages_moved = in.u64();
    h.pages_folded = in.u64();
  }
  last_ = in.u32();
  written_ = in.u32() != 0;
  time_limit_exceeded_ = in.u64();
  in.vector(opened_at_, opened_at_.size(), "the reclaim unit time limit's opening times");
  now_ = in.i64();
  if (last_ >= stats_.handles.size()) throw make_error("corrupt: placement handle {}", last_);
}

}  // namespace ssdlab::ftl::page_mapped
