// Reclaim units as the unit of cleaning (page_mapped_reclaim_units.h):
// membership as slots open blocks, and the checkpoint.
#include "ftl/page_mapped/page_mapped_reclaim_units.h"

#include <algorithm>

#include "common/error.h"

namespace ssdlab::ftl::page_mapped {

ReclaimUnits::ReclaimUnits(bool on, const flash::FastGeometry& geometry, const PoolLayout& layout,
                           std::size_t slots)
    : on_(on), geometry_(geometry), layout_(layout) {
  if (!on_) return;
  unit_of_.assign(geometry_.blocks(), kNone);
  current_.assign(slots * layout_.pools(), kNone);
  live_.resize(layout_.pools());
  pending_.resize(layout_.pools());
}

std::uint32_t ReclaimUnits::make_unit(std::uint32_t pool) {
  std::uint32_t id;
  if (!free_units_.empty()) {
    id = free_units_.back();
    free_units_.pop_back();
    units_[id] = Unit{};
  } else {
    id = static_cast<std::uint32_t>(units_.size());
    units_.emplace_back();
  }
  units_[id].pool = pool;
  live_[pool].push_back(id);
  return id;
}

void ReclaimUnits::release_if_empty(std::uint32_t id) {
  Unit& unit = units_[id];
  if (!unit.members.empty() || unit.current > 0) return;
  std::vector<std::uint32_t>& live = live_[unit.pool];
  live.erase(std::find(live.begin(), live.end(), id));
  free_units_.push_back(id);
}

void ReclaimUnits::join(std::uint32_t id, flash::BlockId block, std::uint32_t plane) {
  units_[id].planes.push_back(plane);
  units_[id].members.push_back(block);
  unit_of_[block] = id;
}

void ReclaimUnits::opened(flash::BlockId block, std::uint32_t plane, std::size_t slot) {
  if (!on_) return;
  const std::uint32_t pool = layout_.pool_of_plane(plane);
  std::uint32_t& current = current_[slot * layout_.pools() + pool];
  if (current == kNone || std::find(units_[current].planes.begin(), units_[current].planes.end(),
                                    plane) != units_[current].planes.end()) {
    // The slot's next unit: this block is its first.
    const std::uint32_t next = make_unit(pool);
    if (current != kNone) {
      const std::uint32_t previous = current;
      --units_[previous].current;
      current = next;
      release_if_empty(previous);
    } else {
      current = next;
    }
    ++units_[next].current;
  }
  join(current, block, plane);
}

void ReclaimUnits::alone(flash::BlockId block) {
  if (!on_) return;
  const std::uint32_t plane = geometry_.plane_of_block(block);
  join(make_unit(layout_.pool_of_plane(plane)), block, plane);
}

void ReclaimUnits::erased(flash::BlockId block) {
  if (!on_ || unit_of_[block] == kNone) return;
  const std::uint32_t id = unit_of_[block];
  unit_of_[block] = kNone;
  std::vector<flash::BlockId>& members = units_[id].members;
  members.erase(std::find(members.begin(), members.end(), block));
  release_if_empty(id);
}

void ReclaimUnits::clear() {
  if (!on_) return;
  units_.clear();
  free_units_.clear();
  std::fill(unit_of_.begin(), unit_of_.end(), kNone);
  std::fill(current_.begin(), current_.end(), kNone);
  for (auto& live : live_) live.clear();
  for (auto& pending : pending_) pending.clear();
}

namespace {

constexpr std::uint32_t kUnitsStateVersion = 1;

// A list of any length: its count, then its items.
template <class List>
void save_list(StateWriter& out, const List& items) {
  out.u64(items.size());
  for (const std::uint32_t item : items) out.u32(item);
}
template <class List>
void load_list(StateReader& in, List& items, std::uint64_t max, std::uint64_t bound,
               const char* what) {
  const std::uint64_t count = in.count(max, what);
  items.clear();
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint32_t item = in.u32();
    if (item >= bound) throw make_error("corrupt: {}: {} is out of range", what, item);
    items.push_back(item);
  }
}

}  // namespace

void ReclaimUnits::save_state(StateWriter& out) const {
  if (!on_) return;
  out.section("RUNT", kUnitsStateVersion);
  out.u64(cleaned_);
  out.u64(units_.size());
  for (const Unit& unit : units_) {
    out.u32(unit.pool);
    out.u32(unit.current);
    out.u64(unit.sealed_at);
    save_list(out, unit.planes);
    save_list(out, unit.members);
  }
  save_list(out, free_units_);
  save_list(out, current_);
  for (const auto& live : live_) save_list(out, live);
  for (const auto& pending : pending_) save_list(out, pending);
}

void ReclaimUnits::load_state(StateReader& in) {
  if (!on_) return;
  clear();
  in.section("RUNT", kUnitsStateVersion);
  cleaned_ = in.u64();
  const std::uint64_t planes = geometry_.planes(), blocks = geometry_.blocks();
  units_.resize(in.count(blocks + 1, "the reclaim units"));
  const std::uint64_t units = units_.size();
  for (std::uint32_t id = 0; id < units; ++id) {
    Unit& unit = units_[id];
    unit.pool = in.u32();
    unit.current = in.u32();
    unit.sealed_at = in.u64();
    load_list(in, unit.planes, planes, planes, "a reclaim unit's planes");
    load_list(in, unit.members, planes, blocks, "a reclaim unit's blocks");
    if (unit.pool >= layout_.pools()) throw make_error("corrupt: reclaim unit pool {}", unit.pool);
    for (const flash::BlockId block : unit.members) unit_of_[block] = id;
  }
  load_list(in, free_units_, units, units, "the released reclaim units");
  std::vector<std::uint32_t> current;
  load_list(in, current, current_.size(), std::uint64_t{kNone} + 1, "the slots' reclaim units");
  if (current.size() != current_.size())
    throw make_error("corrupt: the slots' reclaim units do not match the config");
  current_ = current;
  for (auto& live : live_) load_list(in, live, units, units, "a pool's reclaim units");
  for (auto& pending : pending_) load_list(in, pending, planes, blocks, "a pool's pending blocks");
  const auto bad = [&](std::uint32_t id) { return id != kNone && id >= units; };
  if (std::any_of(current_.begin(), current_.end(), bad))
    throw make_error("corrupt: a slot's reclaim unit is past the units");
}

}  // namespace ssdlab::ftl::page_mapped
