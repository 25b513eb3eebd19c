// What a host I/O does: read, write, or trim (discard: the host says the data
// of a range is no longer needed, so the FTL may forget it), and on a zoned
// device (ftl.type = "zoned", docs/zns.md) the commands of the NVMe Zoned
// Namespace Command Set: zone append (a write whose address the device
// picks, at the zone's write pointer) and the zone management actions reset,
// finish, open, close and the explicit flush of a zone random write area
// (ZRWA). io.csv writes the mode as one letter: R, W or T (a contract), and
// A, Z, F, O, C, X for the zone commands, which only a zoned device takes
// (docs/reference/outputs.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace ssdlab {

// Numbered as fio numbers its data directions (ddir 0, 1, 2); the zone
// commands follow.
enum class IoMode : std::uint8_t {
  kRead,
  kWrite,
  kTrim,
  kZoneAppend,
  kZoneReset,
  kZoneFinish,
  kZoneOpen,
  kZoneClose,
  // Zone Management Send "Flush Explicit ZRWA Range" (ZSA 11h, NVMe TP 4076):
  // the request's range ends with the last logical block it commits (SLBA).
  kZoneFlush
};

constexpr char io_mode_letter(IoMode mode) {
  constexpr char kLetters[] = {'R', 'W', 'T', 'A', 'Z', 'F', 'O', 'C', 'X'};
  return kLetters[static_cast<std::uint8_t>(mode)];
}

// The mode of an io.csv letter; nothing for any other text.
constexpr std::optional<IoMode> io_mode_of_letter(std::string_view letter) {
  if (letter.size() != 1) return std::nullopt;
  for (std::uint8_t m = 0; m <= static_cast<std::uint8_t>(IoMode::kZoneFlush); ++m)
    if (io_mode_letter(static_cast<IoMode>(m)) == letter[0]) return static_cast<IoMode>(m);
  return std::nullopt;
}

constexpr IoMode io_mode_of(bool write) { return write ? IoMode::kWrite : IoMode::kRead; }

// Data moves from the host to the device: writes and zone appends.
constexpr bool carries_data_in(IoMode mode) {
  return mode == IoMode::kWrite || mode == IoMode::kZoneAppend;
}
// A zone management action (reset, finish, open, close, explicit ZRWA
// flush): no data, one zone.
constexpr bool is_zone_action(IoMode mode) { return mode >= IoMode::kZoneReset; }

}  // namespace ssdlab
