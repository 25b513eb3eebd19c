// A block trace, read one request at a time (streamed: multi-GB traces are
// never held in memory). The readers, one file per format, implement
// TraceReader; replay turns records into host requests.
#pragma once

#include <cstdint>
#include <optional>

#include "common/checked.h"
#include "common/io_mode.h"

namespace ssdlab::traces {

// The simulated clock holds times up to 2^63 ns; trace times are refused
// beyond its bound, 2^62 ns (about 146 years: kClockLimitNs, common/checked.h)
// after the trace's zero, and before -2^61 ns, so that differences of trace
// times and the response times added to them cannot overflow.
inline constexpr std::int64_t kMaxTraceTimeNs = kClockLimitNs;
inline constexpr std::int64_t kMinTraceTimeNs = -(std::int64_t{1} << 61);

struct TraceRecord {
  std::int64_t time_ns = 0;  // arrival time from the trace start
  std::uint64_t offset = 0;  // bytes
  std::uint32_t size = 0;    // bytes
  IoMode mode = IoMode::kRead;
  std::uint32_t device = 0;  // disk number, ASU or device, as the format names it
  // A write's placement identifier (docs/fdp.md): no format carries one; the
  // lifetime oracle (lifetime_oracle.h) assigns it. 0: none (handle 0).
  std::uint8_t placement = 0;
  // What only ssdlab's own io.csv (the `ssdlab` format) records: the row's
  // process and io columns, and its response time (-1: not recorded), which
  // --mode dependent replays from.
  std::uint32_t process = 0;
  std::uint64_t sequence = 0;
  std::int64_t response_ns = -1;

  bool is_write() const { return mode == IoMode::kWrite; }
};

class TraceReader {
 public:
  virtual ~TraceReader() = default;
  // The next record, or nullopt at the end of the trace. Throws ssdlab::Error
  // "file:line: what is wrong" on a bad line.
  virtual std::optional<TraceRecord> next() = 0;
};

}  // namespace ssdlab::traces
