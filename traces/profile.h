// What a trace holds, gathered in one streamed pass for `ssdlab trace-info`:
// counts, read/write mix, sizes, addresses, footprint, time span, and the
// warnings that a wrong unit (time, size, address) leaves behind. Memory is
// bounded whatever the trace's length.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "traces/trace.h"

namespace ssdlab::traces {

// The number of distinct 4 KiB pages touched. Exact (a sparse bitmap of
// 16 MiB chunks) while the bitmap stays under `max_chunks` chunks (512 B
// each); beyond that the bitmap is dropped and the count is a HyperLogLog
// estimate (2^14 registers, standard error 0.8 %), which is always kept.
class PageFootprint {
 public:
  static constexpr std::uint64_t kPageBytes = 4096;
  static constexpr std::size_t kDefaultMaxChunks = 1 << 16;  // 32 MiB of bitmap: 1 TiB touched
  static constexpr double kEstimateError = 0.0081;           // 1.04 / sqrt(2^14)

  explicit PageFootprint(std::size_t max_chunks = kDefaultMaxChunks);
  ~PageFootprint();
  PageFootprint(PageFootprint&&) noexcept;
  PageFootprint& operator=(PageFootprint&&) noexcept;

  // Pages [first, last] are touched.
  void add(std::uint64_t first_page, std::uint64_t last_page);
  // Distinct pages touched: exact while exact(), else an estimate.
  std::uint64_t pages() const;
  bool exact() const { return exact_; }

 private:
  struct Chunk;  // 4096 pages, one bit each
  static constexpr int kRegisterBits = 14;

  void add_estimate(std::uint64_t page);
  std::uint64_t estimate() const;

  std::size_t max_chunks_;
  bool exact_ = true;
  std::uint64_t exact_pages_ = 0;
  std::unordered_map<std::uint64_t, std::unique_ptr<Chunk>> chunks_;
  std::vector<std::uint8_t> registers_;
};

// Request sizes by power of two: bucket k holds sizes in [2^k, 2^(k+1)).
using SizeHistogram = std::array<std::uint64_t, 33>;

struct TraceProfile {
  static constexpr std::size_t kMaxDevices = 256;  // devices listed; more are only counted

  std::uint64_t requests = 0;
  std::uint64_t reads = 0, writes = 0, trims = 0;  // trims: discards
  std::uint64_t read_bytes = 0, write_bytes = 0;
  std::int64_t first_time_ns = 0, last_time_ns = 0;  // of the first and last request in the file
  std::int64_t min_time_ns = 0, max_time_ns = 0;
  std::uint64_t decreasing = 0;  // requests earlier than the one before them
  std::uint64_t not_whole_ms = 0;  // times that are not a whole number of milliseconds
  SizeHistogram sizes{};
  std::uint64_t min_offset = 0, max_end = 0;       // bytes; end = offset + size
  std::uint64_t unaligned_512 = 0;                 // offset or size not a multiple of 512
  std::uint64_t unaligned_4096 = 0;                // of 4096
  std::uint64_t sizes_not_512 = 0;                 // size not a multiple of 512
  std::map<std::uint32_t, std::uint64_t> devices;  // requests per device (all devices)
  std::uint64_t devices_not_listed = 0;            // requests on devices beyond kMaxDevices
  std::uint64_t other_device = 0;                  // not counted above: filtered out
  // The ssdlab format (an io.csv): requests per recorded process.
  std::map<std::uint32_t, std::uint64_t> processes;
  PageFootprint footprint;

  // Counts `record` (its device in `devices` only: see add_device).
  void add(const TraceRecord& record);
  // Counts a request on `device` in `devices`.
  void add_device(std::uint32_t device);
  // Time from the earliest to the latest request.
  std::int64_t span_ns() const { return max_time_ns - min_time_ns; }
  // Implied arrival rate: the requests after the first over the span (0 if
  // the span is 0), and that rate times the mean request size.
  double requests_per_second() const;
  double bytes_per_second() const;
};

// The time unit that `format` reads its timestamps in, in words, e.g.
// "Windows filetime ticks (100 ns)" (the formats table, formats.cpp).
std::string timestamp_unit_of(std::string_view format);

// Warnings about what looks like a wrong unit: a time span or an arrival rate
// no device could have, sizes that are not in bytes, addresses beyond
// `device_bytes` (the simulated device's logical space, when known).
std::vector<std::string> profile_warnings(const TraceProfile& profile, std::string_view format,
                                          std::optional<std::uint64_t> device_bytes);

// The time warnings of profile_warnings alone (span, arrival rate, all
// requests at one time): what replay prints on its console, from the
// requests it replays (requests, min/max time and bytes of `profile`).
std::vector<std::string> time_warnings(const TraceProfile& profile, std::string_view format);

// Thresholds of the warnings.
inline constexpr std::uint64_t kShortSpanRequests = 1000;  // more requests than this ...
inline constexpr std::int64_t kShortSpanNs = 1000000;      // ... within less than 1 ms
inline constexpr std::int64_t kLongSpanNs = 365LL * 24 * 3600 * 1000000000;  // a year
inline constexpr double kMaxIops = 10e6;
inline constexpr double kMaxBytesPerSecond = 100e9;

}  // namespace ssdlab::traces
