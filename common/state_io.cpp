#include "common/state_io.h"

namespace ssdlab {
namespace {

// Slicing-by-8 tables of the reflected CRC-32 polynomial 0xEDB88320: eight
// bytes per step, several times faster than a byte-at-a-time table (a
// checkpoint of the baseline is ~70 MB). Checked against Boost.CRC's
// crc_32_type in the tests.
struct CrcTables {
  std::uint32_t table[8][256];
  constexpr CrcTables() : table{} {
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t crc = i;
      for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1)));
      table[0][i] = crc;
    }
    for (std::uint32_t i = 0; i < 256; ++i)
      for (int k = 1; k < 8; ++k)
        table[k][i] = (table[k - 1][i] >> 8) ^ table[0][table[k - 1][i] & 0xff];
  }
};
constexpr CrcTables kCrc;

}  // namespace

void Crc32::update(const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint32_t crc = state_;
  const auto& t = kCrc.table;
  for (; bytes >= 8; bytes -= 8, p += 8) {
    std::uint32_t low, high;
    std::memcpy(&low, p, 4);
    std::memcpy(&high, p + 4, 4);
    if constexpr (std::endian::native != std::endian::little) {
      low = byte_swapped(low);
      high = byte_swapped(high);
    }
    low ^= crc;
    crc = t[7][low & 0xff] ^ t[6][(low >> 8) & 0xff] ^ t[5][(low >> 16) & 0xff] ^ t[4][low >> 24] ^
          t[3][high & 0xff] ^ t[2][(high >> 8) & 0xff] ^ t[1][(high >> 16) & 0xff] ^
          t[0][high >> 24];
  }
  for (; bytes > 0; --bytes, ++p) crc = (crc >> 8) ^ t[0][(crc ^ *p) & 0xff];
  state_ = crc;
}

void StateWriter::section(std::string_view tag, std::uint32_t version) {
  char name[4] = {' ', ' ', ' ', ' '};
  std::memcpy(name, tag.data(), std::min<std::size_t>(tag.size(), 4));
  bytes(name, 4);
  u32(version);
}

void StateWriter::string(std::string_view text) {
  u64(text.size());
  bytes(text.data(), text.size());
}

void StateWriter::bytes(const void* data, std::size_t count) {
  written_ += count;
  if (!out_) return;
  crc_.update(data, count);
  out_->write(static_cast<const char*>(data), static_cast<std::streamsize>(count));
}

void StateReader::bytes(void* data, std::size_t count) {
  in_.read(static_cast<char*>(data), static_cast<std::streamsize>(count));
  const auto got = static_cast<std::size_t>(in_.gcount());
  read_ += got;
  if (got != count) throw make_error("truncated: the file ends at byte {} inside the state", read_);
}

void StateReader::section(std::string_view tag, std::uint32_t version) {
  char name[4];
  const std::uint64_t at = read_;
  bytes(name, 4);
  const std::string found(name, 4);
  std::string wanted(tag);
  wanted.resize(4, ' ');
  if (found != wanted)
    throw make_error("corrupt: expected section '{}' at byte {}, found '{}'", wanted, at, found);
  const std::uint32_t found_version = u32();
  if (found_version != version)
    throw make_error(
        "section '{}' has version {}; this ssdlab reads version {} (the file is from another "
        "ssdlab build)",
        wanted, found_version, version);
}

bool StateReader::boolean() {
  const std::uint8_t value = u8();
  if (value > 1) throw make_error("corrupt: a flag at byte {} is {}", read_ - 1, value);
  return value == 1;
}

std::string StateReader::string(std::size_t max_size) {
  const std::uint64_t size = count(max_size, "text");
  std::string text(size, '\0');
  bytes(text.data(), size);
  return text;
}

std::uint64_t StateReader::count(std::uint64_t max, std::string_view what) {
  const std::uint64_t value = u64();
  if (value > max) fail_count(what, value, max, false);
  return value;
}

void StateReader::fail_count(std::string_view what, std::uint64_t count, std::uint64_t expected,
                             bool exact) const {
  throw make_error("corrupt: {} has {} entries at byte {}, {} {}", what, count, read_,
                   exact ? "the config gives" : "at most", expected);
}

}  // namespace ssdlab
