// The trace formats by name, and detection of a file's format from its first
// lines. Adding a format: its own .cpp file with a LineParser and a factory,
// declared in parsers.h, one row in formats.cpp, and the file in
// CMakeLists.txt; help texts and messages list the formats from here.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/error.h"
#include "traces/line_parser.h"

namespace ssdlab::traces {

struct FormatInfo {
  const char* name;            // as given to --format
  const char* description;     // one line, for --help and the README
  const char* timestamp_unit;  // what its timestamps count, in words (for warnings)
  // How the format names a record's device (TraceRecord::device) in messages
  // and summaries; null: its number.
  std::string (*device_name)(std::uint32_t device) = nullptr;
  // Its rows are not in time order (an io.csv is in completion order):
  // TraceFile holds the records it reads and returns them by time.
  bool sorted_on_read = false;
  // A first line that names the format (an io.csv's header): a file that
  // starts with it is of this format, whatever its other lines score.
  const char* header = nullptr;
};

// The format `name`'s entry, or nullptr.
const FormatInfo* find_format(std::string_view name);

// Device `device` of a trace in format `format` as that format names it
// (blkparse: "major,minor"; the others: the number).
std::string device_name(std::string_view format, std::uint32_t device);

// Every format, in a fixed order.
const std::vector<FormatInfo>& formats();
// "msr, disksim, mqsim, spc, blkparse, fio, ssdlab": for help texts and messages.
std::string format_names();
// The parser of format `name`; throws ssdlab::Error naming the known formats.
std::unique_ptr<LineParser> make_parser(std::string_view name, const ReadOptions& options);

// Lines of a file that detection looks at (non-blank ones).
inline constexpr int kDetectionLines = 20;

// Why detection chose a format: how many of the sampled lines each format's
// parser reads without error, in formats() order.
struct Detection {
  std::string format;
  std::size_t sample = 0;  // non-blank lines looked at
  std::vector<std::pair<std::string, std::size_t>> scores;
  bool by_header = false;  // its first line is the format's header
};

// Detection found no format, or several equally good: give the format.
class FormatNotDetected : public Error {
 public:
  using Error::Error;
};

// The format of `path`, from its first kDetectionLines non-blank lines: the
// format whose header (FormatInfo::header) is its first line, else the one
// format whose parser reads the most of them (at least half) without error. Throws
// FormatNotDetected when no format fits, or when several fit equally well ("ambiguous", listing
// them); ssdlab::Error when the file cannot be read (an empty trace, corrupt compressed data).
// Messages name the file options.name (its path if empty).
std::string detect_format(const std::string& path, const ReadOptions& options);
// The same, with the scores behind the choice.
Detection detect_format_scored(const std::string& path, const ReadOptions& options);

}  // namespace ssdlab::traces
