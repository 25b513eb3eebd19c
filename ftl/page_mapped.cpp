// Page-mapped FTL (Agrawal et al. §3.1-3.2): a full map from logical page to
// physical location, static striping of logical pages over allocation pools,
// and inside each pool one host active block and one cleaning active block per
// plane, planes handed out round-robin so that consecutive writes interleave
// over dies and planes.
//
// Cleaning: when a pool's free blocks fall below the low-water mark, the
// sealed block with the fewest valid pages (greedy) is cleaned: its valid pages
// move to the cleaning block of the same plane by copy-back where allowed, by
// an inter-plane move (read, bus, program) otherwise, then it is erased.
//
// A logical page may span several physical pages (logical_page_size a multiple
// of the page size); they are then consecutive pages of one block. Writing part
// of a logical page is a read-modify-write.
//
// Memory: 4 bytes of map per logical page, the NAND array's ~4.3 bytes per
// physical page, and ~22 bytes per block (buckets, free lists).
#include <fmt/format.h>

#include <cmath>
#include <deque>
#include <stdexcept>

#include "common/error.h"
#include "ftl/ftl.h"
#include "ftl/pools.h"
#include "ftl/victim_buckets.h"

namespace ssdlab::ftl {
namespace {

using flash::BlockId;
using flash::Command;
using flash::kNoPage;
using flash::Op;
using flash::Ppn;

constexpr BlockId kNoBlock = ~BlockId{0};

class PageMappedFtl final : public Ftl {
 public:
  explicit PageMappedFtl(const FtlContext& context);

  std::string_view name() const override { return "page-mapped"; }
  std::uint64_t logical_pages() const override { return logical_pages_; }
  void write(const PageRange& range, CommandList& out) override;
  void read(const PageRange& range, CommandList& out) override;
  void trim(const PageRange& range, CommandList& out) override;
  bool is_mapped(Lpn lpn) const override { return map_[lpn] != kNoPage; }
  bool wants_background_cleaning(std::uint32_t pool) const override;
  void clean_in_background(std::uint32_t pool, CommandList& out) override;
  void check_invariants() const override;
  const FtlStats& stats() const override { return stats_; }
  const FtlConfig& config() const override { return config_; }
  const flash::NandArray& nand() const override { return nand_; }

 private:
  struct PlaneState {
    BlockId host_active = kNoBlock;
    BlockId clean_active = kNoBlock;
    // Erased blocks, first in first out: a block erased by cleaning is reused
    // after the older free blocks of its plane.
    std::deque<BlockId> free_blocks;
  };

  std::uint32_t pool_of(Lpn lpn) const { return (lpn / stripe_lpns_) % layout_.pools(); }
  std::uint32_t pool_of_block(BlockId block) const {
    return layout_.pool_of_plane(geometry_.plane_of_block(block));
  }
  // Room for one logical page in `active` or in a free block of `plane`.
  bool has_room(const BlockId& active, std::uint32_t plane) const;
  // First page of room for one logical page in `active`, taking a free block
  // of `plane` when it is full or unset.
  Ppn take_room(BlockId& active, std::uint32_t plane);
  Ppn allocate_host(std::uint32_t pool, CommandList& out);
  Ppn allocate_for_cleaning(std::uint32_t victim_plane);
  void program(Ppn ppn, Lpn lpn);
  void supersede(Ppn ppn);
  void unmap(Lpn lpn);
  void append_reads(Lpn lpn, std::uint8_t stage, CommandList& out);
  void clean_one(std::uint32_t pool, CommandList& out);

  flash::Geometry geometry_;
  FtlConfig config_;
  flash::NandArray nand_;
  PoolLayout layout_;
  VictimBuckets buckets_;
  std::uint32_t pages_per_lpn_;
  std::uint32_t stripe_lpns_;
  std::uint32_t low_water_blocks_;   // per pool
  std::uint32_t high_water_blocks_;  // per pool; 0 = no background cleaning
  std::uint64_t logical_pages_;
  std::vector<Ppn> map_;  // lpn -> first physical page, or kNoPage
  std::vector<PlaneState> planes_;
  std::vector<std::uint32_t> free_blocks_;  // per pool
  std::vector<std::uint32_t> cursors_;      // per pool: next position in its plane order
  FtlStats stats_;
};

PageMappedFtl::PageMappedFtl(const FtlContext& context)
    : geometry_(context.geometry),
      config_(context.config),
      nand_(context.geometry),
      layout_(context.geometry, context.config.pool),
      buckets_(geometry_.blocks(), layout_.pools(), geometry_.pages_per_block),
      pages_per_lpn_(config_.logical_page_size / geometry_.page_size),
      stripe_lpns_(config_.stripe_size / config_.logical_page_size),
      planes_(geometry_.planes()),
      free_blocks_(layout_.pools(), 0),
      cursors_(layout_.pools(), 0) {
  const std::uint32_t pool_blocks = geometry_.blocks() / layout_.pools();
  low_water_blocks_ = std::max<std::uint32_t>(
      2, static_cast<std::uint32_t>(std::ceil(config_.clean_low_water * pool_blocks)));
  high_water_blocks_ =
      config_.clean_high_water > 0
          ? static_cast<std::uint32_t>(std::ceil(config_.clean_high_water * pool_blocks))
          : 0;

  // Exported capacity: the physical pages less over-provisioning, less what
  // cleaning needs to work at all (the low-water reserve plus two partly
  // filled active blocks per plane), in whole stripes across all pools.
  const std::uint64_t stripe_round = std::uint64_t{stripe_lpns_} * layout_.pools();
  const auto usable = static_cast<std::uint64_t>(static_cast<double>(geometry_.pages()) *
                                                 (1.0 - config_.overprovisioning));
  const std::uint64_t reserve_blocks =
      std::uint64_t{layout_.pools()} * (low_water_blocks_ + 2 * layout_.planes_per_pool() + 1);
  const std::uint64_t workable =
      geometry_.blocks() > reserve_blocks
          ? (geometry_.blocks() - reserve_blocks) * geometry_.pages_per_block
          : 0;
  logical_pages_ = std::min(usable, workable) / pages_per_lpn_ / stripe_round * stripe_round;
  if (logical_pages_ == 0)
    throw make_error(
        "the device is too small: after over-provisioning and the cleaning reserve "
        "not one stripe over all {} pools is left",
        layout_.pools());
  if (logical_pages_ >= flash::kNoLpn) throw make_error("the device has too many logical pages");
  map_.assign(logical_pages_, kNoPage);
  stats_.blocks_cleaned_per_pool.assign(layout_.pools(), 0);

  for (std::uint32_t plane = 0; plane < geometry_.planes(); ++plane) {
    for (std::uint32_t i = 0; i < geometry_.blocks_per_plane; ++i)
      planes_[plane].free_blocks.push_back(plane * geometry_.blocks_per_plane + i);
    free_blocks_[layout_.pool_of_plane(plane)] += geometry_.blocks_per_plane;
  }
}

bool PageMappedFtl::has_room(const BlockId& active, std::uint32_t plane) const {
  return (active != kNoBlock && !nand_.is_full(active)) || !planes_[plane].free_blocks.empty();
}

Ppn PageMappedFtl::take_room(BlockId& active, std::uint32_t plane) {
  if (active == kNoBlock || nand_.is_full(active)) {
    PlaneState& state = planes_[plane];
    active = state.free_blocks.front();
    state.free_blocks.pop_front();
    --free_blocks_[layout_.pool_of_plane(plane)];
  }
  return geometry_.first_page(active) + nand_.write_pointer(active);
}

Ppn PageMappedFtl::allocate_host(std::uint32_t pool, CommandList& out) {
  while (free_blocks_[pool] < low_water_blocks_) clean_one(pool, out);  // foreground cleaning
  const auto& order = layout_.planes(pool);
  std::uint32_t& cursor = cursors_[pool];
  // Round-robin over the pool's planes, skipping planes that are full.
  for (std::size_t tried = 0; tried < order.size(); ++tried) {
    const std::uint32_t plane = order[cursor];
    cursor = (cursor + 1) % order.size();
    if (has_room(planes_[plane].host_active, plane))
      return take_room(planes_[plane].host_active, plane);
  }
  throw std::logic_error(fmt::format("pool {} has no room above its cleaning reserve", pool));
}

Ppn PageMappedFtl::allocate_for_cleaning(std::uint32_t victim_plane) {
  // The victim's own plane first, so that copy-back applies (Agrawal §3.2);
  // another plane of the pool only when that plane is out of room.
  if (has_room(planes_[victim_plane].clean_active, victim_plane))
    return take_room(planes_[victim_plane].clean_active, victim_plane);
  for (const std::uint32_t plane : layout_.planes(layout_.pool_of_plane(victim_plane)))
    if (has_room(planes_[plane].clean_active, plane))
      return take_room(planes_[plane].clean_active, plane);
  throw std::logic_error(
      fmt::format("cleaning found no room in the pool of plane {}", victim_plane));
}

void PageMappedFtl::program(Ppn ppn, Lpn lpn) {
  nand_.program(ppn, lpn);
  const BlockId block = geometry_.block_of(ppn);
  if (!nand_.is_full(block)) return;
  // A full block is sealed: it can now be chosen for cleaning, and it is no
  // longer any plane's active block.
  buckets_.insert(block, pool_of_block(block), nand_.valid_pages(block));
  PlaneState& state = planes_[geometry_.plane_of_block(block)];
  if (state.host_active == block) state.host_active = kNoBlock;
  if (state.clean_active == block) state.clean_active = kNoBlock;
}

void PageMappedFtl::supersede(Ppn ppn) {
  nand_.invalidate(ppn);
  const BlockId block = geometry_.block_of(ppn);
  if (buckets_.contains(block)) buckets_.decrement(block);
}

void PageMappedFtl::unmap(Lpn lpn) {
  const Ppn old = map_[lpn];
  if (old == kNoPage) return;
  for (std::uint32_t i = 0; i < pages_per_lpn_; ++i) supersede(old + i);
  map_[lpn] = kNoPage;
}

void PageMappedFtl::clean_one(std::uint32_t pool, CommandList& out) {
  const BlockId victim = buckets_.fewest_valid(pool);
  if (victim == VictimBuckets::kNone || buckets_.valid(victim) == geometry_.pages_per_block)
    throw make_error(
        "allocation pool {} is full of valid data: cleaning cannot free a block "
        "(more over-provisioning is needed)",
        pool);
  buckets_.remove(victim);
  const std::uint32_t plane = geometry_.plane_of_block(victim);
  const Ppn first = geometry_.first_page(victim);
  const std::uint32_t valid = nand_.valid_pages(victim);
  for (std::uint32_t page = 0; page < geometry_.pages_per_block; page += pages_per_lpn_) {
    if (!nand_.is_valid(first + page)) continue;
    const Lpn lpn = nand_.lpn_at(first + page);
    const Ppn target = allocate_for_cleaning(plane);
    const bool copy_back = config_.copy_back && geometry_.plane_of(target) == plane;
    for (std::uint32_t i = 0; i < pages_per_lpn_; ++i) {
      nand_.invalidate(first + page + i);
      program(target + i, lpn);
      Command move = flash::page_command(copy_back ? Op::kCopyBack : Op::kMove, target + i, lpn, 0,
                                         first + page + i);
      move.cleaning = true;
      out.push_back(move);
    }
    map_[lpn] = target;
    (copy_back ? stats_.copy_backs : stats_.inter_plane_moves) += pages_per_lpn_;
    stats_.flash_pages_written += pages_per_lpn_;
  }
  nand_.erase(victim);
  Command erase = flash::page_command(Op::kErase, first, flash::kNoLpn, 1);  // after every move
  erase.cleaning = true;
  out.push_back(erase);
  planes_[plane].free_blocks.push_back(victim);
  ++free_blocks_[pool];
  ++stats_.erases;
  ++stats_.blocks_cleaned;
  ++stats_.blocks_cleaned_per_pool[pool];
  stats_.pages_reclaimed += geometry_.pages_per_block - valid;
}

bool PageMappedFtl::wants_background_cleaning(std::uint32_t pool) const {
  if (free_blocks_[pool] >= high_water_blocks_) return false;
  const BlockId victim = buckets_.fewest_valid(pool);
  return victim != VictimBuckets::kNone && buckets_.valid(victim) < geometry_.pages_per_block;
}

void PageMappedFtl::clean_in_background(std::uint32_t pool, CommandList& out) {
  clean_one(pool, out);
  ++stats_.background_blocks_cleaned;
}

void PageMappedFtl::append_reads(Lpn lpn, std::uint8_t stage, CommandList& out) {
  const Ppn first = map_[lpn];
  for (std::uint32_t i = 0; i < pages_per_lpn_; ++i)
    out.push_back(flash::page_command(Op::kRead, first + i, lpn, stage));
  stats_.flash_pages_read += pages_per_lpn_;
}

void PageMappedFtl::write(const PageRange& range, CommandList& out) {
  if (range.count == 0) return;
  const std::size_t start = out.size();
  // Read-modify-write: the old contents of partly written logical pages are
  // read first (stage 0); every program waits for them (stage 1).
  std::uint8_t program_stage = 0;
  const Lpn last = range.first + range.count - 1;
  if (range.partial_first && map_[range.first] != kNoPage) {
    append_reads(range.first, 0, out);
    stats_.rmw_pages_read += pages_per_lpn_;
    program_stage = 1;
  }
  if (range.partial_last && map_[last] != kNoPage &&
      (last != range.first || !range.partial_first)) {
    append_reads(last, 0, out);
    stats_.rmw_pages_read += pages_per_lpn_;
    program_stage = 1;
  }
  for (Lpn lpn = range.first; lpn <= last; ++lpn) {
    const Ppn first = allocate_host(pool_of(lpn), out);
    unmap(lpn);
    for (std::uint32_t i = 0; i < pages_per_lpn_; ++i) {
      program(first + i, lpn);
      out.push_back(flash::page_command(Op::kProgram, first + i, lpn, program_stage));
    }
    map_[lpn] = first;
  }
  const std::uint64_t pages = std::uint64_t{range.count} * pages_per_lpn_;
  stats_.host_pages_written += pages;
  stats_.flash_pages_written += pages;
  if (config_.two_plane) merge_two_plane(geometry_, out, start);
}

void PageMappedFtl::read(const PageRange& range, CommandList& out) {
  const std::size_t start = out.size();
  for (Lpn lpn = range.first; lpn < range.first + range.count; ++lpn) {
    if (map_[lpn] == kNoPage) {
      stats_.unmapped_pages_read += pages_per_lpn_;
      continue;
    }
    append_reads(lpn, 0, out);
  }
  stats_.host_pages_read += std::uint64_t{range.count} * pages_per_lpn_;
  if (config_.two_plane) merge_two_plane(geometry_, out, start);
}

void PageMappedFtl::trim(const PageRange& range, CommandList& /*out*/) {
  if (range.count == 0) return;
  // Only whole logical pages can be forgotten; a partly trimmed one keeps data.
  const Lpn first = range.first + (range.partial_first ? 1 : 0);
  const Lpn end = range.first + range.count - (range.partial_last ? 1 : 0);
  for (Lpn lpn = first; lpn < end; ++lpn) {
    if (map_[lpn] == kNoPage) continue;
    unmap(lpn);
    stats_.trimmed_pages += pages_per_lpn_;
  }
}

void PageMappedFtl::check_invariants() const {
  auto fail = [](const std::string& what) { throw std::logic_error("page-mapped: " + what); };
  nand_.check_invariants();
  // Map and reverse map (the OOB logical page) agree.
  std::uint64_t mapped_pages = 0;
  for (Lpn lpn = 0; lpn < logical_pages_; ++lpn) {
    const Ppn first = map_[lpn];
    if (first == kNoPage) continue;
    for (std::uint32_t i = 0; i < pages_per_lpn_; ++i)
      if (!nand_.is_valid(first + i) || nand_.lpn_at(first + i) != lpn)
        fail(fmt::format("logical page {} -> page {} which holds {} ({})", lpn, first + i,
                         nand_.lpn_at(first + i),
                         nand_.is_valid(first + i) ? "valid" : "not valid"));
    mapped_pages += pages_per_lpn_;
  }
  // Every block is exactly one of: free, active, sealed (in the buckets with
  // its true valid count).
  std::vector<std::uint8_t> seen(geometry_.blocks(), 0);
  std::vector<std::uint32_t> free_per_pool(layout_.pools(), 0);
  std::uint64_t valid_pages = 0;
  for (std::uint32_t plane = 0; plane < planes_.size(); ++plane) {
    for (const BlockId block : planes_[plane].free_blocks) {
      if (!nand_.is_erased(block) || geometry_.plane_of_block(block) != plane || seen[block]++)
        fail(
            fmt::format("free list of plane {}: block {} is not an erased block of that plane, "
                        "or listed twice",
                        plane, block));
      ++free_per_pool[layout_.pool_of_plane(plane)];
    }
    for (const BlockId active : {planes_[plane].host_active, planes_[plane].clean_active}) {
      if (active == kNoBlock) continue;
      if (seen[active]++ || nand_.is_full(active) || geometry_.plane_of_block(active) != plane)
        fail(fmt::format("plane {}: active block {} is free, full, shared or foreign", plane,
                         active));
    }
  }
  for (BlockId block = 0; block < geometry_.blocks(); ++block) {
    valid_pages += nand_.valid_pages(block);
    if (seen[block]) continue;
    if (!buckets_.contains(block) || !nand_.is_full(block) ||
        buckets_.valid(block) != nand_.valid_pages(block))
      fail(
          fmt::format("block {} is neither free, active nor sealed with its valid count "
                      "({} recorded, {} true)",
                      block, buckets_.contains(block) ? std::int64_t{buckets_.valid(block)} : -1,
                      nand_.valid_pages(block)));
  }
  if (valid_pages != mapped_pages)
    fail(fmt::format("{} valid pages but {} mapped", valid_pages, mapped_pages));
  if (free_per_pool != free_blocks_)
    fail("free block counts per pool disagree with the free lists");
}

}  // namespace

std::unique_ptr<Ftl> make_page_mapped_ftl(const FtlContext& context) {
  return std::make_unique<PageMappedFtl>(context);
}

}  // namespace ssdlab::ftl
