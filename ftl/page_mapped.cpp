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
// Wear leveling (Agrawal et al. §5, wear_leveler.h): a greedy victim may be
// passed over by rate-limiting; a worn victim, once erased, may receive the
// data of a cold block, which is erased and freed in its place (migration);
// a block reaching its rated cycles is retired. When a pool's live blocks no
// longer hold its share of the logical space plus the cleaning reserve, the
// device has reached its end of life (EndOfLife).
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
// Rate-limiting passes over at most this many victims per cleaning (then the
// first one is cleaned after all, so that cleaning always progresses).
constexpr std::size_t kMaxDeferrals = 16;
// Migration looks at most this many least recently erased blocks.
constexpr std::uint32_t kColdSearch = 64;

std::vector<std::uint32_t> pool_of_blocks(const flash::Geometry& geometry,
                                          const PoolLayout& layout) {
  std::vector<std::uint32_t> pools(geometry.blocks());
  for (BlockId block = 0; block < geometry.blocks(); ++block)
    pools[block] = layout.pool_of_plane(geometry.plane_of_block(block));
  return pools;
}

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
  // Greedy victim of `pool`, after rate-limiting (§5) passed over some.
  BlockId choose_victim(std::uint32_t pool);
  // §5 migration: fills the erased, worn `worn` with the valid data of a cold
  // block of its pool and erases that one. False if no block is cold.
  bool migrate_cold_data(BlockId worn, std::uint32_t pool, CommandList& out);
  void seal(BlockId block);
  // The block just erased wore out: it is out of service for good (in no
  // free list); throws EndOfLife if the pool can no longer hold its data.
  void retire(std::uint32_t pool);
  [[noreturn]] void end_of_life(std::uint32_t pool, const std::string& why) const;

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
  WearLeveler wear_;
  std::vector<std::uint32_t> retired_;  // per pool
  std::uint32_t needed_blocks_;         // per pool: its logical share plus the cleaning reserve
  std::vector<BlockId> deferred_;       // choose_victim() scratch
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
      cursors_(layout_.pools(), 0),
      wear_(context.config.wear, context.geometry.pe_cycles, pool_of_blocks(geometry_, layout_),
            layout_.pools(), context.seed),
      retired_(layout_.pools(), 0) {
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
  stats_.wear_migrations_per_pool.assign(layout_.pools(), 0);
  const std::uint64_t pool_pages = logical_pages_ / layout_.pools() * pages_per_lpn_;
  needed_blocks_ = static_cast<std::uint32_t>((pool_pages + geometry_.pages_per_block - 1) /
                                                  geometry_.pages_per_block +
                                              reserve_blocks / layout_.pools());

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
  const std::uint32_t pool = layout_.pool_of_plane(victim_plane);
  if (retired_[pool] > 0) end_of_life(pool, "cleaning found no room for the valid pages it moves");
  throw std::logic_error(
      fmt::format("cleaning found no room in the pool of plane {}", victim_plane));
}

void PageMappedFtl::program(Ppn ppn, Lpn lpn) {
  nand_.program(ppn, lpn);
  const BlockId block = geometry_.block_of(ppn);
  if (nand_.is_full(block)) seal(block);
}

void PageMappedFtl::seal(BlockId block) {
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

BlockId PageMappedFtl::choose_victim(std::uint32_t pool) {
  BlockId victim = buckets_.fewest_valid(pool);
  if (!wear_.config().rate_limit()) return victim;
  // §5 rate-limiting: a worn victim is recycled only with a probability
  // falling linearly with its remaining life; otherwise the next greedy
  // choice is tried. Passed-over blocks go back to their buckets after.
  deferred_.clear();
  while (victim != VictimBuckets::kNone && buckets_.valid(victim) < geometry_.pages_per_block &&
         deferred_.size() < kMaxDeferrals && !wear_.may_reuse(victim)) {
    deferred_.push_back(victim);
    buckets_.remove(victim);
    victim = buckets_.fewest_valid(pool);
  }
  if (!deferred_.empty() &&
      (victim == VictimBuckets::kNone || buckets_.valid(victim) == geometry_.pages_per_block ||
       deferred_.size() == kMaxDeferrals)) {
    // Nothing else frees space, or too many worn blocks: clean the best one.
    victim = deferred_.front();
    deferred_.erase(deferred_.begin());
    buckets_.insert(victim, pool, nand_.valid_pages(victim));
  }
  for (const BlockId block : deferred_) buckets_.insert(block, pool, nand_.valid_pages(block));
  stats_.wear_deferrals += deferred_.size();
  return victim;
}

void PageMappedFtl::clean_one(std::uint32_t pool, CommandList& out) {
  const BlockId victim = choose_victim(pool);
  if (victim == VictimBuckets::kNone || buckets_.valid(victim) == geometry_.pages_per_block) {
    if (retired_[pool] > 0) end_of_life(pool, "no block left that cleaning can free");
    throw make_error(
        "allocation pool {} is full of valid data: cleaning cannot free a block "
        "(more over-provisioning is needed)",
        pool);
  }
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
  ++stats_.erases;
  ++stats_.blocks_cleaned;
  ++stats_.blocks_cleaned_per_pool[pool];
  stats_.pages_reclaimed += geometry_.pages_per_block - valid;
  if (wear_.erased(victim)) {
    retire(pool);
  } else if (!wear_.wants_cold_data(victim) || !migrate_cold_data(victim, pool, out)) {
    planes_[plane].free_blocks.push_back(victim);
    ++free_blocks_[pool];
  }
}

bool PageMappedFtl::migrate_cold_data(BlockId worn, std::uint32_t pool, CommandList& out) {
  // The coldest block of the victim's plane first (copy-back), then of the pool.
  const std::uint32_t plane = geometry_.plane_of_block(worn);
  const auto cold_in = [&](bool same_plane) {
    return wear_.find_least_recently_erased(pool, kColdSearch, kNoBlock, [&](BlockId block) {
      return block != worn && (!same_plane || geometry_.plane_of_block(block) == plane) &&
             buckets_.contains(block) && wear_.is_cold(block) &&
             // At least half full of data: a mostly empty worn block would
             // soon be greedy's victim again.
             2 * buckets_.valid(block) >= geometry_.pages_per_block;
    });
  };
  BlockId cold = cold_in(true);
  if (cold == kNoBlock) cold = cold_in(false);
  if (cold == kNoBlock) return false;
  buckets_.remove(cold);
  // Stages after the cleaning's own (moves 0, erase 1): the worn block is
  // programmed after its erase, the cold block erased after it is copied.
  const Ppn from = geometry_.first_page(cold);
  const bool copy_back = config_.copy_back && geometry_.plane_of_block(cold) == plane;
  std::uint32_t moved = 0;
  for (std::uint32_t page = 0; page < geometry_.pages_per_block; page += pages_per_lpn_) {
    if (!nand_.is_valid(from + page)) continue;
    const Lpn lpn = nand_.lpn_at(from + page);
    const Ppn target = geometry_.first_page(worn) + nand_.write_pointer(worn);
    for (std::uint32_t i = 0; i < pages_per_lpn_; ++i) {
      nand_.invalidate(from + page + i);
      nand_.program(target + i, lpn);
      Command move = flash::page_command(copy_back ? Op::kCopyBack : Op::kMove, target + i, lpn, 2,
                                         from + page + i);
      move.cleaning = true;
      out.push_back(move);
    }
    map_[lpn] = target;
    moved += pages_per_lpn_;
  }
  // The rest of the worn block stays unwritten until its next erase (closed,
  // no flash work): it is sealed now, holding cold data.
  while (!nand_.is_full(worn)) nand_.pad(geometry_.first_page(worn) + nand_.write_pointer(worn));
  seal(worn);
  nand_.erase(cold);
  Command erase = flash::page_command(Op::kErase, from, flash::kNoLpn, 3);
  erase.cleaning = true;
  out.push_back(erase);
  (copy_back ? stats_.copy_backs : stats_.inter_plane_moves) += moved;
  stats_.flash_pages_written += moved;
  stats_.wear_migrated_pages += moved;
  ++stats_.wear_migrations;
  ++stats_.wear_migrations_per_pool[pool];
  ++stats_.erases;
  if (wear_.erased(cold)) {
    retire(pool);
  } else {
    planes_[geometry_.plane_of_block(cold)].free_blocks.push_back(cold);
    ++free_blocks_[pool];
  }
  return true;
}

void PageMappedFtl::retire(std::uint32_t pool) {
  ++retired_[pool];
  ++stats_.blocks_retired;
  const std::uint32_t pool_blocks = geometry_.blocks() / layout_.pools();
  if (pool_blocks - retired_[pool] < needed_blocks_)
    end_of_life(pool, fmt::format("{} of its {} blocks are worn out; it needs {} for its share of "
                                  "the logical space and the cleaning reserve",
                                  retired_[pool], pool_blocks, needed_blocks_));
}

void PageMappedFtl::end_of_life(std::uint32_t pool, const std::string& why) const {
  throw EndOfLife(fmt::format(
      "end of life: allocation pool {} can no longer keep its share of the logical capacity: {} "
      "({} blocks retired in all, rated {} P/E cycles)",
      pool, why, stats_.blocks_retired, geometry_.pe_cycles));
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
      if (!nand_.is_erased(block) || geometry_.plane_of_block(block) != plane ||
          wear_.is_retired(block) || seen[block]++)
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
    if (wear_.is_retired(block)) {
      if (!nand_.is_erased(block) || nand_.erase_count(block) != geometry_.pe_cycles)
        fail(fmt::format("retired block {} is in use or was erased {} times (rated {})", block,
                         nand_.erase_count(block), geometry_.pe_cycles));
      continue;
    }
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
