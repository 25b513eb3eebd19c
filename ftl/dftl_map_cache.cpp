#include "ftl/dftl_map_cache.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "common/error.h"

namespace ssdlab::ftl {

MapCache::MapCache(std::uint64_t logical_pages, std::uint32_t entries_per_page,
                   std::uint64_t capacity, std::uint32_t prefetch)
    : entries_per_page_(entries_per_page),
      prefetch_(std::max<std::uint32_t>(prefetch, 1)),
      capacity_(std::max<std::uint64_t>(capacity, 1)),
      protected_capacity_(capacity_ / 2),
      index_(logical_pages, kNil),
      page_head_((logical_pages + entries_per_page - 1) / entries_per_page, kNil) {
  clear();
}

void MapCache::clear() {
  std::fill(index_.begin(), index_.end(), kNil);
  std::fill(page_head_.begin(), page_head_.end(), kNil);
  nodes_.assign(2, Node{});
  for (const std::uint32_t sentinel : {kProbation, kProtected})
    nodes_[sentinel].prev = nodes_[sentinel].next = sentinel;
  free_nodes_.clear();
  size_ = protected_size_ = 0;
}

std::uint32_t MapCache::allocate(flash::Lpn lpn) {
  std::uint32_t node;
  if (!free_nodes_.empty()) {
    node = free_nodes_.back();
    free_nodes_.pop_back();
    nodes_[node] = Node{};
  } else {
    node = static_cast<std::uint32_t>(nodes_.size());
    nodes_.emplace_back();
  }
  nodes_[node].lpn = lpn;
  index_[lpn] = node;
  ++size_;
  return node;
}

void MapCache::link_hot(std::uint32_t node, std::uint32_t segment) {
  // The sentinel's next is the most recent entry.
  Node& n = nodes_[node];
  n.segment = static_cast<std::uint8_t>(segment);
  n.prev = segment;
  n.next = nodes_[segment].next;
  nodes_[n.next].prev = node;
  nodes_[segment].next = node;
  if (segment == kProtected) ++protected_size_;
}

void MapCache::link_cold(std::uint32_t node, std::uint32_t segment) {
  Node& n = nodes_[node];
  n.segment = static_cast<std::uint8_t>(segment);
  n.next = segment;
  n.prev = nodes_[segment].prev;
  nodes_[n.prev].next = node;
  nodes_[segment].prev = node;
  if (segment == kProtected) ++protected_size_;
}

void MapCache::unlink(std::uint32_t node) {
  Node& n = nodes_[node];
  nodes_[n.prev].next = n.next;
  nodes_[n.next].prev = n.prev;
  if (n.segment == kProtected) --protected_size_;
}

void MapCache::set_dirty(std::uint32_t node) {
  Node& n = nodes_[node];
  if (n.dirty) return;
  n.dirty = true;
  // Into its translation page's dirty list (order there does not matter).
  const std::uint32_t page = translation_page_of(n.lpn);
  n.tprev = kNil;
  n.tnext = page_head_[page];
  if (n.tnext != kNil) nodes_[n.tnext].tprev = node;
  page_head_[page] = node;
}

void MapCache::unlink_dirty(std::uint32_t node) {
  Node& n = nodes_[node];
  if (!n.dirty) return;
  if (n.tprev == kNil)
    page_head_[translation_page_of(n.lpn)] = n.tnext;
  else
    nodes_[n.tprev].tnext = n.tnext;
  if (n.tnext != kNil) nodes_[n.tnext].tprev = n.tprev;
  n.tprev = n.tnext = kNil;
  n.dirty = false;
}

void MapCache::remove(std::uint32_t node) {
  unlink(node);
  unlink_dirty(node);
  Node& n = nodes_[node];
  index_[n.lpn] = kNil;
  free_nodes_.push_back(node);
  --size_;
}

bool MapCache::touch(flash::Lpn lpn) {
  const std::uint32_t node = index_[lpn];
  if (node == kNil) return false;
  unlink(node);
  link_hot(node, kProtected);
  if (protected_size_ > protected_capacity_) {
    // The protected segment's least recent entry goes back to probation.
    const std::uint32_t demoted = nodes_[kProtected].prev;
    unlink(demoted);
    link_hot(demoted, kProbation);
  }
  return true;
}

void MapCache::insert(flash::Lpn lpn) {
  if (index_[lpn] != kNil) throw std::logic_error("map cache: entry inserted twice");
  link_hot(allocate(lpn), kProbation);
}

void MapCache::insert_cold(flash::Lpn lpn) {
  if (index_[lpn] != kNil) throw std::logic_error("map cache: entry inserted twice");
  link_cold(allocate(lpn), kProbation);
}

void MapCache::mark_dirty(flash::Lpn lpn) {
  if (index_[lpn] == kNil) link_hot(allocate(lpn), kProbation);
  set_dirty(index_[lpn]);
}

void MapCache::moved(flash::Lpn lpn) {
  if (index_[lpn] == kNil) link_cold(allocate(lpn), kProbation);
  set_dirty(index_[lpn]);
}

MapCache::Evicted MapCache::evict() {
  std::uint32_t victim = nodes_[kProbation].prev;
  if (victim == kProbation) victim = nodes_[kProtected].prev;
  if (victim == kProtected) throw std::logic_error("map cache: evicting from an empty cache");
  const Evicted evicted{nodes_[victim].lpn, nodes_[victim].dirty};
  remove(victim);
  return evicted;
}

void MapCache::cleaned(std::uint32_t page) {
  while (page_head_[page] != kNil) unlink_dirty(page_head_[page]);
}

std::uint64_t MapCache::dirty_entries() const {
  std::uint64_t dirty = 0;
  for (const std::uint32_t segment : {kProbation, kProtected})
    for (std::uint32_t node = nodes_[segment].next; node != segment; node = nodes_[node].next)
      dirty += nodes_[node].dirty ? 1 : 0;
  return dirty;
}

void MapCache::check_invariants() const {
  auto fail = [](const std::string& what) { throw std::logic_error("map cache: " + what); };
  std::uint64_t seen = 0, protected_seen = 0;
  for (const std::uint32_t segment : {kProbation, kProtected}) {
    for (std::uint32_t node = nodes_[segment].next; node != segment; node = nodes_[node].next) {
      const Node& n = nodes_[node];
      if (n.segment != segment || nodes_[n.next].prev != node || index_[n.lpn] != node)
        fail(fmt::format("entry of logical page {} is out of its lists", n.lpn));
      ++seen;
      protected_seen += segment == kProtected ? 1 : 0;
      if (seen > size_) fail("more entries in the lists than counted");
    }
  }
  if (seen != size_ || protected_seen != protected_size_)
    fail(fmt::format("{} entries listed, {} counted", seen, size_));
  std::uint64_t in_pages = 0;
  for (std::uint32_t page = 0; page < page_head_.size(); ++page)
    for (std::uint32_t node = page_head_[page]; node != kNil; node = nodes_[node].tnext) {
      if (translation_page_of(nodes_[node].lpn) != page || !nodes_[node].dirty ||
          index_[nodes_[node].lpn] != node)
        fail(fmt::format("logical page {} listed dirty under translation page {}", nodes_[node].lpn,
                         page));
      if (++in_pages > size_) fail("translation page lists hold more entries than counted");
    }
  if (in_pages != dirty_entries()) fail("the dirty lists miss dirty entries");
}

void MapCache::save_state(StateWriter& out) const {
  out.section("DMAP", 1);
  for (const std::uint32_t segment : {kProbation, kProtected}) {
    std::vector<flash::Lpn> lpns;
    std::vector<std::uint8_t> dirty;
    // Cold to hot, so that loading by link_hot rebuilds the order.
    for (std::uint32_t node = nodes_[segment].prev; node != segment; node = nodes_[node].prev) {
      lpns.push_back(nodes_[node].lpn);
      dirty.push_back(nodes_[node].dirty ? 1 : 0);
    }
    out.u64(lpns.size());
    for (std::size_t i = 0; i < lpns.size(); ++i) {
      out.u32(lpns[i]);
      out.u8(dirty[i]);
    }
  }
}

void MapCache::load_state(StateReader& in) {
  in.section("DMAP", 1);
  clear();
  for (const std::uint32_t segment : {kProbation, kProtected}) {
    const std::uint64_t count = in.count(index_.size(), "the cached map entries");
    for (std::uint64_t i = 0; i < count; ++i) {
      const flash::Lpn lpn = in.u32();
      const bool dirty = in.u8() != 0;
      if (lpn >= index_.size() || index_[lpn] != kNil)
        throw make_error("corrupt: the map cache lists logical page {}", lpn);
      const std::uint32_t node = allocate(lpn);
      link_hot(node, segment);
      if (dirty) set_dirty(node);
    }
  }
}

}  // namespace ssdlab::ftl
