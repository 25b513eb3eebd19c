#include "ftl/page_mapped/page_mapped_units.h"

#include <algorithm>
#include <stdexcept>

#include "ftl/page_mapped/page_mapped.h"

namespace ssdlab::ftl::page_mapped {

flash::Geometry unit_geometry(flash::Geometry flash, std::uint32_t units) {
  flash.page_size /= units;
  flash.oob_size /= units;
  flash.pages_per_block *= units;
  return flash;
}

void UnitPages::add(const flash::Command& command, flash::CommandList& out) {
  const std::uint32_t slot = command.ppn % per_page_;
  std::size_t at = 0;  // the page's place in open_
  if (slot == 0) {
    if (free_.empty()) {
      free_.push_back(static_cast<std::uint32_t>(pool_.size()));
      pool_.emplace_back();
    }
    open_.push_back(free_.back());
    free_.pop_back();
    open_next_.push_back(command.ppn);
    pool_[open_.back()].commands.clear();
    at = open_.size() - 1;
  } else if (last_ < open_next_.size() && open_next_[last_] == command.ppn) {
    at = last_;
  } else {
    at = static_cast<std::size_t>(std::find(open_next_.begin(), open_next_.end(), command.ppn) -
                                  open_next_.begin());
    if (at == open_.size())
      throw std::logic_error("a map unit programmed out of its page's slot order");
  }
  flash::CommandList& page = pool_[open_[at]].commands;
  page.push_back(command);
  // (Marked on the stored copy: a bit set in a copy on the stack, then read
  // whole to store it, stalled the load on the narrow store. Preconditioning
  // tlc-client takes 0.92 times the CPU without it.)
  if (slot != 0) page.back().rides = true;
  if (slot + 1 < per_page_) {
    open_next_[at] = page.back().ppn + 1;
    last_ = at;
    return;
  }
  out.insert(out.end(), page.begin(), page.end());
  free_.push_back(open_[at]);
  open_.erase(open_.begin() + static_cast<std::ptrdiff_t>(at));
  open_next_.erase(open_next_.begin() + static_cast<std::ptrdiff_t>(at));
}

std::optional<flash::Command> UnitPages::next_padding(bool cleaning_only) const {
  // (A page of cleaning's: one holding a move. DFTL's translation units
  // moved may join a page a write-back opened.)
  const auto page = std::find_if(open_.begin(), open_.end(), [&](std::uint32_t open) {
    const flash::CommandList& commands = pool_[open].commands;
    return !cleaning_only || std::any_of(commands.begin(), commands.end(),
                                         [](const flash::Command& c) { return c.cleaning; });
  });
  if (page == open_.end()) return std::nullopt;
  return padding_after(pool_[*page].commands);
}

std::optional<flash::Command> UnitPages::padding_of_move(flash::Ppn ppn) const {
  const std::size_t at = open_page_of(ppn);
  if (at == kNotOpen) return std::nullopt;
  const flash::CommandList& page = pool_[open_[at]].commands;
  const flash::Command& unit = page[ppn % per_page_];       // (a page opens at its slot 0)
  if (unit.op == flash::Op::kProgram) return std::nullopt;  // (a host unit)
  return padding_after(page);
}

flash::Command UnitPages::padding_after(const flash::CommandList& page) {
  const flash::Command& last = page.back();
  flash::Command padding =
      flash::page_command(flash::Op::kProgram, last.ppn + 1, flash::kNoLpn, last.stage);
  padding.cleaning = last.cleaning;
  return padding;
}

bool UnitPages::holds_moves_from(flash::Ppn first, flash::Ppn end) const {
  for (const std::uint32_t open : open_)
    for (const flash::Command& command : pool_[open].commands)
      if (command.op != flash::Op::kProgram && command.src >= first && command.src < end)
        return true;
  return false;
}

// The PageMappedFtl's own unit work (page_mapped.h).

void PageMappedFtl::close_open_pages(CommandList& out, BlockId closed_by_caller,
                                     bool cleaning_only) {
  if (!cleaning_only) std::fill(filling_.begin(), filling_.end(), FillingPage{});
  while (const std::optional<Command> next = units_.next_padding(cleaning_only))
    pad_unit(*next, closed_by_caller, out);
  // (Not inside a wear migration: it closes its own block.)
  if (!cleaning_only && closed_by_caller == kNoBlock) cleaning_done(out);
}

void PageMappedFtl::close_page_of(Ppn ppn, CommandList& out) {
  while (const std::optional<Command> next = units_.padding_of_move(ppn))
    pad_unit(*next, kNoBlock, out);
}

void PageMappedFtl::pad_unit(const Command& padding, BlockId closed_by_caller, CommandList& out) {
  const BlockId block = geometry_.block_of(padding.ppn);
  nand_.pad(padding.ppn);
  FtlStats& stats = counters(pool_of_block(block));
  ++stats.padding_pages;
  ++stats.flash_pages_written;
  if (block == closed_by_caller)
    units_.add(padding, out);
  else
    place(padding, out);
}

Ppn PageMappedFtl::room_near(std::uint32_t victim_plane, WriteKind kind, const char* what,
                             CommandList& out) {
  // Map units: the victims waiting for their erase are erased, their pages
  // padded; until then later victims' moves fill those pages. (The
  // emergency floor cleaning victims of the pool's planes in turn, each
  // leaving its last page open, found no room for the moves.)
  if (!unerased_.empty()) {
    cleaning_done(out);
    if (const Ppn ppn = placement_.take_near(victim_plane, kind); ppn != kNoPage) return ppn;
  }
  // After a mount that found fewer blocks erased than were free (a cut
  // undid erases still queued), the pool may have no free block and its
  // cleaning blocks full: an open host block becomes cleaning's, as
  // firmware writes into any open block, its open wordline (map units: its
  // open page) padded first: a wordline takes the pages of one chain of a
  // list, and a page of units the host's or cleaning's.
  if ((kind == WriteKind::kCleaning || kind == WriteKind::kTranslation) && !fdp_.on() &&
      !reclaim_units_.on())
    for (BlockId block = placement_.hand_host_block(victim_plane, kind); block != kNoBlock;
         block = placement_.hand_host_block(victim_plane, kind)) {
      if (wordlines_.on())
        wordlines_.take_if(
            pool_of_block(block),
            [block](const OpenWordlines::Open& open) { return open.block == block; },
            [&](const OpenWordlines::Open& open) { pad_wordline(open, out); });
      if (const Ppn ppn = placement_.take_near(victim_plane, kind); ppn != kNoPage) return ppn;
    }
  const std::uint32_t pool = layout_.pool_of_plane(victim_plane);
  if (retired_[pool] > 0) end_of_life(pool, fmt::format("cleaning found no room for {}", what));
  throw std::logic_error(
      fmt::format("cleaning found no room for {} in the pool of plane {}", what, victim_plane));
}

void PageMappedFtl::close_wordlines(CommandList& out, bool align_pairs) {
  // (On a read's or a trim's path: mostly nothing is open. A flash page of
  // units left open is in an open wordline, or in an SLC-mode block, which
  // the call that wrote it closed.)
  if (!wordlines_.on() || (!align_pairs && !wordlines_.any())) return;
  if (units_.on()) close_open_pages(out);
  std::fill(filling_.begin(), filling_.end(), FillingPage{});
  for (std::uint32_t pool = 0; pool < wordlines_.pools(); ++pool) pad_wordlines(pool, out, false);
  if (align_pairs && config_.two_plane) align_plane_pairs(out);
}

void PageMappedFtl::align_plane_pairs(CommandList& out) {
  const Command padding = flash::page_command(Op::kProgram, kNoPage, flash::kNoLpn, 0);
  // Pads the host blocks of `planes` (of the die from `base`) that are behind the others.
  std::vector<BlockId> blocks;
  auto align = [&](std::uint32_t base, std::initializer_list<std::uint32_t> planes) {
    blocks.clear();
    std::uint32_t to = 0;
    for (const std::uint32_t plane : planes) {
      const BlockId block = placement_.active_block(base + plane, WriteKind::kHost);
      if (block == kNoBlock || nand_.is_slc(block)) return;
      blocks.push_back(block);
      to = std::max(to, nand_.write_pointer(block));
    }
    for (const BlockId block : blocks) pad_block(block, to, padding, out);
  };
  for (std::uint32_t die = 0; die < geometry_.dies(); ++die) {
    const std::uint32_t base = die * geometry_.planes_per_die;
    const auto& pairs = geometry_.two_plane_pairs;
    // A four-plane die joins both pairs at one offset (flash/geometry.h): all four align.
    if (geometry_.multi_plane == 4)
      align(base, {pairs[0].first, pairs[0].second, pairs[1].first, pairs[1].second});
    else
      for (const auto& [first, second] : pairs) align(base, {first, second});
  }
}

void PageMappedFtl::pad_block(BlockId block, std::uint32_t end, Command padding, CommandList& out) {
  FtlStats& stats = counters(pool_of_block(block));
  for (std::uint32_t next = nand_.write_pointer(block); next < std::min(end, data_pages_);
       next = nand_.write_pointer(block)) {
    padding.ppn = geometry_.first_page(block) + next;
    nand_.pad(padding.ppn);
    ++stats.padding_pages;
    ++stats.flash_pages_written;
    place(padding, out);
  }
}

void PageMappedFtl::close_wordlines_functionally() {
  if (!wordlines_.on()) return;
  // (The padding's commands go nowhere: no time passes.)
  CommandList discarded;
  close_wordlines(discarded);
}

void PageMappedFtl::fill_from(std::uint32_t pool, Ppn next, WriteKind kind) {
  // (A block in SLC mode has a page per wordline.)
  const bool wordline = wordlines_.on() && !nand_.is_slc(geometry_.block_of(next - 1));
  const std::uint32_t fill = wordline ? wordlines_.pages() : units_.per_page();
  filling_[pool] = {next % fill != 0 ? next : kNoPage, kind};
}

std::uint32_t PageMappedFtl::wordline_end(BlockId block) const {
  const std::uint32_t pages = wordlines_.pages();
  return (nand_.write_pointer(block) + pages - 1) / pages * pages;
}

std::function<Ppn(Ppn)> PageMappedFtl::wordline_order() const {
  if (config_.wordline_pages <= 1) return nullptr;
  // (A block in SLC mode has a page per wordline; with map units a flash
  // page's command is its first unit's.)
  return [this](Ppn page) -> Ppn {
    if (geometry_.page_in_block(page) % wordlines_.pages() == 0 ||
        nand_.is_slc(geometry_.block_of(page)))
      return kNoPage;
    return page - units_.per_page();
  };
}

void PageMappedFtl::pad_wordline(const OpenWordlines::Open& open, CommandList& out) {
  // The padding completes its wordline in the stage of the wordline's last
  // program, before what a later stage does (a victim's erase).
  Command padding = flash::page_command(Op::kProgram, kNoPage, flash::kNoLpn, open.stage);
  padding.cleaning = open.cleaning;
  pad_block(open.block, wordline_end(open.block), padding, out);
}

void PageMappedFtl::pad_wordlines(std::uint32_t pool, CommandList& out, bool cleaning_only) {
  wordlines_.take(pool, cleaning_only,
                  [&](const OpenWordlines::Open& open) { pad_wordline(open, out); });
}

void PageMappedFtl::end_translation_wordlines(std::uint32_t pool, bool of_cleaning,
                                              CommandList& out) {
  // A translation block's open wordline takes the pages of one chain of a
  // list: the host's (translation pages written back) or cleaning's
  // (translation pages moved). Begun by one and continued by the other, it
  // held its die's latches for a page of the other chain's, which waited
  // for the first (docs/model.md, "A scheduler deadlock").
  if (!wordlines_.on()) return;
  const auto other_chains = [&](const OpenWordlines::Open& open) {
    return open.cleaning == of_cleaning &&
           placement_.active_block(geometry_.plane_of_block(open.block), WriteKind::kTranslation) ==
               open.block;
  };
  wordlines_.take_if(pool, other_chains,
                     [&](const OpenWordlines::Open& open) { pad_wordline(open, out); });
}

Ppn PageMappedFtl::allocate_filling(std::uint32_t pool, WriteKind kind, CommandList& out) {
  // The pool's page or wordline the call is filling, while it has room and
  // the page is of its kind: a flash page (a one-shot wordline) is filled
  // before the pool turns to the next plane, so that the units of many
  // writes (a flush's runs) fill whole pages (wordlines) and only the last
  // of each pool and kind is padded.
  if (const FillingPage& filling = filling_[pool]; filling.next != kNoPage && filling.kind == kind)
    if (placement_.take_in_plane(geometry_.plane_of(filling.next), kind) == filling.next)
      return filling.next;
  return allocate_in_turn(pool, kind, out, "host data above its reserve");
}

}  // namespace ssdlab::ftl::page_mapped
