#include "common/suggest.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace ssdlab {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      const std::size_t next = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = row[j];
      row[j] = next;
    }
  }
  return row[b.size()];
}

namespace {

template <typename Name>
std::optional<std::string> closest(std::string_view word, std::span<const Name> candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (const Name& candidate : candidates) {
    const std::string_view name(candidate);
    const std::size_t distance = edit_distance(word, name);
    const std::size_t limit =
        std::clamp<std::size_t>(std::max(word.size(), name.size()) / 3, 1, 3);
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
