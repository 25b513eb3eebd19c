// The SLC cache's config table ([slc_cache]; slc_cache_config.h), beside the
// part: read and checked, echoed into summary.json and checkpoints (only
// when a cache is on, so that other configs echo as before), described, and
// documented. The FTLs that take a cache list slc_cache_keys in their hooks.
#include "ftl/slc_cache_keys.h"

#include <fmt/format.h>

#include <optional>
#include <string>
#include <utility>

#include "common/toml_keys.h"

namespace ssdlab::ftl {

namespace {

constexpr KeyDoc kSlcCache[] = {
    {"mode",
     "`none` (default), `static` (a fixed cache, out of the spare area: the capacity the host "
     "sees stays, unless the spare cannot hold the cache beside what cleaning keeps free), "
     "`dynamic` (free blocks, shrinking as the logical space fills)"},
    {"size_gib",
     "GiB of SLC data: a static cache's size, a dynamic cache's most (when the drive is "
     "empty); above 0 with a cache, at most 10^6"},
    {"static_gib",
     "dynamic only: a part of `size_gib` kept as a static cache (out of the spare area), so "
     "that a full drive keeps it; 0 (the default) to `size_gib`"},
    {"size_by_fill",
     "dynamic only: the firmware's size by fill, as makers publish it: `[[fill, GiB], ...]`, "
     "fills from 0 to 1 increasing, each size at least `static_gib`; the cache opens no "
     "block beyond the table's size (linear between points, flat beyond the ends, capped by "
     "`size_gib`) at the fill of the native cells (the logical space mapped, less what the "
     "cache holds); the free-space rule stays an upper bound. Default: none ([The cache by "
     "fill](../current-devices.md#the-cache-by-fill))"},
    {"when_full",
     "`native` (default): host writes go to the native cells; `fold`: a write waits while "
     "the next cache block is folded"},
    {"fold_order",
     "`fifo` (default): the oldest cache block folds first; `greedy`: the one with the fewest "
     "valid pages; or the name of an order registered by code of one's own (see [A victim "
     "policy of your own](../guide-ftl-research.md#a-victim-policy-of-your-own))"},
    {"idle_fold",
     "true (default): fold sealed cache blocks while a pool's dies are idle (the background "
     "cleaner; preemptible with `controller.background_cleaning_preempt`)"},
};

// slc_cache.size_by_fill: [[fill, gib], ...], fills from 0 to 1 increasing,
// sizes from static_gib (size_gib caps them: a scaled variant of a preset
// sets a smaller size_gib and keeps the table).
void read_size_by_fill(KeyReader& r, SlcCacheConfig& c) {
  const auto [node, dotted] = r.find("slc_cache", "size_by_fill");
  if (!node) return;
  const toml::array* points = node->as_array();
  if (!points || points->empty())
    r.fail(dotted, node, "expected [fill, GiB] points, e.g. [[0.0, 130.4], [0.75, 11.2]]");
  c.size_by_fill.clear();
  for (const toml::node& point : *points) {
    const toml::array* two = point.as_array();
    std::optional<double> fill, gib;
    if (two && two->size() == 2) fill = (*two)[0].value<double>(), gib = (*two)[1].value<double>();
    if (!fill || !gib)
      r.fail(dotted, node, "each point is [fill, GiB]: two numbers, e.g. [0.75, 11.2]");
    if (!(*fill >= 0 && *fill <= 1) ||
        (!c.size_by_fill.empty() && *fill <= c.size_by_fill.back().first))
      r.fail(dotted, node,
             fmt::format("fill {} is not between 0 and 1 and above the point before it", *fill));
    if (!(*gib >= c.static_gib && *gib <= 1e6))  // (above size_gib: capped by it)
      r.fail(dotted, node,
             fmt::format("{} GiB at fill {} is below static_gib = {}", *gib, *fill, c.static_gib));
    c.size_by_fill.emplace_back(*fill, *gib);
  }
}

void read_slc_cache(KeyReader& r, const flash::Geometry& g, FtlConfig& f) {
  SlcCacheConfig& c = f.slc_cache;
  r.named("slc_cache", "mode", c.mode, slc_cache_mode_name(c.mode), parse_slc_cache_mode,
          "an SLC cache mode (allowed: none, static, dynamic)");
  r.real("slc_cache", "size_gib", c.size_gib, 0.0, 1e6);
  r.real("slc_cache", "static_gib", c.static_gib, 0.0, 1e6);
  r.named("slc_cache", "when_full", c.when_full, slc_when_full_name(c.when_full),
          parse_slc_when_full, "what a write does when the cache is full (allowed: native, fold)");
  std::string fold_order = slc_fold_order_name(c);
  r.string("slc_cache", "fold_order", fold_order);
  if (!parse_slc_fold_order(fold_order, c)) {
    const auto [node, dotted] = r.find("slc_cache", "fold_order");
    r.fail(
        dotted, node,
        fmt::format("'{}' is not a fold order (allowed: {})", fold_order, slc_fold_order_names()));
  }
  r.boolean("slc_cache", "idle_fold", c.idle_fold);
  read_size_by_fill(r, c);
  c.bits_per_cell = g.bits_per_cell();
  if (!c.on()) return;
  const auto fail = [&r](const char* key, const std::string& what) {
    const auto [node, dotted] = r.find("slc_cache", key);
    r.fail(dotted, node, what);
  };
  if (g.bits_per_cell() < 2)
    fail("mode", fmt::format("an SLC cache needs cells of several bits: geometry.cell_type is "
                             "\"{}\" (use mlc, tlc or qlc)",
                             flash::cell_type_name(g.cell_type)));
  if (c.size_gib <= 0) fail("size_gib", "an SLC cache needs a size above 0 GiB");
  if (c.static_gib > 0 && c.mode != SlcCacheMode::kDynamic)
    fail("static_gib", "only a dynamic cache has a static part (a static cache is size_gib)");
  if (c.static_gib > c.size_gib)
    fail("static_gib", fmt::format("{} GiB is more than the whole cache, size_gib = {}",
                                   c.static_gib, c.size_gib));
  if (c.mode != SlcCacheMode::kDynamic && r.find("slc_cache", "size_by_fill").first)
    fail("size_by_fill", "only a dynamic cache has a size by fill (a static cache is size_gib)");
}

void echo_slc_cache(const FtlConfig& f, nlohmann::json& echo) {
  const SlcCacheConfig& c = f.slc_cache;
  nlohmann::json json = {
      {"mode", slc_cache_mode_name(c.mode)},  {"size_gib", c.size_gib},
      {"static_gib", c.static_gib},           {"when_full", slc_when_full_name(c.when_full)},
      {"fold_order", slc_fold_order_name(c)}, {"idle_fold", c.idle_fold}};
  if (!c.size_by_fill.empty()) json["size_by_fill"] = c.size_by_fill;  // (as before without one)
  echo["slc_cache"] = std::move(json);
}

void describe_slc_cache(const FtlConfig& f, std::string& out) {
  const SlcCacheConfig& c = f.slc_cache;
  std::string text =
      fmt::format("  slc cache   {} {} GiB", slc_cache_mode_name(c.mode), c.size_gib);
  if (c.static_gib > 0) text += fmt::format(" ({} GiB of it static)", c.static_gib);
  if (!c.size_by_fill.empty()) {
    text += "; by fill";
    for (const auto& [fill, gib] : c.size_by_fill)
      text += fmt::format(" {:g}%: {} GiB", fill * 100, gib);
  }
  text += fmt::format("; when full: {}; folds {}{}\n",
                      c.when_full == SlcWhenFull::kFold ? "wait for folding" : "native cells",
                      slc_fold_order_name(c),
                      c.idle_fold ? ", in idle time too" : " in the foreground only");
  out += text;
}

constexpr TableDoc kSlcCacheTable{
    "slc_cache", "[slc_cache]",
    "blocks of a multi-bit device run one bit per cell to absorb host writes (how it works: "
    "[SLC cache](../model.md#slc-cache)); page-mapped and dftl on cells of several bits only "
    "(see [SLC cache](#slc-cache)); no table: no cache",
    kSlcCache};

}  // namespace

const FtlPartKeys slc_cache_keys{
    &kSlcCacheTable, "SLC cache",
    &read_slc_cache, [](const FtlConfig& f) { return f.slc_cache.on(); },
    &echo_slc_cache, &describe_slc_cache};

}  // namespace ssdlab::ftl
