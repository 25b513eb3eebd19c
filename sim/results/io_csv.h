// Reading io.csv (the contract in DESIGN.md) back, one row at a time, for
// `ssdlab compare` and the fio latency-log export. Any output folder's io.csv
// reads the same, the simulator's or the real-device runner's.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <string_view>
#include <tuple>

#include "common/io_csv_row.h"
#include "common/io_mode.h"
#include "common/units.h"

namespace ssdlab::sim {

// The row and its parser are common/io_csv_row.h's.
using ssdlab::IoRow;
using ssdlab::parse_us;

// The I/Os of refused.csv (a zoned device's refusals, docs/zns.md), by
// (experiment, run, process, io), as their io.csv rows name them. Empty if
// `path` does not exist; a malformed row is an ssdlab::Error "path:line".
using IoKey = std::tuple<std::string, std::uint32_t, std::uint32_t, std::uint64_t>;
std::set<IoKey> read_refused_keys(const std::filesystem::path& path);

// Streams the rows of an io.csv. Errors are ssdlab::Error with
// "file:line: what is wrong"; the header must be exactly kIoCsvHeader.
class IoCsvReader {
 public:
  explicit IoCsvReader(const std::filesystem::path& path);

  // Fills `row` with the next row; false at the end of the file.
  bool next(IoRow& row);
  std::uint64_t line() const { return line_; }

 private:
  std::string where() const;

  std::filesystem::path path_;
  std::ifstream in_;
  std::string text_;
  std::uint64_t line_ = 0;
};

}  // namespace ssdlab::sim
