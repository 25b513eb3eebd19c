// fio iolog (fio's write_iolog / read_iolog), versions 2 and 3. The first
// line names the version; then one action per line:
//   v2:  filename action [offset length]       fio version 2 iolog
//   v3:  time_us filename action [offset length]   fio version 3 iolog
// Actions: add, open, close (files); read, write, trim (replayed; trim is a
// discard); sync, datasync (not replayed); wait (v2:
// "filename wait USEC [0]", advances the clock, as fio's replay sleeps).
// v3 times are microseconds from the run start. The device is the file's
// index in order of first appearance (0 for the first file).
#include <memory>
#include <string>
#include <vector>

#include "traces/fields.h"
#include "traces/parsers.h"

namespace ssdlab::traces {
namespace {

constexpr std::int64_t kNsPerUs = 1000;

class FioParser final : public LineParser {
 public:
  Result parse(std::string_view line, std::uint64_t line_number, TraceRecord& record) override {
    if (line_number == 1) {
      line = trim(line);
      if (line == "fio version 2 iolog")
        version_ = 2;
      else if (line == "fio version 3 iolog")
        version_ = 3;
      else
        return bad("expected 'fio version 2 iolog' or 'fio version 3 iolog' as the first line");
      return Result::kSkip;
    }
    std::string_view f[6];
    const std::size_t count = split_blanks(line, f, 6);
    if (count == 0) return Result::kSkip;
    std::string_view* rest = f;
    std::size_t fields = count;
    if (version_ == 3) {
      std::int64_t time_us = 0;
      if (!parse_uint(f[0], time_us) || time_us > INT64_MAX / kNsPerUs)
        return bad("time '{}' is not microseconds", f[0]);
      clock_ns_ = time_us * kNsPerUs;
      ++rest;
      --fields;
    }
    if (fields < 2 || fields > 4)
      return bad("{} fields, expected {}filename action [offset length]", count,
                 version_ == 3 ? "time " : "");
    const std::string_view action = rest[1];
    if (action == "add" || action == "open" || action == "close") {
      if (fields != 2) return bad("'{}' takes no offset or length", action);
      file_index(rest[0]);
      return Result::kSkip;
    }
    std::uint64_t offset = 0, length = 0;
    if (action == "wait") {
      if (fields < 3 || !parse_uint(rest[2], offset) || offset > INT64_MAX / kNsPerUs)
        return bad("wait needs a time in microseconds");
      std::int64_t later = 0;
      if (version_ == 2 &&
          __builtin_add_overflow(clock_ns_, static_cast<std::int64_t>(offset) * kNsPerUs, &later))
        return bad("wait: the waits add up to centuries");
      if (version_ == 2) clock_ns_ = later;
      return Result::kSkip;
    }
    const bool read = action == "read", write = action == "write", trim = action == "trim";
    if (!read && !write && action != "sync" && action != "datasync" && action != "trim")
      return bad("unknown action '{}' (add, open, close, read, write, sync, datasync, trim, wait)",
                 action);
    if (fields != 4) return bad("'{}' needs an offset and a length", action);
    if (!parse_uint(rest[2], offset)) return bad("offset '{}' is not a byte count", rest[2]);
    if (!parse_uint(rest[3], length) || length > UINT32_MAX)
      return bad("length '{}' is not a byte count below 4 GiB", rest[3]);
    if (!read && !write && !trim) return Result::kSkip;
    record.time_ns = clock_ns_;
    record.device = file_index(rest[0]);
    record.offset = offset;
    record.size = static_cast<std::uint32_t>(length);
    record.mode = trim ? IoMode::kTrim : io_mode_of(write);
    return Result::kRecord;
  }

 private:
  std::uint32_t file_index(std::string_view name) {
    if (last_ < files_.size() && files_[last_] == name) return last_;
    for (std::uint32_t i = 0; i < files_.size(); ++i)
      if (files_[i] == name) return last_ = i;
    files_.emplace_back(name);
    return last_ = static_cast<std::uint32_t>(files_.size() - 1);
  }

  int version_ = 2;
  std::int64_t clock_ns_ = 0;
  std::vector<std::string> files_;
  std::uint32_t last_ = 0;
};

}  // namespace

std::unique_ptr<LineParser> make_fio_parser(const ReadOptions&) {
  return std::make_unique<FioParser>();
}

}  // namespace ssdlab::traces
