// Binary state serialisation for checkpoints (README, "Checkpoints").
//
// Each component that holds simulation state writes it as one section: a
// four-character tag, a section version and its fields, all little-endian
// whatever the host. A field change is then local to one component: it bumps
// its own section version, and a file from another version is refused by
// name. Vectors of plain integers go to and from the stream in one block
// (no per-element work on little-endian hosts, no second copy of the state).
//
// StateWriter also counts bytes and keeps a running CRC-32 of everything
// written, so a file can carry its length up front (a counting pass with no
// stream) and its checksum at the end; the reader of a file checks that
// checksum in a pass of its own before parsing. StateReader checks every count
// it reads against the size the caller expects, so that even a damaged file
// never makes it allocate or index out of range; its errors are ssdlab::Error
// describing what is wrong (the caller adds the file name).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <deque>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/error.h"

namespace ssdlab {

// Reverses the bytes of an integer (std::byteswap is C++23).
template <typename T>
T byte_swapped(T value) {
  auto bytes = std::bit_cast<std::array<unsigned char, sizeof(T)>>(value);
  for (std::size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(bytes[i], bytes[sizeof(T) - 1 - i]);
  return std::bit_cast<T>(bytes);
}

// CRC-32 (IEEE 802.3, as zlib and gzip), incrementally.
class Crc32 {
 public:
  void update(const void* data, std::size_t bytes);
  std::uint32_t value() const { return state_; }

 private:
  std::uint32_t state_ = 0;  // zlib's running value (pre- and post-inverted inside crc32)
};

class StateWriter {
 public:
  // `out` null: count bytes only (the first pass that sizes a file).
  explicit StateWriter(std::ostream* out) : out_(out) {}

  void section(std::string_view tag, std::uint32_t version);
  void u8(std::uint8_t value) { integer(value); }
  void u16(std::uint16_t value) { integer(value); }
  void u32(std::uint32_t value) { integer(value); }
  void u64(std::uint64_t value) { integer(value); }
  void i64(std::int64_t value) { integer(value); }
  void boolean(bool value) { u8(value ? 1 : 0); }
  void f64(double value) { u64(std::bit_cast<std::uint64_t>(value)); }
  void string(std::string_view text);
  // Count, then the elements.
  template <typename T, typename Allocator>
  void vector(const std::vector<T, Allocator>& items) {
    u64(items.size());
    block(items.data(), items.size());
  }
  template <typename T, std::size_t N>
  void array(const std::array<T, N>& items) {
    block(items.data(), N);
  }
  template <typename T>
  void deque(const std::deque<T>& items) {
    u64(items.size());
    for (const T& item : items) integer(item);
  }
  // Raw bytes, as they are.
  void bytes(const void* data, std::size_t count);

  std::uint64_t written() const { return written_; }
  std::uint32_t crc() const { return crc_.value(); }

 private:
  template <typename T>
  void integer(T value) {
    static_assert(std::is_integral_v<T>);
    block(&value, 1);
  }
  template <typename T>
  void block(const T* items, std::size_t count) {
    static_assert(std::is_integral_v<T>);
    if constexpr (std::endian::native == std::endian::little || sizeof(T) == 1) {
      bytes(items, count * sizeof(T));
    } else {
      for (std::size_t i = 0; i < count; ++i) {
        const T swapped = byte_swapped(items[i]);
        bytes(&swapped, sizeof(T));
      }
    }
  }

  std::ostream* out_;
  std::uint64_t written_ = 0;
  Crc32 crc_;
};

class StateReader {
 public:
  // `offset`: where `in` stands in its file, so that errors name file offsets.
  explicit StateReader(std::istream& in, std::uint64_t offset = 0) : in_(in), read_(offset) {}

  // Reads a section header; throws unless it is `tag` at `version`.
  void section(std::string_view tag, std::uint32_t version);
  // Whether the next section is `tag` (an optional section, present only
  // where the part that writes it was on): reads nothing, even at the end
  // of the stream. The stream must be seekable (files and strings are).
  bool at_section(std::string_view tag);
  std::uint8_t u8() { return integer<std::uint8_t>(); }
  std::uint16_t u16() { return integer<std::uint16_t>(); }
  std::uint32_t u32() { return integer<std::uint32_t>(); }
  std::uint64_t u64() { return integer<std::uint64_t>(); }
  std::int64_t i64() { return integer<std::int64_t>(); }
  bool boolean();
  double f64() { return std::bit_cast<double>(u64()); }
  std::string string(std::size_t max_size);
  // Reads a vector written by StateWriter::vector that must hold exactly
  // `expected` elements (the size the config gives it); `what` names it.
  template <typename T, typename Allocator>
  void vector(std::vector<T, Allocator>& items, std::size_t expected, std::string_view what) {
    const std::uint64_t count = u64();
    if (count != expected) fail_count(what, count, expected, true);
    items.resize(expected);
    block(items.data(), expected);
  }
  template <typename T, std::size_t N>
  void array(std::array<T, N>& items) {
    block(items.data(), N);
  }
  // Reads a deque of at most `max` elements.
  template <typename T>
  void deque(std::deque<T>& items, std::size_t max, std::string_view what) {
    const std::uint64_t count = u64();
    if (count > max) fail_count(what, count, max, false);
    items.clear();
    for (std::uint64_t i = 0; i < count; ++i) items.push_back(integer<T>());
  }
  // A count of at most `max` items to follow.
  std::uint64_t count(std::uint64_t max, std::string_view what);
  void bytes(void* data, std::size_t count);
  // Reads `count` bytes and drops them (a section no part of this device
  // reads: Ssd::load_state).
  void skip(std::uint64_t count);

  std::uint64_t read() const { return read_; }

 private:
  template <typename T>
  T integer() {
    T value;
    block(&value, 1);
    return value;
  }
  template <typename T>
  void block(T* items, std::size_t count) {
    static_assert(std::is_integral_v<T>);
    bytes(items, count * sizeof(T));
    if constexpr (std::endian::native != std::endian::little && sizeof(T) > 1)
      for (std::size_t i = 0; i < count; ++i) items[i] = byte_swapped(items[i]);
  }
  [[noreturn]] void fail_count(std::string_view what, std::uint64_t count, std::uint64_t expected,
                               bool exact) const;

  std::istream& in_;
  std::uint64_t read_;
};

}  // namespace ssdlab
