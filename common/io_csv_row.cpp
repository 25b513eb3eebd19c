#include "common/io_csv_row.h"

#include <fmt/format.h>

#include <array>
#include <limits>

namespace ssdlab {
namespace {

constexpr std::size_t kFields = 9;

}  // namespace

bool parse_us(std::string_view text, TimeNs& ns) {
  const auto dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  std::string_view fraction = dot == std::string_view::npos ? "" : text.substr(dot + 1);
  if (fraction.size() > 3 || (dot != std::string_view::npos && fraction.empty())) return false;
  TimeNs micro = 0, nano = 0;
  if (!parse_csv_integer(whole, micro) || micro < 0) return false;
  if (!fraction.empty()) {
    if (fraction.front() == '-' || fraction.front() == '+' || !parse_csv_integer(fraction, nano))
      return false;
    for (std::size_t digits = fraction.size(); digits < 3; ++digits) nano *= 10;
  }
  if (micro > std::numeric_limits<TimeNs>::max() / 1000 - 1) return false;
  ns = micro * 1000 + nano;
  return true;
}

std::string parse_io_csv_row(std::string_view line, IoRow& row) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  std::array<std::string_view, kFields> fields;
  std::size_t count = 0, start = 0;
  while (true) {
    const auto comma = line.find(',', start);
    if (count < kFields) fields[count] = line.substr(start, comma - start);
    ++count;
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (count != kFields) return fmt::format("expected {} fields, got {}", kFields, count);
  const auto bad = [](const char* column, std::string_view value, const char* expected) {
    return fmt::format("{}: '{}' is not {}", column, value, expected);
  };
  if (fields[0].empty()) return "experiment: empty";
  row.experiment.assign(fields[0]);
  if (!parse_csv_integer(fields[1], row.run)) return bad("run", fields[1], "a run number");
  if (!parse_csv_integer(fields[2], row.process))
    return bad("process", fields[2], "a process number");
  if (!parse_csv_integer(fields[3], row.io)) return bad("io", fields[3], "an I/O number");
  if (!parse_us(fields[4], row.submit_ns)) return bad("submit_us", fields[4], "microseconds");
  if (!parse_us(fields[5], row.response_ns)) return bad("rt_us", fields[5], "microseconds");
  const std::optional<IoMode> mode = io_mode_of_letter(fields[6]);
  if (!mode) return bad("mode", fields[6], "R, W or T (or a zone command: A, Z, F, O, C or X)");
  row.mode = *mode;
  if (!parse_csv_integer(fields[7], row.offset)) return bad("offset", fields[7], "a byte offset");
  if (!parse_csv_integer(fields[8], row.size)) return bad("size", fields[8], "a size in bytes");
  return {};
}

}  // namespace ssdlab
