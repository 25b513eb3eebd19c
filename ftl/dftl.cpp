// DFTL (Gupta, Kim, Urgaonkar, "DFTL: a flash translation layer employing
// demand-based selective caching of page-level address mappings", ASPLOS
// 2009): page-level mapping whose map does not fit the controller's DRAM.
//
// The full map is stored in translation pages on flash (entries_per_page =
// page size / 4 entries each), located through the global translation
// directory (GTD, in SRAM: one entry per translation page). A cached mapping
// table (MapCache, dftl_map_cache.h) holds `ftl.map_cache_entries` entries.
// A host request looks up each of its pages first: a hit costs nothing; a
// miss reads the entry's translation page (if it was ever written), after
// evicting the replacement victim; a dirty victim's translation page is
// rewritten (read, then program to a new place), with every dirty cached
// entry of that page (batched). These are flash commands in the request's
// own list, before its data commands (stages 0 and 1; the data from stage 2).
// A miss also loads the next `ftl.map_cache_prefetch` - 1 entries of the
// translation page it read, at the cold end (no extra flash read; 1: the
// paper's DFTL), which keeps the hit ratio of sequential access high.
//
// The data path, cleaning, victim policies, wear leveling, checkpoints and
// power-cut recovery are the page-mapped FTL's (page_mapped.h): this FTL is
// that class with a map cache. Translation pages are logical pages numbered
// after the host's (logical_pages() + translation page), so the OOB of every
// page tells a translation page from a data page, and the OOB scan of a
// mount finds both (the GTD is the map of the high numbers); the mount then
// rewrites the translation pages older than their data (the dirty entries
// the cut lost). They are
// written into translation blocks (one active block per plane beside the
// host and cleaning ones); cleaning picks victims among all sealed blocks
// and moves a translation page into a translation block, updating the GTD.
// When cleaning moves a data page, its cached entry is updated in place (the
// paper's lazy copying); an uncached one enters the cache dirty at its cold
// end, so that the translation page is rewritten at the next miss, batched
// with its neighbours (the paper rewrites it at once, batched per page).
//
// Capacity: translation pages and the translation block per plane come out
// of the spare space; the host sees the page-mapped FTL's capacity (unless
// the translation pages would not fit below the cleaning reserve). Restrictions: one flash
// page per logical page, and no synchronous gang.
#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"
#include "ftl/page_mapped/page_mapped.h"

namespace ssdlab::ftl::page_mapped {

std::uint64_t PageMappedFtl::set_up_translation(std::uint64_t capacity_entries) {
  if (pages_per_lpn_ != 1)
    throw make_error(
        "dftl maps one flash page or a map unit per logical page: "
        "logical_page_size must be at most {} (got {})",
        geometry_.page_size * units_.per_page(), config_.logical_page_size);
  if (geometry_.lockstep())
    throw make_error("dftl is not modelled on a synchronous gang ({})",
                     flash::gang_name(geometry_.gang));
  entries_per_translation_page_ = geometry_.page_size / 4;  // 4-byte physical page numbers
  const auto translation_pages = [this] {
    return (logical_pages_ + entries_per_translation_page_ - 1) / entries_per_translation_page_;
  };
  // The translation pages are data that cleaning must keep: they must fit
  // beside the host's below the page-mapped FTL's cleaning reserve and open
  // blocks, the translation block each plane fills among them. (Out of the
  // spare space where it is large enough: the host keeps the page-mapped capacity.)
  const std::uint64_t workable = workable_pages(true);
  const std::uint64_t stripe_round = std::uint64_t{stripe_lpns_.divisor()} * layout_.pools();
  while (logical_pages_ > 0 && logical_pages_ + translation_pages() > workable)
    logical_pages_ -= stripe_round;
  if (logical_pages_ == 0) throw make_error("the device is too small for dftl's translation pages");
  if (capacity_entries == 0) capacity_entries = std::max<std::uint64_t>(1, logical_pages_ / 50);
  // The value that runs (config(), summary.json's echo).
  DftlKeys& keys = config_.keys.emplace(config_.keys.get<DftlKeys>());
  keys.map_cache_entries = capacity_entries;
  cache_ = std::make_unique<MapCache>(logical_pages_, entries_per_translation_page_,
                                      capacity_entries, keys.map_cache_prefetch);
  return translation_pages();
}

void PageMappedFtl::translate(Lpn lpn, CommandList& out) {
  if (cache_->touch(lpn)) {
    ++stats_.map_cache_hits;
    return;
  }
  ++stats_.map_cache_misses;
  make_room(out, 1);
  const Lpn translation = static_cast<Lpn>(logical_pages_ + cache_->translation_page_of(lpn));
  const bool just_written = std::find(request_written_.begin(), request_written_.end(),
                                      translation) != request_written_.end();
  // (Never written: all unmapped. With map units, a translation unit still
  // in an open page is in the controller's page buffer: nothing to read.)
  if (map_[translation] != kNoPage && !just_written && !units_.pending(map_[translation])) {
    out.push_back(flash::page_command(Op::kRead, map_[translation], translation, 0));
    ++stats_.translation_pages_read;
    request_written_.push_back(translation);
  }
  cache_->insert(lpn);
  // Prefetch: the entries after it in the translation page just read, at
  // the cold end (unused ones leave first), room made for all of them first
  // (evicting may write back), then the nearest inserted last (coldest: it
  // is used first).
  const std::uint32_t page = cache_->translation_page_of(lpn);
  Lpn end = lpn + 1;
  std::uint64_t absent = 0;
  while (end - lpn < cache_->prefetch() && end < logical_pages_ &&
         cache_->translation_page_of(end) == page && absent + 1 < cache_->capacity()) {
    absent += cache_->contains(end) ? 0 : 1;
    ++end;
  }
  if (absent == 0) return;
  make_room(out, absent);
  for (Lpn next = end; next-- > lpn + 1;)
    if (!cache_->contains(next)) cache_->insert_cold(next);
}

void PageMappedFtl::translate_all(PageRuns runs, CommandList& out) {
  request_written_.clear();
  for (const PageRange& range : runs)
    for (Lpn lpn = range.first; lpn < range.first + range.count; ++lpn) translate(lpn, out);
  // Map units: the translation units written back, and the units cleaning
  // moved, are on flash before the request's data commands read any of
  // them (their pages padded; a unit in an open page is not on flash).
  if (units_.on()) close_open_pages(out);
}

void PageMappedFtl::make_room(CommandList& out, std::uint64_t entries) {
  while (cache_->size() + entries > cache_->capacity() && cache_->size() > 0) {
    const MapCache::Evicted victim = cache_->evict();
    if (victim.dirty) write_back(cache_->translation_page_of(victim.lpn), out);
  }
}

void PageMappedFtl::write_back(std::uint32_t page, CommandList& out) {
  const Lpn translation = static_cast<Lpn>(logical_pages_ + page);
  // Map units: a translation unit still in an open page (written back, or
  // moved, earlier in this call) is updated there, in the page buffer. A
  // second copy would reach the flash in the order its page fills, which
  // may be before the first's.
  if (map_[translation] != kNoPage && units_.pending(map_[translation])) {
    cache_->cleaned(page);
    request_written_.push_back(translation);
    return;
  }
  // Allocation first: the cleaning it may run can move the old translation page.
  const Ppn target =
      allocate_in_turn(pool_of(translation), WriteKind::kTranslation, out, "a translation page");
  const Ppn old = map_[translation];
  if (old != kNoPage) {
    // The entries not cached come from the old version.
    out.push_back(flash::page_command(Op::kRead, old, translation, 0));
    ++stats_.translation_pages_read;
    supersede(old);
  }
  program(flash::page_command(Op::kProgram, target, translation, 1), out);
  map_[translation] = target;
  cache_->cleaned(page);
  request_written_.push_back(translation);
  ++stats_.translation_pages_written;
  ++stats_.flash_pages_written;
}

void PageMappedFtl::rewrite_stale_translation_pages(CommandList& out) {
  // The scan found every data page's latest version, so the map is right;
  // what the cut lost is the dirty cache entries, which show as translation
  // pages older (by sequence number) than a data page or a trim of their
  // range. The mount rewrites those, as a real DFTL must before it can
  // serve misses from its translation pages.
  const std::uint64_t translation_pages = map_.size() - logical_pages_;
  std::vector<std::uint8_t> stale(translation_pages, 0);
  std::vector<std::uint64_t> written(translation_pages, 0);
  for (std::uint64_t page = 0; page < translation_pages; ++page) {
    const Ppn at = map_[logical_pages_ + page];
    written[page] = at == kNoPage ? 0 : nand_.sequence_at(at);
  }
  for (Lpn lpn = 0; lpn < logical_pages_; ++lpn) {
    const std::uint32_t page = cache_->translation_page_of(lpn);
    if (map_[lpn] != kNoPage && nand_.sequence_at(map_[lpn]) > written[page]) stale[page] = 1;
  }
  for (const flash::NandArray::TrimRecord& trim : nand_.trims())
    for (Lpn lpn = trim.first; lpn < trim.end && lpn < logical_pages_;
         lpn += entries_per_translation_page_ - lpn % entries_per_translation_page_) {
      const std::uint32_t page = cache_->translation_page_of(lpn);
      if (trim.sequence > written[page]) stale[page] = 1;
    }
  request_written_.clear();
  for (std::uint32_t page = 0; page < translation_pages; ++page)
    if (stale[page]) write_back(page, out);
  if (units_.on()) close_open_pages(out);
}

void PageMappedFtl::note_moved(Lpn lpn) {
  // A translation page's new place is in the GTD (map_) already.
  if (!is_translation(lpn)) cache_->moved(lpn);
}

}  // namespace ssdlab::ftl::page_mapped

namespace ssdlab::ftl {

std::unique_ptr<Ftl> make_dftl_ftl(const FtlContext& context) {
  return std::make_unique<page_mapped::PageMappedFtl>(context, true);
}

}  // namespace ssdlab::ftl
