#include "common/state_io.h"

#include <zlib.h>

#include <algorithm>

namespace ssdlab {

// zlib's crc32 (the same CRC as gzip; zlib is already linked for compressed
// traces) is fast enough for a ~70 MB checkpoint of the baseline.
void Crc32::update(const void* data, std::size_t bytes) {
  const auto* p = static_cast<const Bytef*>(data);
  while (bytes > 0) {
    const auto chunk = static_cast<uInt>(std::min<std::size_t>(bytes, 1u << 30));
    state_ = static_cast<std::uint32_t>(::crc32(state_, p, chunk));
    p += chunk;
    bytes -= chunk;
  }
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

void StateReader::skip(std::uint64_t count) {
  // In blocks, not by seeking: a count past the file's end fails as a
  // truncated file does, at the byte where it ends.
  char block[4096];
  while (count > 0) {
    const std::size_t now = static_cast<std::size_t>(std::min<std::uint64_t>(count, sizeof block));
    bytes(block, now);
    count -= now;
  }
}

bool StateReader::at_section(std::string_view tag) {
  const std::istream::pos_type at = in_.tellg();
  char name[4] = {};
  in_.read(name, 4);
  std::string wanted(tag);
  wanted.resize(4, ' ');  // as section() pads it
  const bool found = in_.gcount() == 4 && std::string_view(name, 4) == wanted;
  in_.clear();
  in_.seekg(at);
  if (!in_) throw make_error("cannot look ahead at byte {} of the state", read_);
  return found;
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
