// The SLC cache's keys ([slc_cache]; ftl/slc_cache_config.h): read and
// checked, echoed into summary.json and checkpoints (only when a cache is
// on, so that other configs echo as before) and described.
#include "sim/config/config_slc_cache.h"

#include <fmt/format.h>

#include <optional>

#include "ftl/ftl.h"
#include "ftl/register.h"

namespace ssdlab::sim::config_detail {

namespace {

// The FTLs that take an SLC cache, from their registrations.
std::string ftls_with_slc_cache() {
  std::string list;
  for (const std::string& name : ftl::ftl_names())
    if (ftl::ftl_key_hooks(name).slc_cache) list += (list.empty() ? "" : ", ") + name;
  return list;
}

// slc_cache.size_by_fill: [[fill, gib], ...], fills from 0 to 1 increasing,
// sizes from static_gib (size_gib caps them: a scaled variant of a preset
// sets a smaller size_gib and keeps the table).
void read_size_by_fill(KeyReader& r, ftl::SlcCacheConfig& c) {
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
      r.fail(dotted, node, fmt::format("{} GiB at fill {} is below static_gib = {}", *gib, *fill,
                                       c.static_gib));
    c.size_by_fill.emplace_back(*fill, *gib);
  }
}

}  // namespace

void read_slc_cache(KeyReader& r, const flash::Geometry& g, const std::string& ftl_type,
                    ftl::SlcCacheConfig& c) {
  r.named("slc_cache", "mode", c.mode, ftl::slc_cache_mode_name(c.mode), ftl::parse_slc_cache_mode,
          "an SLC cache mode (allowed: none, static, dynamic)");
  r.real("slc_cache", "size_gib", c.size_gib, 0.0, 1e6);
  r.real("slc_cache", "static_gib", c.static_gib, 0.0, 1e6);
  r.named("slc_cache", "when_full", c.when_full, ftl::slc_when_full_name(c.when_full),
          ftl::parse_slc_when_full, "what a write does when the cache is full (allowed: native, fold)");
  r.named("slc_cache", "fold_order", c.fold_order, ftl::slc_fold_order_name(c.fold_order),
          ftl::parse_slc_fold_order, "a fold order (allowed: fifo, greedy)");
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
  if (!ftl::ftl_key_hooks(ftl_type).slc_cache)
    fail("mode", fmt::format("the {} FTL has no SLC cache (FTLs with one: {})", ftl_type,
                             ftls_with_slc_cache()));
  if (c.size_gib <= 0) fail("size_gib", "an SLC cache needs a size above 0 GiB");
  if (c.static_gib > 0 && c.mode != ftl::SlcCacheMode::kDynamic)
    fail("static_gib", "only a dynamic cache has a static part (a static cache is size_gib)");
  if (c.static_gib > c.size_gib)
    fail("static_gib", fmt::format("{} GiB is more than the whole cache, size_gib = {}",
                                   c.static_gib, c.size_gib));
  if (c.mode != ftl::SlcCacheMode::kDynamic && r.find("slc_cache", "size_by_fill").first)
    fail("size_by_fill", "only a dynamic cache has a size by fill (a static cache is size_gib)");
}

nlohmann::json slc_cache_json(const ftl::SlcCacheConfig& c) {
  nlohmann::json json = {{"mode", ftl::slc_cache_mode_name(c.mode)},
                         {"size_gib", c.size_gib},
                         {"static_gib", c.static_gib},
                         {"when_full", ftl::slc_when_full_name(c.when_full)},
                         {"fold_order", ftl::slc_fold_order_name(c.fold_order)},
                         {"idle_fold", c.idle_fold}};
  if (!c.size_by_fill.empty()) json["size_by_fill"] = c.size_by_fill;  // (as before without one)
  return json;
}

std::string describe_slc_cache(const ftl::SlcCacheConfig& c) {
  if (!c.on()) return "";
  std::string text = fmt::format("  slc cache   {} {} GiB", ftl::slc_cache_mode_name(c.mode),
                                 c.size_gib);
  if (c.static_gib > 0) text += fmt::format(" ({} GiB of it static)", c.static_gib);
  if (!c.size_by_fill.empty()) {
    text += "; by fill";
    for (const auto& [fill, gib] : c.size_by_fill) text += fmt::format(" {:g}%: {} GiB", fill * 100, gib);
  }
  text += fmt::format("; when full: {}; folds {}{}\n",
                      c.when_full == ftl::SlcWhenFull::kFold ? "wait for folding" : "native cells",
                      ftl::slc_fold_order_name(c.fold_order),
                      c.idle_fold ? ", in idle time too" : " in the foreground only");
  return text;
}

}  // namespace ssdlab::sim::config_detail
