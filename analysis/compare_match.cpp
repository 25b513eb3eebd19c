#include "analysis/compare_match.h"

#include <algorithm>
#include <optional>

#include "common/error.h"
#include "common/suggest.h"

namespace ssdlab::analysis {
namespace {

std::optional<std::size_t> find(const std::vector<ExperimentFigures>& side, std::string_view name) {
  for (std::size_t i = 0; i < side.size(); ++i)
    if (side[i].name == name) return i;
  return std::nullopt;
}

std::vector<std::string> names(const std::vector<ExperimentFigures>& side) {
  std::vector<std::string> list;
  for (const auto& experiment : side) list.push_back(experiment.name);
  return list;
}

std::string label(const std::string& a, const std::string& b) {
  return a == b ? a : a + " ~ " + b;
}

// One --map: the split at an '=' where both names exist.
MatchedPair parse_map(const std::string& map, const std::vector<ExperimentFigures>& a,
                      const std::vector<ExperimentFigures>& b) {
  std::size_t equals = map.find('=');
  if (equals == std::string::npos)
    throw make_error("--map '{}': expected A-NAME=B-NAME (experiment names of A and B)", map);
  for (std::size_t at = equals; at != std::string::npos; at = map.find('=', at + 1)) {
    const auto ia = find(a, map.substr(0, at)), ib = find(b, map.substr(at + 1));
    if (ia && ib) return {*ia, *ib, label(a[*ia].name, b[*ib].name)};
  }
  // Report the first split's names: the usual case has no '=' in A's name.
  const std::string left = map.substr(0, equals), right = map.substr(equals + 1);
  if (!find(a, left))
    throw make_error("--map '{}': A has no experiment '{}'{}", map, left,
                     did_you_mean(left, names(a)));
  throw make_error("--map '{}': B has no experiment '{}'{}", map, right,
                   did_you_mean(right, names(b)));
}

}  // namespace

MatchBy parse_match(std::string_view text) {
  if (text == "name") return MatchBy::kName;
  if (text == "order") return MatchBy::kOrder;
  throw make_error("--match '{}': expected name or order", text);
}

std::vector<MatchedPair> match_experiments(const std::vector<ExperimentFigures>& a,
                                           const std::vector<ExperimentFigures>& b, MatchBy by,
                                           const std::vector<std::string>& maps) {
  std::vector<MatchedPair> pairs;
  std::vector<bool> used_a(a.size()), used_b(b.size());
  for (const std::string& map : maps) {
    MatchedPair pair = parse_map(map, a, b);
    if (used_a[pair.a] || used_b[pair.b])
      throw make_error("--map '{}': '{}' is already mapped", map,
                       used_a[pair.a] ? a[pair.a].name : b[pair.b].name);
    used_a[pair.a] = used_b[pair.b] = true;
    pairs.push_back(std::move(pair));
  }
  if (by == MatchBy::kName) {
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (used_a[i]) continue;
      const auto j = find(b, a[i].name);
      if (!j || used_b[*j]) continue;
      used_a[i] = used_b[*j] = true;
      pairs.push_back({i, *j, a[i].name});
    }
  } else {
    // The unmapped experiments of each side, paired in their order.
    std::size_t j = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (used_a[i]) continue;
      while (j < b.size() && used_b[j]) ++j;
      if (j == b.size()) break;
      used_a[i] = used_b[j] = true;
      pairs.push_back({i, j, label(a[i].name, b[j].name)});
    }
  }
  std::sort(pairs.begin(), pairs.end(),
            [](const MatchedPair& x, const MatchedPair& y) { return x.a < y.a; });
  return pairs;
}

}  // namespace ssdlab::analysis
