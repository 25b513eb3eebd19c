// Where the block-based FTLs' log blocks hold the latest version of a
// logical page (block_store.h): only the pages in log blocks have an entry,
// as in the modelled device, whose few log blocks need a small table
// (Desnoyers §3, "RAM requirements"). A bit per logical page answers "in a
// log?" without a lookup (0.125 bytes per page); the entries sit in a hash
// map bounded by the log blocks' pages, instead of 4 bytes per logical page.
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
    bits_.assign((logical_pages + 63) / 64, 0);
    where_.clear();
  }
  bool contains(Lpn lpn) const { return (bits_[lpn >> 6] >> (lpn & 63)) & 1; }
  // The log page holding `lpn`'s latest version, or kNoPage.
  Ppn get(Lpn lpn) const { return contains(lpn) ? where_.find(lpn)->second : flash::kNoPage; }
  // `ppn` kNoPage: the same as erase().
  void set(Lpn lpn, Ppn ppn) {
    if (ppn == flash::kNoPage) return erase(lpn);
    bits_[lpn >> 6] |= std::uint64_t{1} << (lpn & 63);
    where_[lpn] = ppn;
  }
  void erase(Lpn lpn) {
    if (!contains(lpn)) return;
    bits_[lpn >> 6] &= ~(std::uint64_t{1} << (lpn & 63));
    where_.erase(lpn);
  }
  std::size_t size() const { return where_.size(); }
  // The entries in logical page order (checkpoints: the same bytes whatever
  // the hash map's order).
  std::vector<std::pair<Lpn, Ppn>> sorted() const {
    std::vector<std::pair<Lpn, Ppn>> entries(where_.begin(), where_.end());
    std::sort(entries.begin(), entries.end());
    return entries;
  }
  // Bytes held (the memory report): the bits, and the hash map's nodes and
  // buckets, counted as in libstdc++ (two pointers and the entry per node).
  std::uint64_t bytes() const {
    return bits_.capacity() * sizeof(std::uint64_t) +
           where_.size() * (sizeof(std::pair<Lpn, Ppn>) + 2 * sizeof(void*)) +
           where_.bucket_count() * sizeof(void*);
  }

 private:
  std::vector<std::uint64_t> bits_;
  std::unordered_map<Lpn, Ppn> where_;
};

}  // namespace ssdlab::ftl
