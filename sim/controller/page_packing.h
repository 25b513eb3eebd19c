// Packing map units into whole flash pages (issue 53 item 2): logical pages
// gathered from several host writes (a write buffer's flush, a batch of
// preconditioning writes) are sorted by the allocation pool whose flash
// pages they go to (ftl::Ftl::pool_of_page), and each pool gives a whole
// number of pages; the units left over wait for the next gathering, as a
// drive's controller keeps in DRAM what fills no page of its die.
#pragma once

#include <cstdint>
#include <vector>

#include "ftl/ftl.h"

namespace ssdlab::sim {

class PagePacker {
 public:
  explicit PagePacker(std::uint32_t units_per_page) : units_(units_per_page) {}

  // Splits `pages` (oldest first, each once) into pools() (per pool, in age
  // order, whole pages) and waiting() (the rest, oldest first); all of them
  // go to pools() if fewer than `at_least` would. `pool_of(lpn)` gives a
  // page's pool.
  template <class PoolOf>
  void pack(const std::vector<ftl::Lpn>& pages, const PoolOf& pool_of, std::uint64_t at_least) {
    pack(pages, pool_of, at_least, [this](std::uint32_t) { return units_; });
  }
  // The same with each pool's own whole number: `units_of(pool)` units (a
  // one-shot wordline stripe, whose size follows the kind of block the
  // pool's writes go to).
  template <class PoolOf, class UnitsOf>
  void pack(const std::vector<ftl::Lpn>& pages, const PoolOf& pool_of, std::uint64_t at_least,
            const UnitsOf& units_of) {
    for (std::vector<ftl::Lpn>& pool : pools_) pool.clear();
    pool_of_.clear();
    waiting_.clear();
    for (const ftl::Lpn lpn : pages) {
      const std::uint32_t pool = pool_of(lpn);
      if (pool >= pools_.size()) pools_.resize(pool + 1);
      pools_[pool].push_back(lpn);
      pool_of_.push_back(pool);
    }
    units_of_.resize(pools_.size());
    for (std::size_t pool = 0; pool < pools_.size(); ++pool)
      units_of_[pool] = units_of(static_cast<std::uint32_t>(pool));
    wait_newest(pages, at_least);
  }
  const std::vector<std::vector<ftl::Lpn>>& pools() const { return pools_; }
  // The whole number of units pool `pool` was packed in.
  std::uint64_t units_of(std::uint32_t pool) const { return units_of_[pool]; }
  const std::vector<ftl::Lpn>& waiting() const { return waiting_; }

 private:
  // Each pool's newest units beyond its whole pages go to waiting_.
  void wait_newest(const std::vector<ftl::Lpn>& pages, std::uint64_t at_least) {
    std::uint64_t waiting = 0;
    left_.assign(pools_.size(), 0);
    for (std::size_t pool = 0; pool < pools_.size(); ++pool)
      waiting += left_[pool] = pools_[pool].size() % units_of_[pool];
    if (waiting == 0 || pages.size() - waiting < at_least) return;
    for (std::size_t i = pages.size(); i-- > 0;)
      if (std::uint64_t& left = left_[pool_of_[i]]; left > 0) {
        --left;
        pool_of_[i] = kWaiting;
      }
    for (std::size_t i = 0; i < pages.size(); ++i)
      if (pool_of_[i] == kWaiting) waiting_.push_back(pages[i]);
    for (std::size_t pool = 0; pool < pools_.size(); ++pool)
      pools_[pool].resize(pools_[pool].size() - pools_[pool].size() % units_of_[pool]);
  }

  static constexpr std::uint32_t kWaiting = ~std::uint32_t{0};
  std::uint32_t units_;
  std::vector<std::vector<ftl::Lpn>> pools_;
  std::vector<ftl::Lpn> waiting_;
  std::vector<std::uint32_t> pool_of_;  // each page's pool (kWaiting: it waits)
  std::vector<std::uint64_t> left_;     // per pool, units still to set waiting
  std::vector<std::uint64_t> units_of_;  // per pool, its whole number (pack())
};

}  // namespace ssdlab::sim
