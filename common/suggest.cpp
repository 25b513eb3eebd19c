#include "common/suggest.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace ssdlab {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment: Levenshtein plus transpositions of adjacent
  // letters at cost 1 ("smi" is one step from "sim", as for git).
  const auto same = [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  };
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (same(a[i - 1], b[j - 1]) ? 0 : 1)});
      if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

namespace {

template <typename Name>
std::optional<std::string> closest(std::string_view word, std::span<const Name> candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (const Name& candidate : candidates) {
    const std::string_view name(candidate);
    const std::size_t distance = edit_distance(word, name);
    const std::size_t limit = std::clamp<std::size_t>(std::max(word.size(), name.size()) / 3, 1, 3);
    if (distance <= limit && (!best || distance < best_distance)) {
      best = std::string(name);
      best_distance = distance;
    }
  }
  return best;
}

}  // namespace

std::optional<std::string> closest_match(std::string_view word,
                                         std::span<const std::string_view> candidates) {
  return closest(word, candidates);
}

std::optional<std::string> closest_match(std::string_view word,
                                         std::span<const std::string> candidates) {
  return closest(word, candidates);
}

std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates) {
  const auto match = closest_match(word, candidates);
  return match ? "; did you mean '" + *match + "'?" : "";
}

std::string did_you_mean(std::string_view word, std::span<const std::string> candidates) {
  const auto match = closest_match(word, candidates);
  return match ? "; did you mean '" + *match + "'?" : "";
}

}  // namespace ssdlab
