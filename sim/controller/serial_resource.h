// One resource that serves one thing at a time, first come first served:
// free from the end of its last reservation on. Each direction of the host
// link (host_link.h), each firmware core and the data path
// (controller_limits.h) is one.
#pragma once

#include <algorithm>
#include <cstdint>

#include "common/units.h"

namespace ssdlab::sim {

struct SerialResource {
  TimeNs free = 0;  // the end of its last reservation
  TimeNs busy = 0;  // the lengths of all its reservations, summed

  // Reserves `length` from max(at, free), asked for at `at`; returns its end.
  TimeNs reserve(TimeNs at, TimeNs length) {
    free = std::max(at, free) + length;
    busy += length;
    return free;
  }
};

// The time `bytes` take at `fs_per_byte` femtoseconds each, rounded up to
// the nanosecond: a transfer never ends before its last byte.
inline TimeNs transfer_time_ns(std::uint64_t bytes, std::int64_t fs_per_byte) {
  constexpr std::int64_t kFsPerNs = 1'000'000;
  return (static_cast<std::int64_t>(bytes) * fs_per_byte + kFsPerNs - 1) / kFsPerNs;
}

}  // namespace ssdlab::sim
