// DiskSim ASCII traces, five blank-separated fields (DiskSim's iotrace.c
// reads them with "%lf %d %d %d %x"):
//   13.191135	30	0	5	1
// arrival time (ms, decimal), device number, block number (512 B), size in
// 512 B blocks, flags (hex; bit 0x1 = read).
#include <memory>

#include "traces/fields.h"
#include "traces/parsers.h"

namespace ssdlab::traces {
namespace {

constexpr std::uint64_t kBlockBytes = 512;
constexpr std::uint32_t kReadFlag = 0x1;

class DiskSimParser final : public LineParser {
 public:
  Result parse(std::string_view line, std::uint64_t, TraceRecord& record) override {
    std::string_view f[5];
    const std::size_t count = split_blanks(line, f, 5);
    if (count == 0) return Result::kSkip;
    if (count != 5) return bad("{} fields, expected 5 (time_ms device block blocks flags)", count);
    std::int64_t time_ns = 0;
    std::uint64_t block = 0, blocks = 0;
    std::uint32_t flags = 0;
    if (!parse_fixed(f[0], 6, time_ns)) return bad("time '{}' is not milliseconds", f[0]);
    if (!parse_uint(f[1], record.device)) return bad("device '{}' is not a number", f[1]);
    if (!parse_uint(f[2], block) || block > UINT64_MAX / kBlockBytes)
      return bad("block number '{}' is not a 512 B block number", f[2]);
    if (!parse_uint(f[3], blocks) || blocks > UINT32_MAX / kBlockBytes)
      return bad("size '{}' is not a count of 512 B blocks below 4 GiB", f[3]);
    std::string_view hex = f[4];
    if (hex.starts_with("0x") || hex.starts_with("0X")) hex.remove_prefix(2);
    if (!parse_uint(hex, flags, 16)) return bad("flags '{}' are not hexadecimal", f[4]);
    record.time_ns = time_ns;
    record.offset = block * kBlockBytes;
    record.size = static_cast<std::uint32_t>(blocks * kBlockBytes);
    record.mode = io_mode_of((flags & kReadFlag) == 0);
    return Result::kRecord;
  }
};

}  // namespace

std::unique_ptr<LineParser> make_disksim_parser(const ReadOptions&) {
  return std::make_unique<DiskSimParser>();
}

}  // namespace ssdlab::traces
