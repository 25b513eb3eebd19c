// Where the block-based FTLs' log blocks hold the latest version of a
// logical page (block_store.h): only the pages in log blocks have an entry,
// as in the modelled device, whose few log blocks need a small table
// (Desnoyers §3, "RAM requirements"). The entries sit in a hash map bounded
// by the log blocks' pages; a bit per logical block (its pages: `group`
// logical pages) answers "any page of it in a log?" without a lookup, so the
// pages of the many logical blocks with no log page cost one bit test, and
// the index 1/8 byte per logical block rather than per logical page. A count
// per logical block with log pages (a second map, as small) clears the bit.
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

  // Empties the index for `logical_pages` pages in logical blocks of `group`.
  void reset(std::uint64_t logical_pages, std::uint32_t group) {
    group_ = group;
    bits_.assign((logical_pages / group + 63) / 64, 0);
    where_.clear();
    per_block_.clear();
  }
  bool contains(Lpn lpn) const { return any(lpn / group_) && where_.contains(lpn); }
  // The log page holding `lpn`'s latest version, or kNoPage.
  Ppn get(Lpn lpn) const {
    if (!any(lpn / group_)) return flash::kNoPage;
    const auto it = where_.find(lpn);
    return it == where_.end() ? flash::kNoPage : it->second;
  }
  // `ppn` kNoPage: the same as erase().
  void set(Lpn lpn, Ppn ppn) {
    if (ppn == flash::kNoPage) return erase(lpn);
    const auto [it, added] = where_.try_emplace(lpn, ppn);
    if (!added) {
      it->second = ppn;
      return;
    }
    const std::uint32_t lbn = lpn / group_;
    ++per_block_[lbn];
    bits_[lbn >> 6] |= std::uint64_t{1} << (lbn & 63);
  }
  void erase(Lpn lpn) {
    const std::uint32_t lbn = lpn / group_;
    if (!any(lbn) || where_.erase(lpn) == 0) return;
    const auto count = per_block_.find(lbn);
    if (--count->second != 0) return;
    per_block_.erase(count);
    bits_[lbn >> 6] &= ~(std::uint64_t{1} << (lbn & 63));
  }
  std::size_t size() const { return where_.size(); }
  // The entries in logical page order (checkpoints: the same bytes whatever
  // the hash map's order).
  std::vector<std::pair<Lpn, Ppn>> sorted() const {
    std::vector<std::pair<Lpn, Ppn>> entries(where_.begin(), where_.end());
    std::sort(entries.begin(), entries.end());
    return entries;
  }
  // Bytes held (the memory report): the bits, and the hash maps' nodes and
  // buckets, counted as in libstdc++ (two pointers and the entry per node).
  std::uint64_t bytes() const {
    const auto map_bytes = [](const auto& map, std::size_t entry) {
      return map.size() * (entry + 2 * sizeof(void*)) + map.bucket_count() * sizeof(void*);
    };
    return bits_.capacity() * sizeof(std::uint64_t) +
           map_bytes(where_, sizeof(std::pair<Lpn, Ppn>)) +
           map_bytes(per_block_, sizeof(std::pair<std::uint32_t, std::uint32_t>));
  }

 private:
  bool any(std::uint32_t lbn) const { return (bits_[lbn >> 6] >> (lbn & 63)) & 1; }

  std::uint32_t group_ = 1;
  std::vector<std::uint64_t> bits_;  // per logical block: has log pages
  std::unordered_map<Lpn, Ppn> where_;
  std::unordered_map<std::uint32_t, std::uint32_t> per_block_;  // log pages per logical block
};

}  // namespace ssdlab::ftl
