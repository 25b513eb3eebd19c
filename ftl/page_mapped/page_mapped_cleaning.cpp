// Cleaning and wear leveling of the page-mapped FTL (Agrawal et al. §3.2,
// §5): the work the cleaning trigger asks for (CleaningWork) on the victims
// VictimChoice picks (or whole reclaim units: page_mapped_reclaim_units.h):
// moving their valid pages, erasing them, migration of cold data into worn
// blocks, retirement and end of life; and the SLC cache's folding, with
// where a host page goes while the cache has room.
#include <fmt/format.h>

#include "ftl/page_mapped/page_mapped.h"

namespace ssdlab::ftl::page_mapped {

void PageMappedFtl::prefetch_map_entries(Ppn& next, Ppn end) const {
  // Speed only, no effect on results. Each valid page of a victim updates
  // the map entry of its logical page: random entries of a map far larger
  // than the caches, one cache miss each (at write amplification 4.6 about
  // 3.6 per host write). Touching them ahead of the move loop lets those
  // misses overlap (memory-level parallelism) instead of being taken one
  // after another. The victim's own valid bits and OOB area are sequential.
  for (; next < end; next += pages_per_lpn_)
    if (nand_.is_valid(next)) prefetch_for_write(&map_[nand_.lpn_at(next)]);
}

std::uint32_t PageMappedFtl::waiting_erases(std::uint32_t group) const {
  if (unerased_.empty()) return 0;  // (always, without map units)
  std::uint32_t waiting = 0;
  for (const auto& [victim, moved] : unerased_) waiting += trigger_.group_of_block(victim) == group;
  return waiting;
}

void PageMappedFtl::clean_victim(std::uint32_t group, CommandList& out) {
  if (victims_.in_progress(group).victim == kNoBlock && !start_victim(group, out)) return;
  continue_victim(group, ~std::uint32_t{0}, out);
}

std::uint32_t PageMappedFtl::clean_pages(std::uint32_t group, std::uint32_t budget,
                                         CommandList& out) {
  if (victims_.in_progress(group).victim == kNoBlock && !start_victim(group, out)) return 0;
  return continue_victim(group, budget, out);
}

BlockId PageMappedFtl::unit_victim(std::uint32_t pool) {
  return reclaim_units_.next(
      pool, [this](BlockId block) { return victims_.is_candidate(block); },
      [this](BlockId block) { return victims_.valid(block); }, data_pages_,
      config_.keys.get<PageMappedKeys>().victim.kind == VictimPolicyKind::kCostBenefit, clock());
}

bool PageMappedFtl::start_victim(std::uint32_t group, CommandList& out) {
  const std::uint32_t pool = trigger_.pool_of_group(group);
  BlockId victim = reclaim_units_.on() ? unit_victim(pool) : ReclaimUnits::kNoUnitBlock;
  if (victim == ReclaimUnits::kNoUnitBlock)
    victim = victims_.choose(group, clock(), stats_.wear_deferrals);
  if (victim == VictimBuckets::kNone || victims_.valid(victim) == data_pages_) {
    // Map units: the blocks cleaned victims hold until their moves are on
    // flash come first (their pages padded now, cleaning_done()).
    if (!unerased_.empty()) {
      cleaning_done(out);
      return false;
    }
    if (retired_[pool] > 0) end_of_life(pool, "no block left that cleaning can free");
    throw make_error(
        "{} {} is full of valid data: cleaning cannot free a block "
        "(more over-provisioning is needed)",
        trigger_.plane_scope() ? "plane" : "allocation pool", group);
  }
  victims_.start(group, victim);
  if (is_translation(nand_.lpn_at(geometry_.first_page(victim))))
    ++counters(pool).translation_blocks_cleaned;  // DFTL
  return true;
}

std::uint32_t PageMappedFtl::continue_victim(std::uint32_t group, std::uint32_t budget,
                                             CommandList& out) {
  InProgress& cleaning = victims_.in_progress(group);
  const std::uint32_t moved = move_pages(cleaning, budget, out);
  if (!unerased_.empty()) erase_unerased(out);  // the moves may have filled their pages
  if (cleaning.next < geometry_.pages_per_block) return moved;  // the rest at the next write
  const BlockId victim = cleaning.victim;
  const std::uint32_t moved_in_all = cleaning.moved;
  cleaning = InProgress{};
  // Map units: the victim's last units may be in a flash page still being
  // filled (the controller's page buffer, UnitPages) or in a one-shot
  // wordline not yet programmed: not on flash. The erase waits until they
  // are: the next victim's units fill the page (wordline), or it is padded
  // when the trigger's cleaning ends (cleaning_done()). (Padding it now
  // would cost every victim a partial page: on a full drive with DFTL's
  // translation blocks, victims with 61 of 64 units valid freed nothing
  // net, and cleaning never ended.)
  if (units_.on() && !moves_on_flash(victim))
    unerased_.emplace_back(victim, moved_in_all);
  else
    erase_victim(victim, moved_in_all, out);
  return moved;
}

void PageMappedFtl::cleaning_done(CommandList& out) {
  // Map units: the victims waiting for their erase are erased once the pages
  // and one-shot wordlines holding their moves are padded: once for all the
  // victims of one trigger, not for each. (Not later: a host write after it
  // would reach the flash, in list order, before a move of its page's older
  // version still held in an open page.)
  if (unerased_.empty()) return;
  close_open_pages(out, kNoBlock, true);
  for (const auto& [victim, moved] : unerased_)
    if (wordlines_.on() && wordlines_.holds_moves_from(pool_of_block(victim), victim))
      pad_wordlines(pool_of_block(victim), out, true);
  erase_unerased(out);
  if (!unerased_.empty()) throw std::logic_error("a cleaned victim's moves are not on flash");
}

bool PageMappedFtl::moves_on_flash(BlockId block) const {
  const Ppn first = geometry_.first_page(block);
  return !units_.holds_moves_from(first, first + geometry_.pages_per_block) &&
         !(wordlines_.on() && wordlines_.holds_moves_from(pool_of_block(block), block));
}

void PageMappedFtl::erase_unerased(CommandList& out) {
  // In the order they were cleaned; the ones still waiting keep theirs.
  std::vector<std::pair<BlockId, std::uint32_t>> waiting;
  waiting.swap(unerased_);
  for (const auto& [victim, moved] : waiting) {
    if (moves_on_flash(victim))
      erase_victim(victim, moved, out);
    else
      unerased_.emplace_back(victim, moved);
  }
}

std::uint32_t PageMappedFtl::move_target_plane(BlockId victim) {
  const std::uint32_t plane = geometry_.plane_of_block(victim);
  if (config_.keys.get<PageMappedKeys>().move_plane != MovePlane::kTurn) return plane;
  // ftl.move_plane = "turn": the pool's victims cleaned before this one,
  // erased or waiting for their erase, give its turn (a block folded takes
  // the turn of the victim after it). Counted from what a checkpoint keeps,
  // so that a run from a saved state takes the turns the uninterrupted one
  // takes; not on the pools' threads (parallel_pools()), whose counters
  // start from zero.
  // (The key needs the pool scope: the trigger's groups are the pools.)
  const std::uint32_t pool = layout_.pool_of_plane(plane);
  const std::uint64_t turn = stats_.blocks_cleaned_per_pool[pool] + waiting_erases(pool);
  const std::vector<std::uint32_t>& planes = layout_.planes(pool);
  return planes[turn % planes.size()];
}

std::uint32_t PageMappedFtl::move_pages(InProgress& cleaning, std::uint32_t budget,
                                        CommandList& out) {
  const BlockId victim = cleaning.victim;
  const std::uint32_t plane = geometry_.plane_of_block(victim);
  const std::uint32_t target_plane = move_target_plane(victim);
  const Ppn first = geometry_.first_page(victim);
  std::uint32_t moved = 0;
  // The map entries of the valid pages up to a window ahead of the loop,
  // loading while it works (a whole block's at once: those of a block of
  // 8,192 map units were out of the caches again before their turn).
  constexpr Ppn kWindow = 64;
  const Ppn end = first + geometry_.pages_per_block;
  Ppn fetched = first + cleaning.next;
  for (; cleaning.next < geometry_.pages_per_block; cleaning.next += pages_per_lpn_) {
    const Ppn from = first + cleaning.next;
    if (!nand_.is_valid(from)) continue;
    if (moved + pages_per_lpn_ > budget) return moved;
    prefetch_map_entries(fetched, std::min(end, from + kWindow));
    const Lpn lpn = nand_.lpn_at(from);
    // DFTL: translation pages stay in translation blocks (in wordlines of
    // cleaning's own).
    if (is_translation(lpn)) end_translation_wordlines(pool_of_block(victim), false, out);
    // The victim's own plane first, so that copy-back applies (Agrawal
    // §3.2); another plane of the pool only when that plane is out of room.
    // With placement handles, the handle type's destination (page_mapped_fdp.h).
    const Ppn target =
        is_translation(lpn)
            ? allocate_near(target_plane, WriteKind::kTranslation, "a translation page", out)
            : allocate_near(target_plane,
                            fdp_.on() ? fdp_.cleaning_kind(victim, from) : WriteKind::kCleaning,
                            "the valid pages it moves", out);
    if (fdp_.on() && !is_translation(lpn))
      fdp_.moved(victim, from, target, pages_per_lpn_, geometry_);
    // (Map units are packed into pages through the controller.)
    const bool copy_back = config_.copy_back && !units_.on() && geometry_.plane_of(target) == plane;
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
  return moved;
}

void PageMappedFtl::erase_victim(BlockId victim, std::uint32_t moved, CommandList& out) {
  const std::uint32_t pool = pool_of_block(victim);
  // Migration-first (§5): "If the remaining lifetime in the chosen block is
  // below retirementAge": decided on the chosen block, before its erase.
  // Rate-limit-first (ssdlab 0.1) asks after the erase, below.
  const bool migration_first = wear_.config().migration_first();
  const bool worn = migration_first && wear_.wants_cold_data(victim);
  erase_block(victim, 1, out);  // after every move
  FtlStats& stats = counters(pool);
  ++stats.blocks_cleaned;
  ++stats.blocks_cleaned_per_pool[pool];
  stats.pages_reclaimed += data_pages_ - moved;  // superseded, never moved (no summary page)
  if (wear_.erased(victim)) {
    retire(pool);
  } else if (!(migration_first ? worn : wear_.wants_cold_data(victim)) ||
             !migrate_cold_data(victim, pool, out)) {
    placement_.freed(victim);
  }
}

bool PageMappedFtl::migrate_cold_data(BlockId worn, std::uint32_t pool, CommandList& out) {
  const std::uint32_t plane = geometry_.plane_of_block(worn);
  const BlockId cold = victims_.find_cold_block(worn, pool);
  if (cold == kNoBlock) return false;
  victims_.remove(cold);
  // Host-guided placement: the worn block takes the cold block's handle.
  if (fdp_.on()) nand_.set_placement_tag(worn, nand_.placement_tag(cold));
  // Stages after the cleaning's own (moves 0, erase 1): the worn block is
  // programmed after its erase, the cold block erased after it is copied.
  const Ppn from = geometry_.first_page(cold);
  const bool copy_back =
      config_.copy_back && !units_.on() && geometry_.plane_of_block(cold) == plane;
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
      if (units_.on())
        units_.add(move, out);
      else
        out.push_back(move);
    }
    map_[lpn] = target;
    if (cache_) note_moved(lpn);
    moved += pages_per_lpn_;
  }
  // The rest of the worn block's data pages stays unwritten until its next
  // erase (no flash work); it is closed now (with summary pages: its summary
  // page, after the moves), holding cold data. (Map units: its last flash
  // page written is padded first.)
  close_open_pages(out, worn);
  reclaim_units_.alone(worn);  // (written outside the slots)
  Command closing = flash::page_command(Op::kProgram, kNoPage, flash::kNoLpn, 2);
  closing.cleaning = true;
  // One-shot wordlines: none of the last wordline's pages is on flash until
  // its last page comes in, so the moves' last wordline is padded, in their
  // stage (left open, it held its die's latches for a page that never came:
  // a deadlock, docs/model.md).
  if (wordlines_.on() && !nand_.is_slc(worn)) {
    for (std::uint32_t next = nand_.write_pointer(worn);
         next < std::min(wordline_end(worn), data_pages_); next = nand_.write_pointer(worn)) {
      closing.ppn = geometry_.first_page(worn) + next;
      nand_.pad(closing.ppn);
      if (units_.on())
        units_.add(closing, out);
      else
        out.push_back(closing);
      ++stats_.padding_pages;
      ++stats_.flash_pages_written;
    }
    closing.ppn = kNoPage;
  }
  close_unwritten(worn, closing, out);
  (copy_back ? stats_.copy_backs : stats_.inter_plane_moves) += moved;
  stats_.flash_pages_written += moved;
  stats_.wear_migrated_pages += moved;
  ++stats_.wear_migrations;
  ++stats_.wear_migrations_per_pool[pool];
  // (Its erase counts in stats_ too: migration rate-limits, so pools are
  // never written in parallel meanwhile, parallel_pools().)
  erase_and_free(cold, 3, out);
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

void PageMappedFtl::clean_in_background(std::uint32_t pool, CommandList& out) {
  if (!trigger_.wants_background(pool)) {
    // Idle folding: a block on each plane that has one, all at once (their
    // moves stay in their planes; the erases follow every move).
    for (const BlockId block : slc_.take_one_per_plane(pool)) fold_block(pool, block, false, out);
  } else {
    clean_victim(trigger_.background_group(pool), out);
    ++stats_.background_blocks_cleaned;
  }
  if (units_.on()) close_open_pages(out);
}

WriteKind PageMappedFtl::cache_write_kind(std::uint32_t pool, WriteKind native, CommandList& out) {
  // A dynamic cache gives back what the filling logical space needs.
  while (slc_.must_shrink(pool, placement_.pool_free_blocks(pool))) fold(pool, true, out);
  for (int attempt = 0; attempt < 2; ++attempt) {
    placement_.set_slc_budget(pool, slc_.open_budget(pool, placement_.pool_free_blocks(pool)));
    if (placement_.pool_has_room(pool, WriteKind::kSlc)) return WriteKind::kSlc;
    // Full: native cells, or wait for the next cache block to fold.
    if (slc_.config().when_full != SlcWhenFull::kFold || !slc_.has_sealed(pool)) break;
    fold(pool, true, out);
  }
  return native;
}

void PageMappedFtl::after_cache_write(std::uint32_t pool, WriteKind kind, Ppn first, bool fresh) {
  if (fresh) slc_.mapped();
  if (kind == WriteKind::kSlc) {
    // A block's first page: Placement just opened it in SLC mode.
    if (geometry_.page_in_block(first) == 0) slc_.opened(pool);
    slc_.absorbed(pool, pages_per_lpn_);
  } else {
    slc_.bypassed(pool, pages_per_lpn_);
  }
  if (pool_stats_.empty()) slc_.sample(stats_.host_pages_written);
}

void PageMappedFtl::fold(std::uint32_t pool, bool foreground, CommandList& out) {
  fold_block(pool, slc_.take_next(pool), foreground, out);
}

void PageMappedFtl::fold_block(std::uint32_t pool, BlockId block, bool foreground,
                               CommandList& out) {
  InProgress folding{block, 0, 0};
  move_pages(folding, ~std::uint32_t{0}, out);
  slc_.folded(pool, folding.moved, foreground);
  erase_and_free(folding.victim, 1, out);  // after every move
}

void PageMappedFtl::erase_block(BlockId block, std::uint8_t stage, CommandList& out) {
  // The data moved out of the block goes to flash before its erase: the
  // pages (map units) and one-shot wordlines cleaning's moves left open are
  // padded (none of a wordline's pages is on flash before it is programmed;
  // a host page being filled stays open: nothing of it is in the block).
  // With map units only those holding the block's moves: a cleaned
  // victim's are on flash already (continue_victim()), folding's and
  // migration's are padded here.
  const std::uint32_t pool = pool_of_block(block);
  const Ppn first = geometry_.first_page(block);
  if (units_.on() && units_.holds_moves_from(first, first + geometry_.pages_per_block))
    close_open_pages(out, kNoBlock, true);
  if (wordlines_.on() && (!units_.on() || wordlines_.holds_moves_from(pool, block)))
    pad_wordlines(pool, out, true);
  nand_.erase(block);
  reclaim_units_.erased(block);
  Command erase = flash::page_command(Op::kErase, geometry_.first_page(block), flash::kNoLpn, stage);
  erase.cleaning = true;
  out.push_back(erase);
  ++counters(pool).erases;
}

void PageMappedFtl::erase_and_free(BlockId block, std::uint8_t stage, CommandList& out) {
  const std::uint32_t pool = pool_of_block(block);
  erase_block(block, stage, out);
  if (wear_.erased(block))
    retire(pool);
  else
    placement_.freed(block);
}

}  // namespace ssdlab::ftl::page_mapped
