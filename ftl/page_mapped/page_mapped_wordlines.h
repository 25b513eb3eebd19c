// One-shot wordlines (FtlConfig::wordline_pages > 1; issue 54 item 1): the
// blocks whose last program left a wordline partly written.
//
// A one-shot cell (flash/cell.h) programs a wordline's pages together, once
// its last page has come in: until then none of them is on flash. The
// page-mapped FTL keeps the wordlines its programs left open here and pads
// them (programs their remaining pages with no data, counted in
// padding_pages) when the controller has nothing more for them
// (Ftl::close_wordlines: after a host write it cannot hold, or a write
// buffer's flush; with no time, after preconditioning) and, for cleaning's,
// before a victim's erase: the moved data must be on flash before its only
// other copy is erased. (With map units, a cleaned victim's erase waits for
// its wordlines instead, holds_moves_from(); they are padded once when the
// trigger's cleaning ends.) Blocks in SLC mode hold one page per wordline
// and are never open.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "flash/command.h"
#include "flash/geometry.h"

namespace ssdlab::ftl::page_mapped {

class OpenWordlines {
 public:
  // `pages`: the FTL's pages per wordline (wordline pages x map units), 1:
  // off; `blocks` and `pools`: the device's. Each pool keeps its own list
  // (pools may be written on threads of their own: Ftl::set_pool_parallel).
  // With `pages_per_block` (the FTL's; map units), each open wordline also
  // keeps the blocks its moves came from (holds_moves_from()).
  OpenWordlines(std::uint32_t pages, std::uint32_t blocks, std::uint32_t pools,
                std::uint32_t pages_per_block = 0)
      : pages_(pages),
        pages_per_block_(pages_per_block),
        open_(pages > 1 ? pools : 0),
        slot_(pages > 1 ? blocks : 0, kNone),
        sources_(pages > 1 && pages_per_block != 0 ? blocks : 0) {}

  bool on() const { return pages_ > 1; }
  // Whether a wordline may be open (a listed block's may since have filled).
  bool any() const {
    for (const std::vector<Open>& open : open_)
      if (!open.empty()) return true;
    return false;
  }
  std::uint32_t pages() const { return pages_; }
  std::uint32_t pools() const { return static_cast<std::uint32_t>(open_.size()); }

  struct Open {
    flash::BlockId block = 0;
    std::uint8_t stage = 0;  // of its last program: its padding's
    bool cleaning = false;   // its last program was cleaning's (a move), not the host's
  };

  // `command` programmed a page of `block` (of `pool`, not in SLC mode),
  // whose next free page is now `next`.
  void programmed(flash::BlockId block, std::uint32_t pool, std::uint32_t next,
                  const flash::Command& command) {
    std::vector<Open>& open = open_[pool];
    std::uint32_t& slot = slot_[block];
    if (slot != kNone) {
      // (Its entry may be a life older: left open by writes no one closed,
      // as a bare FTL's caller may, its block filled, erased, and now taken
      // by another kind.)
      open[slot].stage = command.stage;
      open[slot].cleaning = command.cleaning;
    } else if (next % pages_ != 0) {
      slot = static_cast<std::uint32_t>(open.size());
      open.push_back({block, command.stage, static_cast<bool>(command.cleaning)});
    }
    if (!sources_.empty()) [[unlikely]]
      note_source(block, next, command);
  }
  // Whether an open wordline of `pool` holds a page moved out of `block`
  // (not on flash yet: the block must not be erased). Map units only.
  bool holds_moves_from(std::uint32_t pool, flash::BlockId block) const {
    for (const Open& entry : open_[pool])
      for (const flash::BlockId source : sources_[entry.block])
        if (source == block) return true;
    return false;
  }
  // Calls `pad(open)` for each open wordline of `pool` (with
  // `cleaning_only`, each of cleaning's), in the order they opened, and
  // forgets it. `pad` programs only its own block (programmed() may be
  // called for it meanwhile).
  template <class Pad>
  void take(std::uint32_t pool, bool cleaning_only, Pad&& pad) {
    take_if(
        pool, [cleaning_only](const Open& open) { return !cleaning_only || open.cleaning; }, pad);
  }
  // The same for each open wordline of `pool` for which `which(open)` holds.
  template <class Which, class Pad>
  void take_if(std::uint32_t pool, Which&& which, Pad&& pad) {
    std::vector<Open>& open = open_[pool];
    std::size_t kept = 0;
    for (std::size_t i = 0; i < open.size(); ++i) {
      const Open entry = open[i];
      if (!which(entry)) {
        slot_[entry.block] = static_cast<std::uint32_t>(kept);
        open[kept++] = entry;
        continue;
      }
      pad(entry);
      slot_[entry.block] = kNone;
    }
    open.resize(kept);
  }
  // A mount rebuilt the FTL's state: nothing is open.
  void clear() {
    for (std::vector<Open>& open : open_) {
      for (const Open& entry : open) {
        slot_[entry.block] = kNone;
        if (!sources_.empty()) sources_[entry.block].clear();
      }
      open.clear();
    }
  }

 private:
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};
  // A wordline's first page starts `block`'s list of sources; its last,
  // programming it, ends it (its moves are on flash).
  [[gnu::noinline]] void note_source(flash::BlockId block, std::uint32_t next,
                                     const flash::Command& command) {
    std::vector<flash::BlockId>& sources = sources_[block];
    if ((next - 1) % pages_ == 0 || next % pages_ == 0) sources.clear();
    if (next % pages_ == 0 || command.src == flash::kNoPage) return;
    const auto source = static_cast<flash::BlockId>(command.src / pages_per_block_);
    if (std::find(sources.begin(), sources.end(), source) == sources.end())
      sources.push_back(source);
  }
  std::uint32_t pages_;
  std::uint32_t pages_per_block_;
  std::vector<std::vector<Open>> open_;  // per pool
  std::vector<std::uint32_t> slot_;      // per block: its index in its pool's list, or kNone
  // Per block (with pages_per_block): the blocks its open wordline's moves came from.
  std::vector<std::vector<flash::BlockId>> sources_;
};

}  // namespace ssdlab::ftl::page_mapped
