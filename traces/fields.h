// Field splitting and number parsing for the trace readers: std::from_chars
// on string_views into the line buffer, no allocation, no iostreams.
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>

namespace ssdlab::traces {

inline bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

inline std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

// Splits `line` at `separator` into at most `capacity` fields (trimmed of
// blanks); returns how many fields the line has, which may exceed capacity
// (the extra ones are not stored).
inline std::size_t split(std::string_view line, char separator, std::string_view* fields,
                         std::size_t capacity) {
  std::size_t count = 0;
  while (true) {
    const std::size_t end = line.find(separator);
    if (count < capacity) fields[count] = trim(line.substr(0, end));
    ++count;
    if (end == std::string_view::npos) return count;
    line.remove_prefix(end + 1);
  }
}

// Splits `line` at runs of blanks (spaces, tabs), like sscanf's %s.
inline std::size_t split_blanks(std::string_view line, std::string_view* fields,
                                std::size_t capacity) {
  std::size_t count = 0, i = 0;
  const std::size_t n = line.size();
  while (true) {
    while (i < n && is_blank(line[i])) ++i;
    if (i == n) return count;
    const std::size_t start = i;
    while (i < n && !is_blank(line[i])) ++i;
    if (count < capacity) fields[count] = line.substr(start, i - start);
    ++count;
  }
}

// The decimal digits from `p` on (up to `end` or the first other character)
// into `value`; returns where they stop. Exact for up to 19 digits (no
// overflow of 64 bits); the caller checks the count.
inline const char* scan_digits(const char* p, const char* end, std::uint64_t& value) {
  std::uint64_t v = 0;
  for (; p != end; ++p) {
    const auto digit = static_cast<unsigned>(static_cast<unsigned char>(*p) - '0');
    if (digit > 9) break;
    v = v * 10 + digit;
  }
  value = v;
  return p;
}

// The whole field as an unsigned integer (base 10 or 16); false if it is not one.
template <typename T>
bool parse_uint(std::string_view field, T& value, int base = 10) {
  if (base == 10 && !field.empty() && field.size() <= 19) {
    // The common case, inline (std::from_chars is an out-of-line call and
    // was 8% of a trace replay).
    const char* end = field.data() + field.size();
    std::uint64_t v = 0;
    if (scan_digits(field.data(), end, v) != end) return false;
    if (v > static_cast<std::uint64_t>(std::numeric_limits<T>::max())) return false;
    value = static_cast<T>(v);
    return true;
  }
  if (field.empty() || field.front() == '-' || field.front() == '+') return false;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value, base);
  return error == std::errc() && end == field.data() + field.size();
}

// A non-negative decimal such as "13.191135" or "7", exactly, as an integer
// count of 10^-digits units: parse_fixed("13.191135", 6) = 13191135. Extra
// fraction digits are truncated. False if the field is not such a number or
// the result does not fit.
inline bool parse_fixed(std::string_view field, int digits, std::int64_t& value) {
  const std::size_t dot = field.find('.');
  const std::string_view whole = field.substr(0, dot);
  std::int64_t result = 0;
  if (!whole.empty() && !parse_uint(whole, result)) return false;
  std::string_view fraction;
  if (dot != std::string_view::npos) {
    fraction = field.substr(dot + 1);
    if (whole.empty() && fraction.empty()) return false;
  } else if (whole.empty()) {
    return false;
  }
  for (int i = 0; i < digits; ++i) {
    int digit = 0;
    if (static_cast<std::size_t>(i) < fraction.size()) {
      const char c = fraction[static_cast<std::size_t>(i)];
      if (c < '0' || c > '9') return false;
      digit = c - '0';
    }
    if (__builtin_mul_overflow(result, 10, &result) ||
        __builtin_add_overflow(result, digit, &result))
      return false;
  }
  for (std::size_t i = static_cast<std::size_t>(digits); i < fraction.size(); ++i)
    if (fraction[i] < '0' || fraction[i] > '9') return false;
  value = result;
  return true;
}

}  // namespace ssdlab::traces
