#include "common/units.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace ssdlab {

std::optional<std::uint64_t> parse_size(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (text.empty()) return std::nullopt;
  double number = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (error != std::errc() || number < 0 || !std::isfinite(number)) return std::nullopt;
  std::string_view unit(end, static_cast<std::size_t>(text.data() + text.size() - end));
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);

  struct Unit {
    std::string_view name;
    double factor;
  };
  static constexpr Unit kUnits[] = {
      {"", 1},
      {"B", 1},
      {"KiB", 1024.0},
      {"MiB", 1048576.0},
      {"GiB", 1073741824.0},
      {"TiB", 1099511627776.0},
      {"k", 1024.0},
      {"K", 1024.0},
      {"M", 1048576.0},
      {"G", 1073741824.0},
      {"T", 1099511627776.0},
      // As fio reads them (its default kb_base=1024): "4KB" is 4096 bytes, so
      // that a size copied from a fio job means the same here.
      {"KB", 1024.0},
      {"kB", 1024.0},
      {"MB", 1048576.0},
      {"GB", 1073741824.0},
      {"TB", 1099511627776.0},
  };
  for (const auto& candidate : kUnits) {
    if (unit != candidate.name) continue;
    const double bytes = number * candidate.factor;
    if (bytes > 1.8e19 || bytes != std::floor(bytes)) return std::nullopt;
    return static_cast<std::uint64_t>(bytes);
  }
  return std::nullopt;
}

std::string format_size(std::uint64_t bytes) {
  static constexpr const char* kNames[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024.0 && unit < 5) {
    value /= 1024.0;
    ++unit;
  }
  char buffer[32];
  if (value == std::floor(value))
    std::snprintf(buffer, sizeof buffer, "%.0f %s", value, kNames[unit]);
  else
    std::snprintf(buffer, sizeof buffer, "%.2f %s", value, kNames[unit]);
  return buffer;
}

char* format_us(TimeNs ns, char* out) {
  if (ns < 0) {
    *out++ = '-';
    ns = -ns;
  }
  const auto whole = static_cast<std::uint64_t>(ns / 1000);
  const auto fraction = static_cast<unsigned>(ns % 1000);
  out = std::to_chars(out, out + 24, whole).ptr;
  *out++ = '.';
  *out++ = static_cast<char>('0' + fraction / 100);
  *out++ = static_cast<char>('0' + fraction / 10 % 10);
  *out++ = static_cast<char>('0' + fraction % 10);
  return out;
}

std::string format_us(TimeNs ns) {
  char buffer[32];
  return std::string(buffer, format_us(ns, buffer));
}

}  // namespace ssdlab
