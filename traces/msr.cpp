// MSR Cambridge (SNIA IOTTA) CSV:
//   Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime
//   128166372003061629,hm,0,Write,7014912,4096,26
// Timestamps are Windows filetime ticks (100 ns since 1601); records carry the
// time since the trace's first record. Offset and Size are bytes. A first
// line starting with "Timestamp" is a header.
#include <cstring>
#include <memory>

#include "traces/fields.h"
#include "traces/parsers.h"

namespace ssdlab::traces {
namespace {

constexpr std::int64_t kNsPerTick = 100;

// Digits up to `separator` (or the line's end with separator '\0') at
// `*at`, at most 19 of them: advances *at past the separator. False where
// the field is anything else (blanks, signs, empty, longer): the general
// path then parses the line and names what is wrong.
inline bool take_digits(const char*& at, const char* end, char separator, std::uint64_t& value) {
  std::uint64_t v = 0;
  const char* p = scan_digits(at, end, v);
  if (p == at || p - at > 19) return false;
  if (separator == '\0') {
    if (p != end) return false;
  } else {
    if (p == end || *p != separator) return false;
    ++p;
  }
  at = p;
  value = v;
  return true;
}

// The usual line (plain digits, no blanks, Read or Write) in one pass; false
// for anything else, which the general path handles.
bool parse_plain(std::string_view line, std::uint64_t& ticks, TraceRecord& record) {
  const char *at = line.data(), *end = at + line.size();
  std::uint64_t device = 0, offset = 0, size = 0, response = 0;
  if (!take_digits(at, end, ',', ticks)) return false;
  const auto* comma = static_cast<const char*>(std::memchr(at, ',', static_cast<std::size_t>(end - at)));
  if (!comma) return false;
  at = comma + 1;  // past the host name
  if (!take_digits(at, end, ',', device) || device > UINT32_MAX) return false;
  const std::string_view rest(at, static_cast<std::size_t>(end - at));
  if (rest.starts_with("Read,")) {
    record.mode = IoMode::kRead;
    at += 5;
  } else if (rest.starts_with("Write,")) {
    record.mode = IoMode::kWrite;
    at += 6;
  } else {
    return false;
  }
  if (!take_digits(at, end, ',', offset) || !take_digits(at, end, ',', size) ||
      size > UINT32_MAX || !take_digits(at, end, '\0', response))
    return false;
  record.device = static_cast<std::uint32_t>(device);
  record.offset = offset;
  record.size = static_cast<std::uint32_t>(size);
  return true;
}

class MsrParser final : public LineParser {
 public:
  Result parse(std::string_view line, std::uint64_t line_number, TraceRecord& record) override {
    if (line_number == 1 && line.starts_with("Timestamp")) return Result::kSkip;
    std::uint64_t ticks = 0;
    if (parse_plain(line, ticks, record)) return timed(ticks, record, line);
    std::string_view f[7];
    const std::size_t count = split(line, ',', f, 7);
    if (count != 7)
      return bad(
          "{} fields, expected 7 (Timestamp,Hostname,DiskNumber,Type,"
          "Offset,Size,ResponseTime)",
          count);
    std::uint64_t offset = 0, size = 0, response = 0;
    if (!parse_uint(f[0], ticks)) return bad("Timestamp '{}' is not a filetime integer", f[0]);
    if (!parse_uint(f[2], record.device)) return bad("DiskNumber '{}' is not a number", f[2]);
    if (f[3] == "Read")
      record.mode = IoMode::kRead;
    else if (f[3] == "Write")
      record.mode = IoMode::kWrite;
    else
      return bad("Type '{}': expected Read or Write", f[3]);
    if (!parse_uint(f[4], offset)) return bad("Offset '{}' is not a byte count", f[4]);
    if (!parse_uint(f[5], size) || size > UINT32_MAX)
      return bad("Size '{}' is not a byte count below 4 GiB", f[5]);
    if (!parse_uint(f[6], response)) return bad("ResponseTime '{}' is not a number", f[6]);
    record.offset = offset;
    record.size = static_cast<std::uint32_t>(size);
    return timed(ticks, record, f[0]);
  }

 private:
  // The record's time from the trace's first request.
  Result timed(std::uint64_t ticks, TraceRecord& record, std::string_view timestamp) {
    if (!have_first_) {
      first_ticks_ = ticks;
      have_first_ = true;
    }
    // Relative to the first request; a time that far away (beyond int64
    // nanoseconds, 292 years) is a broken line, not an overflow.
    const auto ticks_since_first = static_cast<std::int64_t>(ticks - first_ticks_);
    if (__builtin_mul_overflow(ticks_since_first, kNsPerTick, &record.time_ns))
      return bad("Timestamp '{}' is centuries away from the first request's",
                 timestamp.substr(0, timestamp.find(',')));
    return Result::kRecord;
  }

  std::uint64_t first_ticks_ = 0;
  bool have_first_ = false;
};

}  // namespace

std::unique_ptr<LineParser> make_msr_parser(const ReadOptions&) {
  return std::make_unique<MsrParser>();
}

}  // namespace ssdlab::traces
