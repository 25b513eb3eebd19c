// Checks of command-line values that CLI11 would otherwise convert wrongly
// (it clamps -1 and 2^64 to 2^64-1 for an unsigned option) or report with
// unreadable bounds (CLI::PositiveNumber prints DBL_MAX in 309 digits).
#pragma once

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace ssdlab::cli {

// A decimal integer in [min, max]; no sign, no fraction.
inline CLI::Validator integer_in(std::uint64_t min, std::uint64_t max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        std::uint64_t value = 0;
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, value);
        if (text.empty() || text[0] == '-' || text[0] == '+' || ptr != end ||
            ec == std::errc::invalid_argument)
          return "'" + text + "' is not a whole number from " + std::to_string(min) + " to " +
                 std::to_string(max);
        if (ec == std::errc::result_out_of_range || value < min || value > max)
          return "'" + text + "' is out of range: from " + std::to_string(min) + " to " +
                 std::to_string(max);
        return {};
      },
      "INT", "integer_in");
}

inline CLI::Validator any_unsigned() { return integer_in(0, UINT64_MAX); }
inline CLI::Validator positive_integer() { return integer_in(1, UINT64_MAX); }

// A finite number greater than 0 and at most `max` (and at least `min`).
inline CLI::Validator positive_number(double min, double max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        const auto bounds = [&] {
          return fmt::format("a number from {:g} to {:g}", min, max);
        };
        if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value))
          return "'" + text + "' is not " + bounds();
        if (value < min || value > max) return "'" + text + "' is out of range: " + bounds();
        return {};
      },
      "NUMBER", "positive_number");
}

}  // namespace ssdlab::cli
