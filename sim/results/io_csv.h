// Reading io.csv (the contract in DESIGN.md) back, one row at a time, for
// `ssdlab compare` and the fio latency-log export. Any output folder's io.csv
// reads the same, the simulator's or the real-device runner's.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <tuple>
#include <string>
#include <string_view>

#include "common/io_mode.h"
#include "common/units.h"

namespace ssdlab::sim {

struct IoRow {
  std::string experiment;
  std::uint32_t run = 0;
  std::uint32_t process = 0;
  std::uint64_t io = 0;
  TimeNs submit_ns = 0;
  TimeNs response_ns = 0;
  IoMode mode = IoMode::kRead;
  std::uint64_t offset = 0;
  std::uint32_t size = 0;

  bool is_write() const { return mode == IoMode::kWrite; }
  // A read or a write (a zone append included): what a run's response
  // times, IOPS and MB/s count (RunSamples::Kind), unless refused.
  bool moves_data() const {
    return mode == IoMode::kRead || mode == IoMode::kWrite || mode == IoMode::kZoneAppend;
  }
};

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

// Parses microseconds written with up to 3 decimals ("305.600") into exact
// integer nanoseconds, without floating point. False if `text` is not that.
bool parse_us(std::string_view text, TimeNs& ns);

}  // namespace ssdlab::sim
