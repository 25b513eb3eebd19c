// SPC traces (UMass Trace Repository: Financial, WebSearch):
//   ASU,LBA,Size,Opcode,Timestamp[,more...]
//   0,20941264,8192,W,0.551706
// ASU is the application storage unit (the device), LBA in 512 B blocks,
// Size in bytes, Opcode R/r/W/w, Timestamp in seconds (decimal). Blanks after
// commas are allowed; fields after the fifth vary per line and are ignored.
#include <memory>

#include "traces/fields.h"
#include "traces/parsers.h"

namespace ssdlab::traces {
namespace {

constexpr std::uint64_t kBlockBytes = 512;

class SpcParser final : public LineParser {
 public:
  Result parse(std::string_view line, std::uint64_t, TraceRecord& record) override {
    if (trim(line).empty()) return Result::kSkip;
    std::string_view f[5];
    const std::size_t count = split(line, ',', f, 5);
    if (count < 5)
      return bad("{} fields, expected at least 5 (ASU,LBA,Size,Opcode,Timestamp)", count);
    std::uint64_t lba = 0, size = 0;
    std::int64_t time_ns = 0;
    if (!parse_uint(f[0], record.device)) return bad("ASU '{}' is not a number", f[0]);
    if (!parse_uint(f[1], lba) || lba > UINT64_MAX / kBlockBytes)
      return bad("LBA '{}' is not a 512 B block number", f[1]);
    if (!parse_uint(f[2], size) || size > UINT32_MAX)
      return bad("Size '{}' is not a byte count below 4 GiB", f[2]);
    if (f[3] == "R" || f[3] == "r")
      record.mode = IoMode::kRead;
    else if (f[3] == "W" || f[3] == "w")
      record.mode = IoMode::kWrite;
    else
      return bad("Opcode '{}': expected R or W", f[3]);
    if (!parse_fixed(f[4], 9, time_ns)) return bad("Timestamp '{}' is not seconds", f[4]);
    record.time_ns = time_ns;
    record.offset = lba * kBlockBytes;
    record.size = static_cast<std::uint32_t>(size);
    return Result::kRecord;
  }
};

}  // namespace

std::unique_ptr<LineParser> make_spc_parser(const ReadOptions&) {
  return std::make_unique<SpcParser>();
}

}  // namespace ssdlab::traces
