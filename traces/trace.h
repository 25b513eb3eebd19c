// A block trace, read one request at a time (streamed: multi-GB traces are
// never held in memory). The readers, one file per format, implement
// TraceReader; replay turns records into host requests.
#pragma once

#include <cstdint>
#include <optional>

namespace ssdlab::traces {

struct TraceRecord {
  std::int64_t time_ns = 0;  // arrival time from the trace start
  std::uint64_t offset = 0;  // bytes
  std::uint32_t size = 0;    // bytes
  bool write = false;
  std::uint32_t device = 0;  // disk number, ASU or device, as the format names it
};

class TraceReader {
 public:
  virtual ~TraceReader() = default;
  // The next record, or nullopt at the end of the trace. Throws ssdlab::Error
  // "file:line: what is wrong" on a bad line.
  virtual std::optional<TraceRecord> next() = 0;
};

}  // namespace ssdlab::traces
