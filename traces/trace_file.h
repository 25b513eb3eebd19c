// A trace file read record by record: LineInput (decompression, lines) plus
// the format's LineParser, with the policies for bad lines and zero-size
// requests and the counts that summary.json reports.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "traces/input.h"
#include "traces/line_parser.h"
#include "traces/read_options.h"
#include "traces/trace.h"

namespace ssdlab::traces {

struct ReadCounts {
  std::uint64_t lines = 0;          // lines read
  std::uint64_t records = 0;        // requests returned
  std::uint64_t skipped_lines = 0;  // blank, headers, events that are not replayed
  std::uint64_t bad_lines = 0;      // with skip_bad
  std::uint64_t zero_size = 0;      // zero-size requests skipped
};

class TraceFile final : public TraceReader {
 public:
  // Reads `path` in options.format (a format's name: "auto" is resolved by
  // the caller) with its parser options, options.skip_bad and
  // options.zero_size_is_bad; the selection fields are Selection's. Throws
  // ssdlab::Error if the file cannot be opened or the format is unknown.
  TraceFile(const std::string& path, const ReadOptions& options);

  // Throws ssdlab::Error "PATH:LINE: what is wrong" on a bad line, unless
  // skip_bad. A format whose rows are not in time order
  // (FormatInfo::sorted_on_read) is read whole at the first call and its
  // records returned by time (then process and sequence): memory grows with
  // its selected rows (64 bytes each).
  std::optional<TraceRecord> next() override;

  const ReadCounts& counts() const { return counts_; }
  // What the format's parser saw that a selection missed (LineParser::seen).
  std::string seen() const { return parser_->seen(); }
  // "PATH:LINE" of the line of the request last returned (of the line last
  // read, for a format read in order), for messages about its request.
  std::string where() const;
  const std::string& compression() const { return input_.compression(); }
  // With skip_bad: the first few bad lines, "PATH:LINE: what is wrong".
  const std::vector<std::string>& bad_examples() const { return bad_examples_; }

  static constexpr std::size_t kBadExamples = 5;

 private:
  void bad_line(const std::string& reason);
  std::optional<TraceRecord> read();
  void hold_sorted();

  struct Held {
    TraceRecord record;
    std::uint64_t line = 0;
  };

  LineInput input_;
  std::unique_ptr<LineParser> parser_;
  ReadOptions options_;
  ReadCounts counts_;
  std::vector<std::string> bad_examples_;
  bool sorted_ = false;  // read whole, returned by time
  std::optional<std::vector<Held>> held_;
  std::size_t next_held_ = 0;
};

}  // namespace ssdlab::traces
