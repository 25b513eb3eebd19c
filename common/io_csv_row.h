// One row of io.csv, the per-I/O contract of DESIGN.md ("Outputs"), and its
// parser: what `ssdlab compare`, the fio latency-log export (sim/results/
// io_csv.h) and the `ssdlab` trace format (traces/ssdlab_csv.cpp) read, so
// that the columns are read in one place.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/io_mode.h"
#include "common/units.h"

namespace ssdlab {

inline constexpr std::string_view kIoCsvHeader =
    "experiment,run,process,io,submit_us,rt_us,mode,offset,size";

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

// Parses a whole decimal integer field of io.csv (and its sibling CSVs:
// refused.csv): digits only, the whole field, in range.
template <typename Integer>
bool parse_csv_integer(std::string_view text, Integer& value) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() && !text.empty();
}

// Parses microseconds written with up to 3 decimals ("305.600") into exact
// integer nanoseconds, without floating point. False if `text` is not that.
bool parse_us(std::string_view text, TimeNs& ns);

// Parses one data row of io.csv (no newline; a trailing '\r' is dropped)
// into `row`. Returns what is wrong ("run: 'x' is not a run number"), or an
// empty string.
std::string parse_io_csv_row(std::string_view line, IoRow& row);

}  // namespace ssdlab
