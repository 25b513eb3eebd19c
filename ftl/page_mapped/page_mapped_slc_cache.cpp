// The SLC cache's room, blocks, counters and checkpoint (page_mapped_slc_cache.h).
#include "ftl/page_mapped/page_mapped_slc_cache.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "common/error.h"
#include "ftl/register.h"

namespace ssdlab::ftl::page_mapped {

using flash::BlockId;

SlcCache::SlcCache(const flash::FastGeometry& geometry, const PoolLayout& layout,
                   flash::NandArray& nand, const FtlConfig& config, std::uint32_t pages_per_lpn,
                   std::uint32_t floor_blocks)
    : geometry_(geometry),
      layout_(layout),
      nand_(nand),
      config_(config.slc_cache),
      floor_blocks_(floor_blocks),
      pages_per_lpn_(pages_per_lpn),
      pools_(layout.pools()),
      sealed_(layout.pools()) {
  if (!on()) return;
  const std::uint32_t bits = config_.bits_per_cell;
  if (bits < 2)
    throw make_error(
        "slc_cache.mode = \"{}\" needs cells of several bits (geometry.cell_type mlc, tlc or qlc)",
        slc_cache_mode_name(config_.mode));
  if (config.keys.get<PageMappedKeys>().summary_page)
    throw make_error("slc_cache.mode = \"{}\" and ftl.summary_page cannot be combined",
                     slc_cache_mode_name(config_.mode));
  if (geometry.pages_per_block % bits != 0 || (geometry.pages_per_block / bits) % pages_per_lpn)
    throw make_error(
        "slc_cache: an SLC-mode block holds {} of {} pages, not a whole number of {}-page "
        "logical pages",
        geometry.pages_per_block / bits, geometry.pages_per_block, pages_per_lpn);
  if (config_.fold_order == SlcFoldOrder::kRegistered &&
      !registered_slc_fold_key(config_.fold_registered))
    throw make_error("slc_cache.fold_order: no fold order is registered {}-th (known: {})",
                     config_.fold_registered + 1, slc_fold_order_names());
  nand.enable_slc_mode(bits);
  const double static_gib = config_.mode == SlcCacheMode::kStatic ? config_.size_gib
                                                                  : config_.static_gib;
  static_blocks_ = blocks_for(static_gib);
  most_blocks_ = std::max(static_blocks_, blocks_for(config_.size_gib));
  if (most_blocks_ == 0)
    throw make_error("slc_cache.size_gib = {} holds no block (one SLC block holds {} bytes)",
                     config_.size_gib,
                     std::uint64_t{nand.slc_pages_per_block()} * geometry.page_size);
  const std::uint32_t pool_blocks = geometry.blocks() / layout.pools();
  if (static_blocks_ + floor_blocks_ >= pool_blocks)
    throw make_error(
        "slc_cache: a static part of {} blocks per allocation pool leaves no room (a pool has {} "
        "blocks, {} of them the cleaning reserve)",
        static_blocks_, pool_blocks, floor_blocks_);
}

std::uint32_t SlcCache::blocks_for(double gib) const {
  if (gib <= 0) return 0;
  const double block_bytes =
      static_cast<double>(nand_.slc_pages_per_block()) * geometry_.page_size * layout_.pools();
  return static_cast<std::uint32_t>(std::ceil(gib * 1073741824.0 / block_bytes));
}

std::uint32_t SlcCache::limit_blocks() const {
  if (!counts_mapped() || logical_pages_ == 0) return most_blocks_;
  // The fill of the native cells: the logical pages mapped, less those the
  // cache holds (its blocks counted full, as the free-space rule counts
  // them). Data written into an empty drive's cache leaves its native cells
  // empty, so the cliff of an empty drive is the table's size at 0%; once
  // folded, the data counts.
  std::uint64_t cached = 0;
  for (const Pool& p : pools_) cached += p.in_use;
  cached = cached * nand_.slc_pages_per_block() / pages_per_lpn_;
  const double fill = static_cast<double>(mapped_ > cached ? mapped_ - cached : 0) /
                      static_cast<double>(logical_pages_);
  return std::clamp(blocks_for(config_.size_at_fill(fill)), static_blocks_, most_blocks_);
}

std::uint32_t SlcCache::open_budget(std::uint32_t pool, std::uint32_t free_blocks) const {
  const std::uint32_t in_use = pools_[pool].in_use;
  const std::uint32_t limit = limit_blocks();
  if (in_use >= limit) return 0;
  // The static part is the cache's own: those blocks open whatever the free space.
  const std::uint32_t static_left = static_blocks_ - std::min(in_use, static_blocks_);
  if (config_.mode == SlcCacheMode::kStatic) return static_left;
  // The dynamic part: k more blocks while free - k - floor - static_left
  // still holds ceil((dynamic + k) / bits) native blocks for folding.
  const auto bits = static_cast<std::int64_t>(config_.bits_per_cell);
  const std::int64_t dynamic = in_use - std::min(in_use, static_blocks_);
  const std::int64_t spare =
      std::int64_t{free_blocks} - floor_blocks_ - static_left;  // for the dynamic part
  const std::int64_t k = (bits * spare - dynamic - (bits - 1)) / (bits + 1);
  const std::int64_t room = std::int64_t{limit} - in_use - static_left;
  return static_left + static_cast<std::uint32_t>(std::clamp<std::int64_t>(k, 0, room));
}

bool SlcCache::must_shrink(std::uint32_t pool, std::uint32_t free_blocks) const {
  if (config_.mode != SlcCacheMode::kDynamic || sealed_[pool].empty()) return false;
  const std::uint32_t in_use = pools_[pool].in_use;
  if (in_use <= static_blocks_) return false;  // (so the static part is all in use)
  const std::uint32_t dynamic = in_use - static_blocks_;
  const std::uint32_t needed = (dynamic + config_.bits_per_cell - 1) / config_.bits_per_cell;
  return std::int64_t{free_blocks} - floor_blocks_ < std::int64_t{needed};
}

void SlcCache::opened(std::uint32_t pool) {
  Pool& p = pools_[pool];
  ++p.in_use;
  ++p.opened;
  p.peak = std::max(p.peak, p.in_use);
}

std::vector<std::uint64_t> SlcCache::registered_keys(std::uint32_t pool) const {
  const std::deque<BlockId>& sealed = sealed_[pool];
  std::vector<std::uint64_t> keys(sealed.size());
  // (Looked up here, not kept: a member would move the FTL's members after
  // it, on every write's path; a fold decision is rare.)
  const SlcFoldKey key = registered_slc_fold_key(config_.fold_registered);
  SlcFoldCandidate candidate;
  candidate.pages_per_block = geometry_.pages_per_block / config_.bits_per_cell;
  for (std::size_t i = 0; i < sealed.size(); ++i) {
    candidate.block = sealed[i];
    candidate.valid_pages = nand_.valid_pages(sealed[i]);
    candidate.seal_rank = i;
    candidate.erase_count = nand_.erase_count(sealed[i]);
    keys[i] = key(candidate);
  }
  return keys;
}

BlockId SlcCache::take_next(std::uint32_t pool) {
  std::deque<BlockId>& sealed = sealed_[pool];
  auto it = sealed.begin();
  if (config_.fold_order == SlcFoldOrder::kGreedy)
    it = std::min_element(sealed.begin(), sealed.end(),
                          [this](BlockId a, BlockId b) { return emptier(a, b); });
  if (config_.fold_order == SlcFoldOrder::kRegistered) {
    const std::vector<std::uint64_t> keys = registered_keys(pool);
    it += std::min_element(keys.begin(), keys.end()) - keys.begin();
  }
  const BlockId block = *it;
  sealed.erase(it);
  return block;
}

std::vector<BlockId> SlcCache::take_one_per_plane(std::uint32_t pool) {
  std::deque<BlockId>& sealed = sealed_[pool];
  std::vector<std::size_t> order(sealed.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  if (config_.fold_order == SlcFoldOrder::kGreedy)  // (take_next()'s order, ties in seal order)
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return emptier(sealed[a], sealed[b]); });
  if (config_.fold_order == SlcFoldOrder::kRegistered) {
    const std::vector<std::uint64_t> keys = registered_keys(pool);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  }
  std::vector<BlockId> taken;
  std::vector<std::uint32_t> planes;  // of the blocks taken (a pool has few planes)
  std::vector<std::uint8_t> take(sealed.size(), 0);
  for (const std::size_t i : order) {
    const std::uint32_t plane = geometry_.plane_of_block(sealed[i]);
    if (std::find(planes.begin(), planes.end(), plane) != planes.end()) continue;
    planes.push_back(plane);
    taken.push_back(sealed[i]);
    take[i] = 1;
  }
  std::size_t kept = 0;
  for (std::size_t i = 0; i < sealed.size(); ++i)
    if (!take[i]) sealed[kept++] = sealed[i];
  sealed.resize(kept);
  return taken;
}

void SlcCache::folded(std::uint32_t pool, std::uint32_t moved, bool foreground) {
  Pool& p = pools_[pool];
  --p.in_use;
  p.folded_pages += moved;
  ++p.folded_blocks;
  if (foreground) ++p.foreground_folds;
}

void SlcCache::sample(std::uint64_t host_pages) {
  if (sample_every_ == 0) return;
  if (host_pages < next_sample_) return;
  std::uint64_t blocks = 0;
  for (const Pool& p : pools_) blocks += p.in_use;
  samples_.push_back({host_pages, blocks});
  next_sample_ = (host_pages / sample_every_ + 1) * sample_every_;
}

records::SlcCacheCounters SlcCache::stats() const {
  records::SlcCacheCounters s;
  s.mode = slc_cache_mode_name(config_.mode);
  for (const Pool& p : pools_) {
    s.host_pages_absorbed += p.absorbed;
    s.host_pages_bypassed += p.bypassed;
    s.pages_folded += p.folded_pages;
    s.blocks_folded += p.folded_blocks;
    s.foreground_folds += p.foreground_folds;
    s.blocks_opened += p.opened;
    s.blocks_in_use += p.in_use;
    s.peak_blocks += p.peak;
  }
  s.capacity_blocks = std::uint64_t{most_blocks_} * pools_.size();
  s.static_blocks = std::uint64_t{static_blocks_} * pools_.size();
  s.pages_per_block = nand_.slc_pages_per_block();
  for (const Sample& sample : samples_) {
    s.size_host_pages.push_back(sample.host_pages);
    s.size_blocks.push_back(sample.blocks);
  }
  return s;
}

void SlcCache::clear() {
  for (Pool& p : pools_) p.in_use = 0;
  for (auto& sealed : sealed_) sealed.clear();
}

void SlcCache::adopt(std::uint32_t pool) { ++pools_[pool].in_use; }

void SlcCache::check(const std::vector<std::uint32_t>& active_slc) const {
  std::vector<std::uint8_t> seen(geometry_.blocks(), 0);
  for (std::uint32_t pool = 0; pool < pools_.size(); ++pool) {
    for (const BlockId block : sealed_[pool]) {
      if (!nand_.is_slc(block) || !nand_.is_full(block) ||
          layout_.pool_of_plane(geometry_.plane_of_block(block)) != pool || seen[block]++)
        throw std::logic_error(fmt::format(
            "SLC cache: sealed block {} of pool {} is not a full SLC block of it, or listed twice",
            block, pool));
    }
    const std::uint64_t counted = sealed_[pool].size() + active_slc[pool];
    if (counted != pools_[pool].in_use)
      throw std::logic_error(fmt::format("SLC cache: pool {} counts {} blocks in use, holds {}",
                                         pool, pools_[pool].in_use, counted));
  }
}

// Version 1: per pool the blocks in use, the counters and the sealed
// blocks in seal order; then the samples of the size over time.
constexpr std::uint32_t kSlcCacheStateVersion = 1;

void SlcCache::save_state(StateWriter& out) const {
  out.section("SLCC", kSlcCacheStateVersion);
  out.u64(pools_.size());
  for (std::size_t pool = 0; pool < pools_.size(); ++pool) {
    const Pool& p = pools_[pool];
    out.u32(p.in_use);
    out.u32(p.peak);
    for (const std::uint64_t counter :
         {p.absorbed, p.bypassed, p.folded_pages, p.folded_blocks, p.foreground_folds, p.opened})
      out.u64(counter);
    out.deque(sealed_[pool]);
  }
  out.u64(samples_.size());
  for (const Sample& sample : samples_) {
    out.u64(sample.host_pages);
    out.u64(sample.blocks);
  }
  out.u64(next_sample_);
}

void SlcCache::load_state(StateReader& in) {
  in.section("SLCC", kSlcCacheStateVersion);
  if (in.count(pools_.size(), "the SLC cache's pools") != pools_.size())
    throw make_error("corrupt: the SLC cache does not have the config's {} pools", pools_.size());
  for (std::size_t pool = 0; pool < pools_.size(); ++pool) {
    Pool& p = pools_[pool];
    p.in_use = in.u32();
    p.peak = in.u32();
    for (std::uint64_t* counter : {&p.absorbed, &p.bypassed, &p.folded_pages, &p.folded_blocks,
                                   &p.foreground_folds, &p.opened})
      *counter = in.u64();
    in.deque(sealed_[pool], geometry_.blocks(), "the sealed SLC blocks");
    for (const BlockId block : sealed_[pool])
      if (block >= geometry_.blocks()) throw make_error("corrupt: SLC cache block {}", block);
    if (p.in_use > most_blocks_ || sealed_[pool].size() > p.in_use)
      throw make_error("corrupt: the SLC cache of pool {} holds {} blocks", pool, p.in_use);
  }
  samples_.resize(in.count(1u << 20, "the SLC cache samples"));
  for (Sample& sample : samples_) {
    sample.host_pages = in.u64();
    sample.blocks = in.u64();
  }
  next_sample_ = in.u64();
}

}  // namespace ssdlab::ftl::page_mapped
