// One trace format: turns one text line into a TraceRecord. Each format is a
// LineParser in its own file (msr.cpp, disksim.cpp, ...) registered in
// formats.cpp; TraceFile (trace_file.h) feeds it the lines of a file. A
// parser reads the ReadOptions fields of its format (read_options.h) and
// ignores the others.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "traces/read_options.h"
#include "traces/trace.h"

namespace ssdlab::traces {

class LineParser {
 public:
  enum class Result {
    kRecord,  // `record` holds the line's request
    kSkip,    // a header, comment, or an event that is not replayed
    kBad,     // malformed: error() says why
  };

  virtual ~LineParser() = default;
  // Parses `line` (no newline; may end in '\r'), the file's `line_number`th
  // (1-based). Lines arrive in file order.
  virtual Result parse(std::string_view line, std::uint64_t line_number, TraceRecord& record) = 0;
  // Why the last kBad line was bad, e.g. "Type 'Rd': expected Read or Write".
  const std::string& error() const { return error_; }
  // What the lines read so far hold that a selection missed, for the error
  // of a trace with no requests to replay ("its experiments: a, b"); empty
  // if nothing to say.
  virtual std::string seen() const { return {}; }

 protected:
  template <typename... Args>
  Result bad(fmt::format_string<Args...> format, Args&&... args) {
    error_ = fmt::format(format, std::forward<Args>(args)...);
    return Result::kBad;
  }

 private:
  std::string error_;
};

}  // namespace ssdlab::traces
