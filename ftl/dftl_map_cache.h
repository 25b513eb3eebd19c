// DFTL's Cached Mapping Table (Gupta, Kim, Urgaonkar, ASPLOS 2009, §3): the
// map entries of recently used logical pages, held in the controller's DRAM.
// The full map lives in translation pages on flash; an entry not cached is
// read from its translation page (a miss), and an entry changed in the cache
// (dirty) reaches flash only when it is evicted: its translation page is then
// rewritten, and every other dirty cached entry of that translation page is
// written with it (batched write-back, §3.2).
//
// Replacement is segmented LRU (Karedla et al. 1994): a new entry enters the
// probationary segment; a hit there promotes it to the protected segment
// (at most half the capacity, its least recently used entry demoted back);
// eviction takes the least recently used probationary entry (a protected one
// only if none). One scan of cold pages cannot flush the entries used twice.
//
// Entries that cleaning changes (data pages it moved) are updated in place
// if cached (the paper's lazy copying); otherwise they are added dirty at the
// cold end, over capacity if need be, so that cleaning never writes a
// translation page itself: the next miss evicts them, batched per translation
// page, before its own entry comes in (dftl.cpp).
//
// Memory: a 4-byte index per logical page, 24 bytes per cached entry, 4 per
// translation page. Each translation page lists its dirty cached entries, so
// a write-back cleans them without walking the rest of the cache. The map
// values themselves are the FTL's map (the model keeps the whole map for
// correctness; this class models what is cached).
#pragma once

#include <cstdint>
#include <vector>

#include "common/state_io.h"
#include "flash/command.h"

namespace ssdlab::ftl {

// DFTL's own [ftl] keys (dftl_keys.cpp), held in FtlConfig::keys.
struct DftlKeys {
  // Logical pages whose map entries the controller's DRAM caches; 0: the
  // FTL's default (2% of the map). `ftl.map_cache_entries`, or
  // `ftl.map_cache_bytes` at kDftlCacheEntryBytes per entry.
  std::uint64_t map_cache_entries = 0;
  // Entries a miss loads from the translation page it reads: the missed one
  // and those after it in the same page (`ftl.map_cache_prefetch`; 1 is the
  // paper's DFTL, which loads only the missed entry).
  std::uint32_t map_cache_prefetch = 8;
};

class MapCache {
 public:
  // `logical_pages` data pages, `entries_per_page` entries per translation
  // page, room for `capacity` (>= 1) entries; a miss loads `prefetch` (>= 1)
  // entries of its translation page (DftlKeys::map_cache_prefetch).
  MapCache(std::uint64_t logical_pages, std::uint32_t entries_per_page, std::uint64_t capacity,
           std::uint32_t prefetch);

  std::uint64_t capacity() const { return capacity_; }
  std::uint32_t prefetch() const { return prefetch_; }
  std::uint64_t size() const { return size_; }
  bool contains(flash::Lpn lpn) const { return index_[lpn] != kNil; }
  std::uint32_t translation_page_of(flash::Lpn lpn) const { return lpn / entries_per_page_; }

  // A lookup: true (and the entry made most recent) if `lpn` is cached.
  bool touch(flash::Lpn lpn);
  // Adds the absent `lpn` as the most recent probationary entry.
  void insert(flash::Lpn lpn);
  // Adds the absent `lpn` as the least recent probationary entry (prefetched
  // with a miss: the first to go unless it is used).
  void insert_cold(flash::Lpn lpn);
  // `lpn`'s entry now differs from its translation page. Normally cached (the
  // request looked it up); if a later lookup of the same request evicted it,
  // it comes back as the most recent entry, over capacity until the next miss.
  void mark_dirty(flash::Lpn lpn);
  // Cleaning moved `lpn`'s data: dirty in place, or added dirty at the cold end.
  void moved(flash::Lpn lpn);

  struct Evicted {
    flash::Lpn lpn;
    bool dirty;
  };
  // Removes the replacement victim (size() > 0).
  Evicted evict();
  // Translation page `page` was written: its cached entries are clean.
  void cleaned(std::uint32_t page);

  // Forgets every entry (a power cut: DRAM is lost).
  void clear();
  std::uint64_t dirty_entries() const;
  // Throws std::logic_error if lists, index and counts disagree. O(size).
  void check_invariants() const;

  // Checkpoints: section "DMAP", the entries from cold to hot per segment.
  void save_state(StateWriter& out) const;
  void load_state(StateReader& in);

 private:
  static constexpr std::uint32_t kNil = ~std::uint32_t{0};
  static constexpr std::uint32_t kProbation = 0, kProtected = 1;  // sentinel nodes
  struct Node {
    flash::Lpn lpn = flash::kNoLpn;
    std::uint32_t prev = kNil, next = kNil;    // segment list, circular through its sentinel
    std::uint32_t tprev = kNil, tnext = kNil;  // dirty entries of the same translation page
    std::uint8_t segment = 0;
    bool dirty = false;
  };

  std::uint32_t allocate(flash::Lpn lpn);
  void link_hot(std::uint32_t node, std::uint32_t segment);   // most recent end
  void link_cold(std::uint32_t node, std::uint32_t segment);  // least recent end
  void unlink(std::uint32_t node);
  void remove(std::uint32_t node);
  void set_dirty(std::uint32_t node);  // into its translation page's dirty list
  void unlink_dirty(std::uint32_t node);

  std::uint32_t entries_per_page_;
  std::uint32_t prefetch_;
  std::uint64_t capacity_;
  std::uint64_t protected_capacity_;
  std::uint64_t size_ = 0;
  std::uint64_t protected_size_ = 0;
  std::vector<std::uint32_t> index_;      // per logical page: its node, or kNil
  std::vector<std::uint32_t> page_head_;  // per translation page: first dirty entry
  std::vector<Node> nodes_;               // [0], [1]: the segments' sentinels
  std::vector<std::uint32_t> free_nodes_;
};

}  // namespace ssdlab::ftl
