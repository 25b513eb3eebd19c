#include "traces/trace_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "common/checked.h"
#include "common/error.h"
#include "common/printable.h"
#include "traces/fields.h"
#include "traces/formats.h"

namespace ssdlab::traces {

TraceFile::TraceFile(const std::string& path, const ReadOptions& options)
    : input_(path, options.name), parser_(make_parser(options.format, options)), options_(options) {
  const FormatInfo* format = find_format(options.format);
  sorted_ = format && format->sorted_on_read;
}

std::string TraceFile::where() const {
  const bool returned = held_ && next_held_ > 0 && next_held_ <= held_->size();
  return fmt::format("{}:{}", input_.path(),
                     returned ? (*held_)[next_held_ - 1].line : input_.line_number());
}

std::optional<TraceRecord> TraceFile::next() {
  if (!sorted_) return read();
  if (!held_) hold_sorted();
  if (next_held_ == held_->size()) return std::nullopt;
  return (*held_)[next_held_++].record;
}

void TraceFile::hold_sorted() {
  std::vector<Held> held;
  while (const std::optional<TraceRecord> record = read())
    held.push_back({*record, input_.line_number()});
  std::stable_sort(held.begin(), held.end(), [](const Held& a, const Held& b) {
    const TraceRecord &x = a.record, &y = b.record;
    return std::tie(x.time_ns, x.process, x.sequence) < std::tie(y.time_ns, y.process, y.sequence);
  });
  held_ = std::move(held);
}

void TraceFile::bad_line(const std::string& reason) {
  // The reason quotes the line's fields: bytes a terminal would act on, or
  // a NUL that would cut the message short, are escaped.
  std::string message = printable(fmt::format("{}: {}", where(), reason));
  if (!options_.skip_bad) throw Error(message);
  ++counts_.bad_lines;
  if (bad_examples_.size() < kBadExamples) bad_examples_.push_back(std::move(message));
}

std::optional<TraceRecord> TraceFile::read() {
  std::string_view line;
  TraceRecord record;
  while (input_.next(line)) {
    ++counts_.lines;
    if (trim(line).empty()) {
      ++counts_.skipped_lines;
      continue;
    }
    switch (parser_->parse(line, input_.line_number(), record)) {
      case LineParser::Result::kSkip:
        ++counts_.skipped_lines;
        continue;
      case LineParser::Result::kBad:
        bad_line(parser_->error());
        continue;
      case LineParser::Result::kRecord:
        break;
    }
    if (record.time_ns > kMaxTraceTimeNs || record.time_ns < kMinTraceTimeNs) {
      bad_line(fmt::format("time {} ns is beyond what the simulated clock holds (-2^61 to 2^62 ns, "
                           "about 146 years)",
                           record.time_ns));
      continue;
    }
    if (!checked_add(record.offset, std::uint64_t{record.size})) {
      bad_line(fmt::format("a request of {} bytes at offset {} ends beyond byte 2^64 - 1",
                           record.size, record.offset));
      continue;
    }
    if (record.size == 0) {
      if (options_.zero_size_is_bad)
        bad_line("zero-size request (--zero-size skip skips them)");
      else
        ++counts_.zero_size;
      continue;
    }
    ++counts_.records;
    return record;
  }
  return std::nullopt;
}

}  // namespace ssdlab::traces
