#include "ftl/page_mapped/page_mapped.h"

#include <algorithm>
#include <cmath>

namespace ssdlab::ftl::page_mapped {
namespace {

std::vector<std::uint32_t> pool_of_planes(const flash::Geometry& geometry,
                                          const PoolLayout& layout) {
  std::vector<std::uint32_t> pools(geometry.planes());
  for (std::uint32_t plane = 0; plane < geometry.planes(); ++plane)
    pools[plane] = layout.pool_of_plane(plane);
  return pools;
}

// Summary pages (ftl.summary_page, Agrawal et al. §3.4): the bytes one
// moves, 0 without them. Throws if the device cannot have them.
std::uint16_t summary_transfer_bytes(const flash::Geometry& geometry, const FtlConfig& config) {
  if (!config.keys.get<PageMappedKeys>().summary_page) return 0;
  // A block's data pages then end at an odd page: one logical page each.
  if (config.logical_page_size / geometry.page_size != 1 || geometry.pages_per_block < 2)
    throw make_error(
        "ftl.summary_page needs logical_page_size = the {}-byte flash page and blocks of at "
        "least 2 pages",
        geometry.page_size);
  const std::uint32_t bytes = summary_page_bytes(geometry, config.sector_size);
  if (bytes > 0xffff)
    throw make_error("ftl.summary_page: a {}-byte summary page is more than one transfer takes",
                     bytes);
  return static_cast<std::uint16_t>(bytes);
}

// Map units (page_mapped_units.h): flash pages per FTL page, when the
// logical page is a part of the flash page; 1 otherwise.
std::uint32_t units_per_page(const FtlContext& context) {
  const std::uint32_t unit = context.config.logical_page_size;
  const std::uint32_t page = context.geometry.page_size;
  if (unit >= page) return 1;
  if (page % unit != 0 || context.geometry.lockstep())
    throw make_error("ftl.logical_page_size {} is not a map unit of the {}-byte flash page", unit,
                     page);
  return page / unit;
}

// Its own keys (page_mapped_keys.h), as read, or their defaults.
const PageMappedKeys& page_keys(const FtlContext& context) {
  return context.config.keys.get<PageMappedKeys>();
}

}  // namespace

PageMappedFtl::PageMappedFtl(const FtlContext& context, bool demand_mapped)
    : units_(units_per_page(context)),
      geometry_(unit_geometry(context.geometry, units_.per_page())),
      config_(context.config),
      nand_(geometry_),
      layout_(context.geometry, context.config.pool),
      wordlines_(config_.wordline_pages * units_.per_page(), geometry_.blocks(), layout_.pools(),
                 units_.on() ? geometry_.pages_per_block : 0),
      pages_per_lpn_(config_.logical_page_size / geometry_.page_size),
      data_pages_(geometry_.pages_per_block - (page_keys(context).summary_page ? 1 : 0)),
      summary_bytes_(summary_transfer_bytes(geometry_, config_)),
      stripe_lpns_(config_.stripe_size / config_.logical_page_size),
      rmw_by_copy_back_(geometry_.lockstep() && config_.copy_back && pages_per_lpn_ == 1),
      wear_(config_.wear, geometry_.pe_cycles,
            WearBlocks::flash_blocks(nand_, pool_of_planes(geometry_, layout_), layout_.pools()),
            context.seed),
      placement_(geometry_, layout_, nand_, page_keys(context).plane_choice, data_pages_),
      fdp_(config_.placement, config_.logical_page_size, nand_, placement_, config_.slc_cache.on()),
      reclaim_units_(config_.placement.on() && config_.placement.reclaim_units, geometry_, layout_,
                     kActiveSlots),
      trigger_(geometry_, layout_, placement_, *this,
               {page_keys(context).clean_scope, page_keys(context).clean_granularity,
                page_keys(context).clean_incremental_pages, config_.clean_low_water,
                config_.clean_high_water},
               pages_per_lpn_),
      victims_(geometry_, trigger_, placement_, wear_, page_keys(context).victim, data_pages_,
               context.seed),
      slc_(geometry_, layout_, nand_, config_, pages_per_lpn_, reserve_blocks()),
      retired_(layout_.pools(), 0) {
  if (reclaim_units_.on()) placement_.set_reclaim_units(&reclaim_units_);
  logical_pages_ = exported_pages(config_.overprovisioning);
  const std::uint64_t translation_pages =
      demand_mapped ? set_up_translation(config_.keys.get<DftlKeys>().map_cache_entries) : 0;
  map_.assign(logical_pages_ + translation_pages, kNoPage);
  if (units_.on() || wordlines_.on()) filling_.assign(layout_.pools(), FillingPage{});
  if (wordlines_.on() && slc_.on()) host_in_slc_.assign(layout_.pools(), 1);  // (empty: SLC)
  stats_.blocks_cleaned_per_pool.assign(layout_.pools(), 0);
  stats_.wear_migrations_per_pool.assign(layout_.pools(), 0);
  const std::uint64_t pool_pages =
      (logical_pages_ + translation_pages) / layout_.pools() * pages_per_lpn_;
  needed_blocks_ = static_cast<std::uint32_t>((pool_pages + data_pages_ - 1) / data_pages_ +
                                              reserve_blocks() + slc_.static_blocks());
  if (slc_.on()) {
    slc_.sample_every(std::max<std::uint64_t>(1, logical_pages_ * pages_per_lpn_ / 100));
    slc_.set_logical_pages(logical_pages_);
  }
}

void PageMappedFtl::recount_mapped() {
  if (!slc_.on() || !slc_.counts_mapped()) return;
  std::uint64_t mapped = 0;
  for (Lpn lpn = 0; lpn < logical_pages_; ++lpn) mapped += map_[lpn] != kNoPage;
  slc_.set_mapped(mapped);
}

std::uint64_t PageMappedFtl::exported_pages(double overprovisioning) const {
  // The physical data pages (without summary pages) less over-provisioning,
  // less what cleaning and the static SLC cache need (a static SLC region
  // comes out of the spare area, as on drives: it does not shrink the
  // capacity they export, unless the spare cannot hold it), in whole stripes
  // across all pools.
  const std::uint64_t stripe_round = std::uint64_t{stripe_lpns_.divisor()} * layout_.pools();
  const auto usable = static_cast<std::uint64_t>(
      static_cast<double>(geometry_.blocks() * data_pages_) * (1.0 - overprovisioning));
  const std::uint64_t pages =
      std::min(usable, workable_pages()) / pages_per_lpn_ / stripe_round * stripe_round;
  if (pages == 0)
    throw make_error(
        "the device is too small: after over-provisioning and the cleaning reserve "
        "not one stripe over all {} pools is left",
        layout_.pools());
  if (pages >= flash::kNoLpn) throw make_error("the device has too many logical pages");
  return pages;
}

std::uint64_t PageMappedFtl::workable_pages(bool dftl) const {
  // The reserve, or the low-water blocks beside every block open
  // (spare_blocks()) where those are more: the reserve counts two a plane,
  // and without the SLC cache's and DFTL's translation block a device whose
  // over-provisioning is too small for them exported more than its sealed
  // blocks can hold, and cleaning, unable to get back to its mark, never
  // ended (a DFTL preset at a fortieth ran out of memory).
  const std::uint32_t kept =
      std::max(reserve_blocks(), trigger_.low_water_blocks() +
                                     open_blocks_per_plane(dftl) * layout_.planes_per_pool());
  const std::uint64_t reserve = std::uint64_t{layout_.pools()} * (kept + slc_.static_blocks());
  return geometry_.blocks() > reserve ? (geometry_.blocks() - reserve) * data_pages_ : 0;
}

void PageMappedFtl::no_room(std::uint32_t pool, const char* what) const {
  throw std::logic_error(fmt::format("pool {} has no room for {}", pool, what));
}

void PageMappedFtl::place(const Command& command, CommandList& out) {
  if (units_.on())
    units_.add(command, out);
  else if (!lists_unread_)   // (a list nobody reads: copying each page's command into it
    out.push_back(command);  // cost the paper's device a sixth of its preconditioning)
  const BlockId block = geometry_.block_of(command.ppn);
  if (wordlines_.on() && !nand_.is_slc(block))
    wordlines_.programmed(block, pool_of_block(block), nand_.write_pointer(block), command);
  // (An SLC-mode block holds fewer pages, and no summary page.)
  if (nand_.write_pointer(block) == data_pages_ || (slc_.on() && nand_.is_full(block)))
    close_block(block, command, out);
}

void PageMappedFtl::close_block(BlockId block, const Command& closing, CommandList& out) {
  if (summary_bytes_ != 0) {
    // Agrawal et al. §3.4; DiskSim ssd_timing.c:360-372: with the block's last
    // data page, its summary page: a one-sector transfer and a program. It
    // is never valid data (cleaning does not move it), but it is a page
    // programmed (flash_pages_written, write amplification).
    const Ppn ppn = geometry_.first_page(block) + data_pages_;
    nand_.pad(ppn);
    Command summary = flash::page_command(Op::kProgram, ppn, flash::kNoLpn, closing.stage);
    summary.cleaning = closing.cleaning;
    summary.transfer_bytes = summary_bytes_;
    out.push_back(summary);
    FtlStats& stats = counters(pool_of_block(block));
    ++stats.summary_pages_written;
    ++stats.flash_pages_written;
  }
  // A full block is sealed: cleaning (an SLC block: folding) may take it; no plane writes it.
  if (nand_.is_slc(block)) {
    slc_.sealed(pool_of_block(block), block);
  } else {
    victims_.sealed(block, nand_.valid_pages(block), clock());
    reclaim_units_.sealed(block, clock());
  }
  placement_.closed(block);
}

void PageMappedFtl::close_unwritten(BlockId block, const Command& closing, CommandList& out) {
  while (nand_.write_pointer(block) < data_pages_)
    nand_.pad(geometry_.first_page(block) + nand_.write_pointer(block));
  close_block(block, closing, out);
}

void PageMappedFtl::prefetch(Lpn soon, Lpn later) const {
  if (cache_) return;  // DFTL: the map's state is the cache's, not one array
  if (later < map_.size()) prefetch_for_read(&map_[later]);
  if (soon >= map_.size()) return;
  if (const Ppn old = map_[soon]; old != kNoPage) prefetch_page_state(old);
}

void PageMappedFtl::unmap(Lpn lpn, CommandList& out) {
  const Ppn old = map_[lpn];
  if (old == kNoPage) return;
  // Map units with incremental cleaning: a victim in progress leaves its
  // moves in an open page between host writes. Superseded there, a move of
  // the old version reached the flash after the new version's program (a
  // mount after a power cut takes the copy programmed last): its page is
  // programmed first, padded.
  if (units_.on() && trigger_.victims_between_writes()) close_page_of(old, out);
  // The old page's NAND state and its block's bucket entry are three more
  // random cache lines: ask for all of them at once rather than in turn.
  prefetch_page_state(old);
  for (std::uint32_t i = 0; i < pages_per_lpn_; ++i) supersede(old + i);
  map_[lpn] = kNoPage;
}

void PageMappedFtl::append_reads(Lpn lpn, std::uint8_t stage, CommandList& out) {
  const Ppn first = map_[lpn];
  for (std::uint32_t i = 0; i < pages_per_lpn_; ++i)
    out.push_back(flash::page_command(Op::kRead, first + i, lpn, stage));
  stats_.flash_pages_read += pages_per_lpn_;
  // Map units: a unit of the flash page the read before reads rides on it.
  if (units_.on() && out.size() > 1) {
    const Command& before = out[out.size() - 2];
    out.back().rides = before.op == Op::kRead && !before.cleaning && before.stage == stage &&
                       before.ppn / units_.per_page() == first / units_.per_page();
  }
}

bool PageMappedFtl::rewrite_by_copy_back(Lpn lpn, WriteKind kind, CommandList& out) {
  const std::uint32_t pool = pool_of(lpn);
  // Cleaning first: it may move the old page, which is then read where it went.
  trigger_.before_write(pool, geometry_.plane_of(map_[lpn]), out);
  const Ppn old = map_[lpn];
  const Ppn target = placement_.take_in_plane(geometry_.plane_of(old), kind);
  if (target == kNoPage) return false;
  if (fdp_.on()) fdp_.host_page(target, pages_per_lpn_, geometry_);
  unmap(lpn, out);
  Command command = flash::page_command(Op::kCopyBack, target, lpn, 0, old);
  command.host_data = true;
  program(command, out);
  map_[lpn] = target;
  ++stats_.rmw_pages_read;  // read inside the plane, not over the bus
  return true;
}

void PageMappedFtl::write(const PageRange& range, CommandList& out) {
  write_runs(PageRuns{&range, 1}, out);
}

void PageMappedFtl::write_runs(PageRuns runs, CommandList& out) {
  if (fdp_.time_limited()) [[unlikely]]
    close_expired_reclaim_units(out);
  // Every map entry of the request first (DFTL): misses read translation
  // pages, evictions write them back (and may clean), all before the data
  // commands are chosen.
  if (cache_) translate_all(runs, out);
  // Two-plane merging covers the data commands only: merging a translation
  // page's read with a later one could put it after that page's rewrite.
  const std::size_t start = out.size();
  for (std::size_t i = 0; i < runs.size(); ++i) {
    // The next runs' map entries and old pages start loading (prefetch()).
    if (i + 1 < runs.size())
      prefetch(runs[i + 1].first, i + 2 < runs.size() ? runs[i + 2].first : flash::kNoLpn);
    fdp_.on() ? write_placed_run(runs[i], out) : write_run(runs[i], out);
  }
  // Map units: the pages the runs left partly written are padded (write_host_pages()).
  if (units_.on()) close_open_pages(out);
  if (config_.two_plane && !lists_unread_)
    merge_two_plane(geometry_, out, start, false, wordline_order());
}

void PageMappedFtl::write_run(const PageRange& range, CommandList& out) {
  if (range.count == 0) return;
  // Read-modify-write: the old contents of partly written logical pages are
  // read first (stage 0); every program waits for them (stage 1). On a
  // synchronous gang, a copy-back with the host's data instead.
  const Lpn last = range.first + range.count - 1;
  const bool rmw_first = range.partial_first && map_[range.first] != kNoPage;
  const bool rmw_last =
      range.partial_last && map_[last] != kNoPage && (last != range.first || !range.partial_first);
  std::uint8_t program_stage = 0;
  auto read_old = [&](Lpn lpn) {
    append_reads(lpn, data_stage(0), out);
    stats_.rmw_pages_read += pages_per_lpn_;
  };
  if (!rmw_by_copy_back_ && (rmw_first || rmw_last)) {
    if (rmw_first) read_old(range.first);
    if (rmw_last) read_old(last);
    program_stage = 1;
  }
  program_stage = data_stage(program_stage);
  // Host-guided placement: the handle's active blocks (page_mapped_fdp.h).
  const WriteKind host_kind =
      fdp_.on() ? fdp_.host_kind(range.placement, range.first) : WriteKind::kHost;
  for (Lpn lpn = range.first; lpn <= last; ++lpn) {
    std::uint8_t stage = program_stage;
    if (rmw_by_copy_back_ && ((lpn == range.first && rmw_first) || (lpn == last && rmw_last))) {
      if (rewrite_by_copy_back(lpn, host_kind, out)) continue;
      read_old(lpn);  // no room in its plane: through the controller
      stage = data_stage(1);
    }
    // Map units: the logical pages up to the end of the first's stripe
    // (its pool) may share its flash page.
    std::uint32_t group = 1;
    if (units_.on()) {
      const Lpn stripe_end = (stripe_lpns_.quotient(lpn) + 1) * stripe_lpns_.divisor();
      group = static_cast<std::uint32_t>(std::min<Lpn>(last + 1, stripe_end) - lpn);
    }
    lpn += write_host_pages(lpn, group, host_kind, stage, out) - 1;
  }
  const std::uint64_t pages = std::uint64_t{range.count} * pages_per_lpn_;
  FtlStats& stats = counters(pool_of(range.first));  // one pool's page in parallel writes
  stats.host_pages_written += pages;
  stats.flash_pages_written += pages;
}

[[gnu::always_inline]] inline std::uint32_t PageMappedFtl::write_host_pages(
    Lpn lpn, std::uint32_t count, WriteKind host_kind, std::uint8_t stage, CommandList& out) {
  // The map entry is a cache miss: let it load while allocation (and cleaning) works.
  prefetch_for_write(&map_[lpn]);
  const std::uint32_t pool = pool_of(lpn);
  const WriteKind kind = slc_.on() ? cache_write_kind(pool, host_kind, out) : host_kind;
  if (!host_in_slc_.empty()) host_in_slc_[pool] = kind == WriteKind::kSlc;
  const Ppn first = filling_.empty()
                        ? allocate_in_turn(pool, kind, out, "host data above its reserve")
                        : allocate_filling(pool, kind, out);
  const auto write_at = [&](Lpn at, Ppn to) {
    if (slc_.on()) after_cache_write(pool, kind, to, map_[at] == kNoPage);
    if (fdp_.on()) fdp_.host_page(to, pages_per_lpn_, geometry_);
    unmap(at, out);
    for (std::uint32_t i = 0; i < pages_per_lpn_; ++i)
      program(flash::page_command(Op::kProgram, to + i, at, stage), out);
    map_[at] = to;
    if (cache_) cache_->mark_dirty(at);
  };
  if (!units_.on()) {
    write_at(lpn, first);
    if (!filling_.empty()) fill_from(pool, first + pages_per_lpn_, kind);
    return 1;
  }
  // Map units: the next ones take the next slots of the same flash page.
  count = std::min(count, units_.per_page() - first % units_.per_page());
  for (std::uint32_t i = 0; i < count; ++i) write_at(lpn + i, first + i);
  fill_from(pool, first + count, kind);
  return count;
}

void PageMappedFtl::read(const PageRange& range, CommandList& out) {
  if (cache_) translate_all(PageRuns{&range, 1}, out);
  const std::size_t start = out.size();  // data commands only (see write())
  for (Lpn lpn = range.first; lpn < range.first + range.count; ++lpn) {
    if (map_[lpn] == kNoPage) {
      stats_.unmapped_pages_read += pages_per_lpn_;
      continue;
    }
    append_reads(lpn, data_stage(0), out);
  }
  stats_.host_pages_read += std::uint64_t{range.count} * pages_per_lpn_;
  // (Reads only: the wordline order concerns programs.)
  if (config_.two_plane) merge_two_plane(geometry_, out, start);
}

void PageMappedFtl::trim(const PageRange& range, CommandList& out) {
  if (range.count == 0) return;
  // Only whole logical pages can be forgotten; a partly trimmed one keeps data.
  const Lpn first = range.first + (range.partial_first ? 1 : 0);
  const Lpn end = range.first + range.count - (range.partial_last ? 1 : 0);
  request_written_.clear();
  for (Lpn lpn = first; lpn < end; ++lpn) {
    if (map_[lpn] == kNoPage) continue;
    if (cache_) {
      translate(lpn, out);  // DFTL: the entry is now "unmapped", written back later
      cache_->mark_dirty(lpn);
    }
    unmap(lpn, out);
    if (slc_.on()) slc_.unmapped();
    stats_.trimmed_pages += pages_per_lpn_;
  }
  // The trim record (the metadata log a mount reads, nand_array.h) is
  // stamped after the request's own flash work: a DFTL miss above may
  // evict, write a translation page back and clean, and cleaning moves a
  // page of the range not yet unmapped to a new place with a newer
  // sequence number. A record stamped before that move would lose to it at
  // the mount and bring the trimmed data back (issue 51: DFTL, seed 4).
  // The record is on flash before the trim completes, so an acknowledged
  // trim is durable. (Map units: so are the translation units it wrote back.)
  if (cache_ && units_.on()) close_open_pages(out);
  nand_.record_trim(first, end);
}

}  // namespace ssdlab::ftl::page_mapped

namespace ssdlab::ftl {

std::unique_ptr<Ftl> make_page_mapped_ftl(const FtlContext& context) {
  return std::make_unique<page_mapped::PageMappedFtl>(context);
}

}  // namespace ssdlab::ftl
