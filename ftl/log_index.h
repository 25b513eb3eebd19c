// Where the block-based FTLs' log blocks hold the latest version of a
// logical page (block_store.h): only the pages in log blocks have an entry,
// as in the modelled device, whose few log blocks need a small table
// (Desnoyers §3, "RAM requirements"). The entries sit in a hash map bounded
// by the log blocks' pages. In front of it, a count of entries per slot
// (logical page modulo at most 2^16 slots, 256 KiB at most: a fixed size,
// not a bit per logical page) answers "not in a log" for most pages with
// one look into a table that stays in cache; a page whose slot holds
// entries is looked up in the map.
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "flash/nand_array.h"

namespace ssdlab::ftl {

class LogIndex {
 public:
  using Lpn = flash::Lpn;
  using Ppn = flash::Ppn;

  // Empties the index for `logical_pages` pages.
  void reset(std::uint64_t logical_pages) {
    std::uint64_t slots = 1;
    while (slots < logical_pages && slots < kMaxSlots) slots <<= 1;
    counts_.assign(slots, 0);
    mask_ = slots - 1;
    where_.clear();
  }
  bool contains(Lpn lpn) const { return maybe(lpn) && where_.contains(lpn); }
  // The log page holding `lpn`'s latest version, or kNoPage.
  Ppn get(Lpn lpn) const {
    if (!maybe(lpn)) return flash::kNoPage;
    const auto it = where_.find(lpn);
    return it == where_.end() ? flash::kNoPage : it->second;
  }
  // `ppn` kNoPage: the same as erase().
  void set(Lpn lpn, Ppn ppn) {
    if (ppn == flash::kNoPage) return erase(lpn);
    const auto [it, added] = where_.try_emplace(lpn, ppn);
    if (added)
      ++counts_[lpn & mask_];
    else
      it->second = ppn;
  }
  void erase(Lpn lpn) {
    if (maybe(lpn) && where_.erase(lpn) != 0) --counts_[lpn & mask_];
  }
  std::size_t size() const { return where_.size(); }
  // The entries in logical page order (checkpoints: the same bytes whatever
  // the hash map's order).
  std::vector<std::pair<Lpn, Ppn>> sorted() const {
    std::vector<std::pair<Lpn, Ppn>> entries(where_.begin(), where_.end());
    std::sort(entries.begin(), entries.end());
    return entries;
  }
  // Bytes held (the memory report): the slot counts, and the hash map's
  // nodes and buckets, counted as in libstdc++ (two pointers and the entry
  // per node).
  std::uint64_t bytes() const {
    return counts_.capacity() * sizeof(std::uint32_t) +
           where_.size() * (sizeof(std::pair<Lpn, Ppn>) + 2 * sizeof(void*)) +
           where_.bucket_count() * sizeof(void*);
  }

 private:
  static constexpr std::uint64_t kMaxSlots = std::uint64_t{1} << 16;
  bool maybe(Lpn lpn) const { return counts_[lpn & mask_] != 0; }

  std::uint64_t mask_ = 0;
  std::vector<std::uint32_t> counts_;  // per slot: entries whose page falls in it
  std::unordered_map<Lpn, Ppn> where_;
};

}  // namespace ssdlab::ftl
