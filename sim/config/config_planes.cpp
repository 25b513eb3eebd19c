// The plane keys of [geometry] (flash/geometry.h: two_plane_pairs,
// multi_plane), read apart from the rest of the geometry (config.cpp).
#include <fmt/format.h>

#include <optional>

#include "flash/geometry.h"
#include "sim/config/config_reader.h"

namespace ssdlab::sim::config_detail {

void read_two_plane_pairs(KeyReader& r, flash::Geometry& g) {
  const auto [pairs_node, pairs_key] = r.find("geometry", "two_plane_pairs");
  if (pairs_node) {
    const toml::array* pairs = pairs_node->as_array();
    if (!pairs)
      r.fail(pairs_key, pairs_node, "expected an array of plane pairs, e.g. [[0, 1], [2, 3]]");
    g.two_plane_pairs.clear();
    for (const toml::node& pair : *pairs) {
      const toml::array* two = pair.as_array();
      std::optional<std::int64_t> a, b;
      if (two && two->size() == 2)
        a = (*two)[0].value_exact<std::int64_t>(), b = (*two)[1].value_exact<std::int64_t>();
      if (!a || !b || *a < 0 || *b < 0 || *a >= g.planes_per_die || *b >= g.planes_per_die ||
          *a == *b)
        r.fail(pairs_key, pairs_node,
               fmt::format("each pair is two different planes of a die, 0 to {}",
                           g.planes_per_die - 1));
      g.two_plane_pairs.emplace_back(static_cast<std::uint32_t>(*a),
                                     static_cast<std::uint32_t>(*b));
    }
  } else if (g.planes_per_die < 4) {
    // The Samsung default pairs 0&1, 2&3 only where those planes exist.
    std::erase_if(g.two_plane_pairs, [&g](const auto& p) { return p.second >= g.planes_per_die; });
  }
}

// geometry.multi_plane: 2, or 4 on a four-plane die whose two pairs share no
// plane, with plane interleaving (the scheduler joins at dispatch).
void read_multi_plane(KeyReader& r, flash::Geometry& g) {
  r.integer("geometry", "multi_plane", g.multi_plane, 2, 4);
  if (g.multi_plane == 2) return;
  const auto [node, dotted] = r.find("geometry", "multi_plane");
  if (g.multi_plane != 4) r.fail(dotted, node, fmt::format("{} is neither 2 nor 4", g.multi_plane));
  if (g.planes_per_die != 4)
    r.fail(dotted, node,
           fmt::format("4 joins the four planes of a die; planes_per_die is {}", g.planes_per_die));
  const auto& pairs = g.two_plane_pairs;
  const bool apart = pairs.size() == 2 && pairs[0].first != pairs[1].first &&
                     pairs[0].first != pairs[1].second && pairs[0].second != pairs[1].first &&
                     pairs[0].second != pairs[1].second;
  if (!apart)
    r.fail(dotted, node,
           "4 joins two plane pairs that share no plane: two_plane_pairs must be "
           "two such pairs, e.g. [[0, 1], [2, 3]]");
  if (g.interleaving != flash::Interleaving::kPlanes)
    r.fail(dotted, node, "4 joins planes at dispatch: it needs interleaving = \"planes\"");
}

}  // namespace ssdlab::sim::config_detail
