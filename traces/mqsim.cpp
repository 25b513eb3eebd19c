// MQSim ASCII traces: DiskSim's five columns with integer times whose unit
// the user chooses (nanoseconds by default; --time-unit), and type 0 = write,
// 1 = read:
//   938513000 4 264719034 16 0
// time, device, address (512 B sectors), size (sectors), type. The integer
// time tells it from DiskSim (whose times are decimal milliseconds).
#include <memory>

#include "traces/fields.h"
#include "traces/parsers.h"

namespace ssdlab::traces {
namespace {

constexpr std::uint64_t kSectorBytes = 512;

class MqSimParser final : public LineParser {
 public:
  explicit MqSimParser(std::int64_t unit_ns) : unit_ns_(unit_ns) {}

  Result parse(std::string_view line, std::uint64_t, TraceRecord& record) override {
    std::string_view f[5];
    const std::size_t count = split_blanks(line, f, 5);
    if (count == 0) return Result::kSkip;
    if (count != 5) return bad("{} fields, expected 5 (time device sector sectors type)", count);
    std::int64_t time = 0;
    std::uint64_t sector = 0, sectors = 0;
    if (!parse_uint(f[0], time)) return bad("time '{}' is not an integer", f[0]);
    if (__builtin_mul_overflow(time, unit_ns_, &record.time_ns))
      return bad("time '{}' is out of range", f[0]);
    if (!parse_uint(f[1], record.device)) return bad("device '{}' is not a number", f[1]);
    if (!parse_uint(f[2], sector) || sector > UINT64_MAX / kSectorBytes)
      return bad("address '{}' is not a sector number", f[2]);
    if (!parse_uint(f[3], sectors) || sectors > UINT32_MAX / kSectorBytes)
      return bad("size '{}' is not a sector count below 4 GiB", f[3]);
    if (f[4] == "0")
      record.mode = IoMode::kWrite;
    else if (f[4] == "1")
      record.mode = IoMode::kRead;
    else
      return bad("type '{}': expected 0 (write) or 1 (read)", f[4]);
    record.offset = sector * kSectorBytes;
    record.size = static_cast<std::uint32_t>(sectors * kSectorBytes);
    return Result::kRecord;
  }

 private:
  std::int64_t unit_ns_;
};

}  // namespace

std::unique_ptr<LineParser> make_mqsim_parser(const ReadOptions& options) {
  return std::make_unique<MqSimParser>(options.time_unit_ns);
}

}  // namespace ssdlab::traces
