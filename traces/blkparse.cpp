// blkparse's default text output (format "%D %2c %8s %5T.%9t %5p %2a %3d",
// then "sector + sectors [process]"):
//     8,32   7   6   0.000006775  2923  D   R 272208 + 2 [direct_io_read_]
// device (major,minor), CPU, sequence, seconds.nanoseconds since the trace
// start, pid, action, RWBS. Only one action is replayed: D (issue, what the
// device saw after merging; the default) or Q (queued bios; merged bios show
// up in several). Sectors are 512 B. RWBS with D (discard) is a trim.
// Skipped: other actions, messages (m), RWBS with N (no data), flushes
// without data, and the
// summary block blkparse prints at the end ("CPU0 (8,32):", "Total (...").
#include <fmt/format.h>

#include <memory>

#include "traces/fields.h"
#include "traces/parsers.h"

namespace ssdlab::traces {
namespace {

constexpr std::uint64_t kSectorBytes = 512;

bool starts_summary(std::string_view line) {
  line = trim(line);
  if (line.starts_with("CPU")) {
    std::size_t i = 3;
    while (i < line.size() && line[i] >= '0' && line[i] <= '9') ++i;
    return i > 3 && line.substr(i).starts_with(" (");
  }
  return line.starts_with("Total (") || line.starts_with("Throughput (") ||
         line.starts_with("Events (");
}

class BlkparseParser final : public LineParser {
 public:
  explicit BlkparseParser(char action) : action_(action) {}

  Result parse(std::string_view line, std::uint64_t, TraceRecord& record) override {
    if (summary_ || trim(line).empty()) return Result::kSkip;
    if (starts_summary(line)) {
      summary_ = true;
      return Result::kSkip;
    }
    std::string_view f[10];
    const std::size_t count = split_blanks(line, f, 10);
    if (count < 7)
      return bad("{} fields, expected 'maj,min cpu seq seconds pid action rwbs ...'", count);
    const std::size_t comma = f[0].find(',');
    std::uint32_t major = 0, minor = 0, cpu = 0, pid = 0;
    std::uint64_t sequence = 0;
    std::int64_t time_ns = 0;
    if (comma == std::string_view::npos || !parse_uint(f[0].substr(0, comma), major) ||
        !parse_uint(f[0].substr(comma + 1), minor) || major >= 4096 || minor >= (1u << 20))
      return bad("device '{}' is not major,minor", f[0]);
    if (!parse_uint(f[1], cpu)) return bad("CPU '{}' is not a number", f[1]);
    if (!parse_uint(f[2], sequence)) return bad("sequence '{}' is not a number", f[2]);
    if (!parse_fixed(f[3], 9, time_ns)) return bad("time '{}' is not seconds.nanoseconds", f[3]);
    if (!parse_uint(f[4], pid)) return bad("pid '{}' is not a number", f[4]);
    if (f[5].size() != 1 || f[5][0] != action_) return Result::kSkip;
    const std::string_view rwbs = f[6];
    if (rwbs.find('N') != std::string_view::npos) return Result::kSkip;
    const bool discard = rwbs.find('D') != std::string_view::npos;  // a trim
    const bool write = !discard && rwbs.find('W') != std::string_view::npos;
    const bool read = rwbs.find('R') != std::string_view::npos;
    const bool has_range = count >= 10 && f[8] == "+";
    if (!has_range || (!read && !write && !discard)) {
      if (rwbs.find('F') != std::string_view::npos) return Result::kSkip;  // a bare flush
      if (!has_range) return bad("expected 'sector + sectors' after RWBS '{}'", rwbs);
      return bad("RWBS '{}' is neither a read, a write nor a discard", rwbs);
    }
    std::uint64_t sector = 0, sectors = 0;
    if (!parse_uint(f[7], sector) || sector > UINT64_MAX / kSectorBytes)
      return bad("sector '{}' is not a sector number", f[7]);
    if (!parse_uint(f[9], sectors) || sectors > UINT32_MAX / kSectorBytes)
      return bad("sector count '{}' is not a number below 4 GiB", f[9]);
    record.time_ns = time_ns;
    record.device = blkparse_device(major, minor);
    record.offset = sector * kSectorBytes;
    record.size = static_cast<std::uint32_t>(sectors * kSectorBytes);
    record.mode = discard ? IoMode::kTrim : io_mode_of(write);
    return Result::kRecord;
  }

 private:
  char action_;
  bool summary_ = false;
};

}  // namespace

std::unique_ptr<LineParser> make_blkparse_parser(const ReadOptions& options) {
  return std::make_unique<BlkparseParser>(options.blk_event);
}

std::string blkparse_device_name(std::uint32_t device) {
  return fmt::format("{},{}", device >> 20, device & 0xfffff);
}

}  // namespace ssdlab::traces
