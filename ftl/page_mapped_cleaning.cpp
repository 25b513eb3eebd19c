// Cleaning and wear leveling of the page-mapped FTL (Agrawal et al. §3.2,
// §5): greedy victims, rate-limited reuse of worn blocks, migration of cold
// data into them, retirement and end of life.
#include <fmt/format.h>

#include "ftl/page_mapped.h"

namespace ssdlab::ftl::page_mapped {
namespace {

// Rate-limiting passes over at most this many victims per cleaning (then the
// first one is cleaned after all, so that cleaning always progresses).
constexpr std::size_t kMaxDeferrals = 16;
// Migration looks at most this many least recently erased blocks.
constexpr std::uint32_t kColdSearch = 64;

}  // namespace

void PageMappedFtl::prefetch_map_entries(Ppn first) const {
  // Speed only, no effect on results. Each valid page of a victim updates
  // the map entry of its logical page: random entries of a map far larger
  // than the caches, one cache miss each (at write amplification 4.6 about
  // 3.6 per host write). Touching them all first lets those misses overlap
  // (memory-level parallelism) instead of being taken one after another in
  // the move loop. The victim's own valid bits and OOB area are sequential.
  for (std::uint32_t page = 0; page < geometry_.pages_per_block; page += pages_per_lpn_)
    if (nand_.is_valid(first + page)) prefetch_for_write(&map_[nand_.lpn_at(first + page)]);
}

std::uint64_t PageMappedFtl::cleaning_room(std::uint32_t pool) const {
  std::uint64_t room = std::uint64_t{free_blocks_[pool]} * data_pages_;
  for (const std::uint32_t plane : layout_.planes(pool))
    for (const BlockId active : {planes_[plane].clean_active, planes_[plane].map_active})
      if (active != kNoBlock) room += data_pages_ - nand_.write_pointer(active);
  return room;
}

BlockId PageMappedFtl::choose_victim(std::uint32_t group) {
  const std::uint32_t pool = pool_of_group(group);
  BlockId victim = policy_->choose(group, buckets_, clock());
  // A policy other than greedy may pick a block with more valid pages than
  // the pool has room to move (after a mount that left few free blocks):
  // greedy's choice then, which needs the least room.
  if (victim != VictimBuckets::kNone && buckets_.valid(victim) > cleaning_room(pool))
    victim = buckets_.fewest_valid(group);
  if (!wear_.config().rate_limit()) return victim;
  // §5 rate-limiting: a worn victim is recycled only with a probability
  // falling linearly with its remaining life; otherwise the next greedy
  // choice is tried. Passed-over blocks go back to their buckets after.
  deferred_.clear();
  // §5 order (migration-first): a worn victim that can receive cold data is
  // migrated, not rate-limited; rate-limiting then only meets victims that
  // cannot (no cold block is there).
  while (victim != VictimBuckets::kNone && buckets_.valid(victim) < data_pages_ &&
         deferred_.size() < kMaxDeferrals && !receives_cold_data(victim, pool) &&
         !wear_.may_reuse(victim)) {
    deferred_.push_back(victim);
    remove_sealed(victim);
    victim = policy_->choose(group, buckets_, clock());
  }
  if (!deferred_.empty() &&
      (victim == VictimBuckets::kNone || buckets_.valid(victim) == data_pages_ ||
       deferred_.size() == kMaxDeferrals)) {
    // Nothing else frees space, or too many worn blocks: clean the best one.
    victim = deferred_.front();
    deferred_.erase(deferred_.begin());
    restore_sealed(victim);
  }
  for (const BlockId block : deferred_) restore_sealed(block);
  stats_.wear_deferrals += deferred_.size();
  return victim;
}

void PageMappedFtl::clean_one(std::uint32_t group, CommandList& out) {
  if (in_progress_[group].victim == kNoBlock) start_victim(group);
  continue_victim(group, ~std::uint32_t{0}, out);
}

void PageMappedFtl::start_victim(std::uint32_t group) {
  const std::uint32_t pool = pool_of_group(group);
  const BlockId victim = choose_victim(group);
  if (victim == VictimBuckets::kNone || buckets_.valid(victim) == data_pages_) {
    if (retired_[pool] > 0) end_of_life(pool, "no block left that cleaning can free");
    throw make_error(
        "{} {} is full of valid data: cleaning cannot free a block "
        "(more over-provisioning is needed)",
        plane_scope_ ? "plane" : "allocation pool", group);
  }
  remove_sealed(victim);
  in_progress_[group] = {victim, 0};
  prefetch_map_entries(geometry_.first_page(victim));
  if (is_translation(nand_.lpn_at(geometry_.first_page(victim))))
    ++counters(pool).translation_blocks_cleaned;  // DFTL
}

std::uint32_t PageMappedFtl::continue_victim(std::uint32_t group, std::uint32_t budget,
                                             CommandList& out) {
  InProgress& cleaning = in_progress_[group];
  const BlockId victim = cleaning.victim;
  const std::uint32_t plane = geometry_.plane_of_block(victim);
  const Ppn first = geometry_.first_page(victim);
  std::uint32_t moved = 0;
  for (; cleaning.next < geometry_.pages_per_block; cleaning.next += pages_per_lpn_) {
    const Ppn from = first + cleaning.next;
    if (!nand_.is_valid(from)) continue;
    if (moved + pages_per_lpn_ > budget) return moved;  // the rest at the next write
    const Lpn lpn = nand_.lpn_at(from);
    // DFTL: translation pages stay in translation blocks.
    const Ppn target = is_translation(lpn) ? allocate_translation_for_cleaning(plane)
                                           : allocate_for_cleaning(plane);
    const bool copy_back = config_.copy_back && geometry_.plane_of(target) == plane;
    for (std::uint32_t i = 0; i < pages_per_lpn_; ++i) {
      nand_.invalidate(from + i);
      Command move =
          flash::page_command(copy_back ? Op::kCopyBack : Op::kMove, target + i, lpn, 0, from + i);
      move.cleaning = true;
      program(move, out);
    }
    map_[lpn] = target;
    if (cache_) note_moved(lpn);
    FtlStats& stats = counters(pool_of_block(victim));
    (copy_back ? stats.copy_backs : stats.inter_plane_moves) += pages_per_lpn_;
    stats.flash_pages_written += pages_per_lpn_;
    moved += pages_per_lpn_;
    cleaning.moved += pages_per_lpn_;
  }
  const std::uint32_t moved_in_all = cleaning.moved;
  cleaning = InProgress{};
  erase_victim(victim, moved_in_all, out);
  return moved;
}

void PageMappedFtl::erase_victim(BlockId victim, std::uint32_t moved, CommandList& out) {
  const std::uint32_t pool = pool_of_block(victim);
  const std::uint32_t plane = geometry_.plane_of_block(victim);
  // Migration-first (§5): "If the remaining lifetime in the chosen block is
  // below retirementAge": decided on the chosen block, before its erase.
  // Rate-limit-first (ssdlab 0.1) asks after the erase, below.
  const bool migration_first = wear_.config().migration_first();
  const bool worn = migration_first && wear_.wants_cold_data(victim);
  nand_.erase(victim);
  Command erase = flash::page_command(Op::kErase, geometry_.first_page(victim), flash::kNoLpn,
                                      1);  // after every move
  erase.cleaning = true;
  out.push_back(erase);
  FtlStats& stats = counters(pool);
  ++stats.erases;
  ++stats.blocks_cleaned;
  ++stats.blocks_cleaned_per_pool[pool];
  stats.pages_reclaimed += data_pages_ - moved;  // superseded, never moved (no summary page)
  if (wear_.erased(victim)) {
    retire(pool);
  } else if (!(migration_first ? worn : wear_.wants_cold_data(victim)) ||
             !migrate_cold_data(victim, pool, out)) {
    planes_[plane].free_blocks.push_back(victim);
    ++free_blocks_[pool];
  }
}

bool PageMappedFtl::receives_cold_data(BlockId victim, std::uint32_t pool) {
  return wear_.config().migration_first() && wear_.wants_cold_data(victim) &&
         find_cold_block(victim, pool) != kNoBlock;
}

BlockId PageMappedFtl::find_cold_block(BlockId worn, std::uint32_t pool) {
  const std::uint32_t plane = geometry_.plane_of_block(worn);
  const bool rate_limit_first = wear_.config().order == WearOrder::kRateLimitFirst;
  const auto cold_in = [&](bool same_plane) {
    return wear_.find_least_recently_erased(pool, kColdSearch, kNoBlock, [&](BlockId block) {
      // A sealed block (holding data, not being written) past the thresholds
      // of remaining life and time since its last erase, with data to give.
      if (block == worn || !buckets_.contains(block) || !wear_.is_cold(block) ||
          buckets_.valid(block) == 0)
        return false;
      if (!rate_limit_first) return true;
      // ssdlab 0.1's extra conditions: at least half full of data (a mostly
      // empty worn block would soon be greedy's victim again), on the
      // victim's plane when `same_plane`.
      return (!same_plane || geometry_.plane_of_block(block) == plane) &&
             2 * buckets_.valid(block) >= geometry_.pages_per_block;
    });
  };
  // §5: "recycle the head block of the queue": the least recently erased.
  if (!rate_limit_first) return cold_in(false);
  // ssdlab 0.1: the coldest block of the victim's plane first (copy-back).
  const BlockId cold = cold_in(true);
  return cold != kNoBlock ? cold : cold_in(false);
}

bool PageMappedFtl::migrate_cold_data(BlockId worn, std::uint32_t pool, CommandList& out) {
  const std::uint32_t plane = geometry_.plane_of_block(worn);
  const BlockId cold = find_cold_block(worn, pool);
  if (cold == kNoBlock) return false;
  remove_sealed(cold);
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
    if (cache_) note_moved(lpn);
    moved += pages_per_lpn_;
  }
  // The rest of the worn block's data pages stays unwritten until its next
  // erase (no flash work); it is closed now (with summary pages: its summary
  // page, after the moves), holding cold data.
  while (nand_.write_pointer(worn) < data_pages_)
    nand_.pad(geometry_.first_page(worn) + nand_.write_pointer(worn));
  Command closing = flash::page_command(Op::kProgram, kNoPage, flash::kNoLpn, 2);
  closing.cleaning = true;
  close_block(worn, closing, out);
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
  ++counters(pool).blocks_retired;
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
  return background_group(pool) != kNoBlock;
}

std::uint32_t PageMappedFtl::background_group(std::uint32_t pool) const {
  // The pool itself, or with the plane scope the plane of the pool with the
  // fewest free blocks that has something to clean (a victim in progress
  // first: it is finished before another is started).
  if (!plane_scope_) return cleanable(pool) ? pool : kNoBlock;
  std::uint32_t best = kNoBlock;
  for (const std::uint32_t plane : layout_.planes(pool))
    if (cleanable(plane) && (best == kNoBlock || free_in_group(plane) < free_in_group(best)))
      best = plane;
  return best;
}

void PageMappedFtl::clean_in_background(std::uint32_t pool, CommandList& out) {
  clean_one(background_group(pool), out);
  ++stats_.background_blocks_cleaned;
}

}  // namespace ssdlab::ftl::page_mapped
