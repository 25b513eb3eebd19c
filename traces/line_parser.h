// One trace format: turns one text line into a TraceRecord. Each format is a
// LineParser in its own file (msr.cpp, disksim.cpp, ...) registered in
// formats.cpp; TraceFile (trace_file.h) feeds it the lines of a file.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "traces/trace.h"

namespace ssdlab::traces {

// Options that change how lines are read; every format ignores those that do
// not concern it.
struct ParserOptions {
  char blkparse_action = 'D';           // blkparse: replay D (issue) or Q (queue) events
  std::int64_t mqsim_time_unit_ns = 1;  // MQSim: what one time unit is, in ns
};

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
