// "Did you mean ...?" for mistyped names (subcommands, config keys, plan
// keys): the closest candidate by edit distance, if it is close enough.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ssdlab {

// Edit distance (insertions, deletions, substitutions and transpositions of
// adjacent letters, each 1), ASCII case-insensitive.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word`, if its distance is at most a third of
// the longer name's length (at least 1, at most 3), as git suggests.
std::optional<std::string> closest_match(std::string_view word,
                                         std::span<const std::string_view> candidates);
std::optional<std::string> closest_match(std::string_view word,
                                         std::span<const std::string> candidates);

// "; did you mean 'sim'?" or "" when nothing is close.
std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates);
std::string did_you_mean(std::string_view word, std::span<const std::string> candidates);

}  // namespace ssdlab
