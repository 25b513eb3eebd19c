// Allocation pools: which planes each pool owns, and in which order a pool
// hands out its planes so that consecutive writes spread over packages, then
// dies, then planes (Agrawal et al. §3.1, "parallel access").
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "common/fast_div.h"
#include "flash/geometry.h"
#include "ftl/ftl.h"

namespace ssdlab::ftl {

class PoolLayout {
 public:
  PoolLayout(const flash::Geometry& geometry, PoolScope scope);

  std::uint32_t pools() const { return pools_.divisor(); }
  std::uint32_t planes_per_pool() const { return planes_per_pool_.divisor(); }
  // Planes of `pool` in allocation order.
  const std::vector<std::uint32_t>& planes(std::uint32_t pool) const { return order_[pool]; }
  std::uint32_t pool_of_plane(std::uint32_t plane) const {
    return planes_per_pool_.quotient(plane);
  }
  // The pool of the `stripe`-th stripe of logical pages: stripes go round the pools.
  std::uint32_t pool_of_stripe(std::uint32_t stripe) const { return pools_.remainder(stripe); }

  // Number of pools the scope gives on `geometry` (1 for the whole SSD).
  static std::uint32_t pool_count(const flash::Geometry& geometry, PoolScope scope);

 private:
  // Counts kept as divisors (common/fast_div.h): pool_of_plane() and
  // pool_of_stripe() are on every write's path.
  FastDiv pools_, planes_per_pool_;
  std::vector<std::vector<std::uint32_t>> order_;
};

// Merges pairs of single-plane commands of the same kind (program or read;
// with `erases`, erase too) in `commands[from..]` that are on an allowed
// two-plane pair of one die at the same page offset and in the same stage
// into two-plane commands. Keeps order otherwise; the merged command takes
// the first one's place, and no merge reaches across a cleaning command.
// With `wordline_previous` (one-shot wordlines, whose die latches wait for
// each page in turn: flash/die_latches.h; it gives the page programmed just
// before a page in its wordline, kNoPage for a wordline's first page), no
// merge moves a program ahead of one on its own plane (a page before the
// page before it in its block), and two later pages of wordlines join only
// if their wordlines' pages before were joined too: a wordline begun alone
// holds its die's latches, so the other plane's first page waits for it to
// end, and a joined later page that needs both waited for ever (DFTL's
// translation wordlines, padded together: docs/model.md, "A scheduler
// deadlock"). Without, a merge may move a program ahead, as it always did:
// a known approximation (docs/model.md), kept so that results stay put.
// (Cleaning's erases join in the flash scheduler, queued behind its moves;
// a zone reset's, on idle dies, join here: one multi-plane erase either way.)
void merge_two_plane(const flash::FastGeometry& geometry, flash::CommandList& commands,
                     std::size_t from, bool erases = false,
                     const std::function<flash::Ppn(flash::Ppn)>& wordline_previous = nullptr);

}  // namespace ssdlab::ftl
