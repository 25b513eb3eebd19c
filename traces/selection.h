// Which records of a trace are replayed, and where they land on the simulated
// device: a TraceReader over another one that filters by device, skips a
// start (a number of requests or a trace time), stops after a limit, aligns
// requests to the device's sectors and maps addresses into its logical space.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string_view>

#include "common/error.h"
#include "traces/read_options.h"
#include "traces/trace.h"

namespace ssdlab::traces {

// A request that cannot be placed on the device (not a malformed line): the
// caller adds where in the trace it came from.
class RequestError : public Error {
 public:
  using Error::Error;
};

// What a first pass over the trace found for placing it (ReadOptions says
// the rest: device, start, limit, map).
struct Placement {
  std::uint64_t trace_span = 0;  // AddressMap::kScale: largest offset + size in the trace
  // Devices side by side: each device's offsets are moved up by its base
  // (before the map), so that devices of one trace get disjoint address
  // ranges; devices not listed keep their offsets. Empty: devices share.
  std::map<std::uint32_t, std::uint64_t> device_base;
};

struct SelectionCounts {
  std::uint64_t other_device = 0;  // filtered out by device
  std::uint64_t before_start = 0;  // skipped by start_requests / start_ns
  std::uint64_t realigned = 0;     // offset or size not sector-aligned: widened to sectors
  std::uint64_t remapped = 0;      // offset changed by the address map
};

class Selection final : public TraceReader {
 public:
  // Selects by options.device, start_* and limit and maps by options.map
  // into `device_bytes` of logical space in `sector`-byte sectors
  // (device_bytes a multiple of sector).
  Selection(TraceReader& source, const ReadOptions& options, std::uint64_t device_bytes,
            std::uint32_t sector, Placement placement = {});

  // Throws RequestError if a request is larger than the device.
  std::optional<TraceRecord> next() override;
  const SelectionCounts& counts() const { return counts_; }

 private:
  TraceRecord place(TraceRecord record);

  TraceReader& source_;
  ReadOptions options_;
  Placement placement_;
  std::uint64_t device_bytes_;
  std::uint32_t sector_;
  bool started_ = false;
  std::uint64_t returned_ = 0;
  SelectionCounts counts_;
};

// The span (largest offset + size) of `reader`'s records on `device` (all
// devices if unset), reading it to the end: what AddressMap::kScale needs.
std::uint64_t address_span(TraceReader& reader, std::optional<std::uint32_t> device);

// The span of each device's records (largest offset + size), reading
// `reader` to the end: what devices side by side need.
std::map<std::uint32_t, std::uint64_t> device_spans(TraceReader& reader);

// Bases that put `spans` one after the other in device order, each range
// rounded up to whole `align`-byte units; `total` gets the end of the last.
// Throws ssdlab::Error if they add up to more than 2^64 bytes.
std::map<std::uint32_t, std::uint64_t> side_by_side_bases(
    const std::map<std::uint32_t, std::uint64_t>& spans, std::uint64_t align, std::uint64_t& total);

}  // namespace ssdlab::traces
