// What a host I/O does: read, write, or trim (discard: the host says the data
// of a range is no longer needed, so the FTL may forget it). io.csv writes
// the mode as R, W or T (a contract).
#pragma once

#include <cstdint>

namespace ssdlab {

// Numbered as fio numbers its data directions (ddir 0, 1, 2).
enum class IoMode : std::uint8_t { kRead, kWrite, kTrim };

constexpr char io_mode_letter(IoMode mode) {
  return mode == IoMode::kWrite ? 'W' : mode == IoMode::kTrim ? 'T' : 'R';
}

constexpr IoMode io_mode_of(bool write) { return write ? IoMode::kWrite : IoMode::kRead; }

}  // namespace ssdlab
