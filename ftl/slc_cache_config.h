// The SLC cache's settings (`[slc_cache]`; docs/reference/config.md, "SLC
// cache"): blocks of multi-bit cells run one bit per cell to absorb writes
// at SLC speed, their data folded into the native cells later.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ssdlab::ftl {

// none: every write goes to the native cells. static: a fixed number of
// blocks, taken out of the capacity the host sees, run in SLC mode. dynamic:
// free blocks run in SLC mode while the free space allows (the cache shrinks
// as the logical space fills), up to size_gib, plus an optional static part.
enum class SlcCacheMode : std::uint8_t { kNone, kStatic, kDynamic };
// What a host write does when the cache has no room: go to the native cells
// (the "write cliff" of client drives), or wait while the oldest cache
// block is folded in the foreground.
enum class SlcWhenFull : std::uint8_t { kNative, kFold };
// Which cache block folding empties first: the oldest (fifo), or the one
// holding the fewest valid pages (greedy: rewrites inside the cache fold
// for free); kRegistered: an order registered by name (ftl/register.h,
// register_slc_fold_order), which fold_registered says.
enum class SlcFoldOrder : std::uint8_t { kFifo, kGreedy, kRegistered };

struct SlcCacheConfig {
  SlcCacheMode mode = SlcCacheMode::kNone;
  double size_gib = 0;    // static: its size; dynamic: its most (SLC bytes, GiB)
  double static_gib = 0;  // dynamic only: a part kept at any fill, out of the spare area
  // Dynamic only: the firmware's size by fill, as drive makers publish it:
  // (fill, GiB) points, fill the share of the logical space mapped (0 to 1,
  // increasing), GiB the whole cache's most at that fill (size_gib caps
  // it); linear between points, flat beyond the ends. Empty: no table (the
  // free space alone bounds the cache, as always).
  std::vector<std::pair<double, double>> size_by_fill;
  SlcWhenFull when_full = SlcWhenFull::kNative;
  SlcFoldOrder fold_order = SlcFoldOrder::kFifo;
  bool idle_fold = true;  // fold in idle time, preemptible as background cleaning
  // fold_order kRegistered: which, in registration order (registered_slc_fold_order_names()).
  std::uint8_t fold_registered = 0;
  // Bits per native cell (from geometry.cell_type; the config reader sets it).
  std::uint32_t bits_per_cell = 1;

  bool on() const { return mode != SlcCacheMode::kNone; }
  // size_by_fill at `fill` (GiB); only with a table.
  double size_at_fill(double fill) const;
};

const char* slc_cache_mode_name(SlcCacheMode mode);
bool parse_slc_cache_mode(std::string_view name, SlcCacheMode& out);
const char* slc_when_full_name(SlcWhenFull when);
bool parse_slc_when_full(std::string_view name, SlcWhenFull& out);
// The fold order's name, a registered one's included.
std::string slc_fold_order_name(const SlcCacheConfig& config);
// Sets fold_order (and fold_registered); false if `name` is no fold order.
bool parse_slc_fold_order(std::string_view name, SlcCacheConfig& config);
// "fifo, greedy", then the registered ones (for error messages).
std::string slc_fold_order_names();

}  // namespace ssdlab::ftl
