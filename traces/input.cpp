#include "traces/input.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/iostreams/device/file.hpp>
#include <boost/iostreams/filter/bzip2.hpp>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filter/lzma.hpp>
#include <boost/iostreams/filter/zstd.hpp>
#include <boost/iostreams/filtering_stream.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <initializer_list>

#include "common/error.h"

namespace ssdlab::traces {
namespace io = boost::iostreams;

namespace {

constexpr std::size_t kChunkBytes = std::size_t{1} << 20;
constexpr std::size_t kMinChunkBytes = std::size_t{1} << 12;
constexpr std::size_t kFilterBytes = std::size_t{1} << 16;
constexpr std::size_t kMaxLineBytes = std::size_t{64} << 20;

// zstd frames (RFC 8878, §3.1): the decompressor of Boost 1.74 reports the
// end of its input as the end of the data, even inside a frame, so a
// truncated file would read as a shorter one. This walks the frame and block
// headers of `path` (seeking over block contents: no decompression) and says
// what is wrong with them; empty if every frame is complete.
std::string zstd_frames_problem(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) return fmt::format("cannot open it again: {}", std::strerror(errno));
  std::uint64_t at = 0;
  const auto read = [&](unsigned char* bytes, std::size_t n) {
    if (std::fseek(file, static_cast<long>(at), SEEK_SET) != 0) return false;
    if (std::fread(bytes, 1, n, file) != n) return false;
    at += n;
    return true;
  };
  const auto little_endian = [](const unsigned char* bytes, std::size_t n) {
    std::uint64_t value = 0;
    for (std::size_t i = n; i-- > 0;) value = value << 8 | bytes[i];
    return value;
  };
  std::string problem;
  const auto truncated = [](std::uint64_t start) {
    return fmt::format("premature end: the zstd frame at byte {} is cut short (a truncated file)",
                       start);
  };
  unsigned char bytes[8];
  std::uint64_t frame = 0;  // where the frame being walked starts
  while (problem.empty()) {
    const std::size_t got =
        std::fseek(file, static_cast<long>(at), SEEK_SET) == 0 ? std::fread(bytes, 1, 4, file) : 0;
    if (got == 0) break;  // the end: between frames, or past the last (checked below)
    frame = at;
    at += got;
    if (got < 4) {
      problem = truncated(frame);
      break;
    }
    const std::uint64_t magic = little_endian(bytes, 4);
    if ((magic & 0xFFFFFFF0u) == 0x184D2A50u) {  // a skippable frame: its size, then data
      if (!read(bytes, 4)) problem = truncated(frame);
      at += little_endian(bytes, 4);
      continue;
    }
    if (magic != 0xFD2FB528u) {
      problem = fmt::format("byte {} does not start a zstd frame", frame);
      break;
    }
    if (!read(bytes, 1)) {
      problem = truncated(frame);
      break;
    }
    const unsigned descriptor = bytes[0];
    const bool single_segment = descriptor & 0x20;
    const bool checksum = descriptor & 0x04;
    static constexpr std::size_t kDictionaryBytes[] = {0, 1, 2, 4};
    static constexpr std::size_t kContentSizeBytes[] = {0, 2, 4, 8};
    std::size_t header = (single_segment ? 0 : 1) + kDictionaryBytes[descriptor & 3] +
                         kContentSizeBytes[descriptor >> 6];
    if ((descriptor >> 6) == 0 && single_segment) header += 1;
    at += header;
    for (bool last = false; !last;) {
      if (!read(bytes, 3)) {
        problem = truncated(frame);
        break;
      }
      const std::uint64_t block = little_endian(bytes, 3);
      last = block & 1;
      const unsigned type = (block >> 1) & 3;
      if (type == 3) {
        problem = fmt::format("the zstd frame at byte {} has a reserved block type", frame);
        break;
      }
      at += type == 1 ? 1 : block >> 3;  // RLE: one byte; raw and compressed: their size
    }
    if (problem.empty() && checksum) at += 4;
  }
  // The last frame's blocks (or skipped data) must end inside the file.
  if (problem.empty() && std::fseek(file, 0, SEEK_END) == 0) {
    const long size = std::ftell(file);
    if (size >= 0 && at > static_cast<std::uint64_t>(size)) problem = truncated(frame);
  }
  std::fclose(file);
  return problem;
}

// The first size of the line buffer: a chunk, or less for a small file, so
// that memory follows the input (thousands of one-line traces at once); it
// grows (doubling) for a line that does not fit. A compressed file's text is
// larger than the file: allow for it.
std::size_t initial_buffer_bytes(const std::string& path, const std::string& compression) {
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error) return kChunkBytes;
  const std::uintmax_t text = compression == "none" ? size + 1 : size * 8;
  return static_cast<std::size_t>(std::clamp<std::uintmax_t>(text, kMinChunkBytes, kChunkBytes));
}

}  // namespace

std::string detect_compression(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) throw make_error("{}: cannot open: {}", path, std::strerror(errno));
  unsigned char magic[6] = {};
  const std::size_t n = std::fread(magic, 1, sizeof magic, file);
  std::fclose(file);
  auto starts = [&](std::initializer_list<unsigned char> bytes) {
    return n >= bytes.size() && std::equal(bytes.begin(), bytes.end(), magic);
  };
  if (starts({0x1f, 0x8b})) return "gzip";
  if (starts({'B', 'Z', 'h'})) return "bzip2";
  if (starts({0xfd, '7', 'z', 'X', 'Z', 0x00})) return "xz";
  if (starts({0x28, 0xb5, 0x2f, 0xfd})) return "zstd";
  return "none";
}

// Plain files through stdio; compressed ones through a Boost filter chain.
class LineInput::Source {
 public:
  // `name`: the file in messages.
  Source(const std::string& path, const std::string& name, const std::string& compression)
      : path_(path), name_(name), zstd_(compression == "zstd") {
    if (compression == "none") {
      file_ = std::fopen(path.c_str(), "rb");
      if (!file_) throw make_error("{}: cannot open: {}", name, std::strerror(errno));
      return;
    }
    // 64 KiB filter buffers instead of Boost's 4 KiB: gzip'd MSR parses at
    // 4.6 M lines/s instead of 3.2 M (bench/trace_bench.cpp).
    if (compression == "gzip")
      stream_.push(io::gzip_decompressor(io::zlib::default_window_bits, kFilterBytes),
                   kFilterBytes);
    if (compression == "bzip2")
      stream_.push(io::bzip2_decompressor(false, kFilterBytes), kFilterBytes);
    if (compression == "xz") stream_.push(io::lzma_decompressor(kFilterBytes), kFilterBytes);
    if (compression == "zstd") stream_.push(io::zstd_decompressor(kFilterBytes), kFilterBytes);
    io::file_source file(path, std::ios::binary);
    if (!file.is_open()) throw make_error("{}: cannot open: {}", name, std::strerror(errno));
    stream_.push(file, kFilterBytes);
    stream_.exceptions(std::ios::badbit);
  }
  ~Source() {
    if (file_) std::fclose(file_);
  }

  // Reads up to `size` bytes; 0 at the end.
  std::size_t read(char* data, std::size_t size, std::uint64_t line) {
    if (file_) {
      const std::size_t n = std::fread(data, 1, size, file_);
      if (n == 0 && std::ferror(file_))
        throw make_error("{}: read error after line {}: {}", name_, line, std::strerror(errno));
      return n;
    }
    // Corrupt or truncated compressed data: the lines decoded before it are
    // delivered first, so that the error names the line it follows. Reads
    // go in pieces, so that a failure loses only the piece it happens in.
    if (!failure_.empty())
      throw make_error("{}: corrupt compressed data after line {}: {}", name_, line, failure_);
    std::size_t done = 0;
    try {
      while (done < size) {
        const std::size_t piece = std::min<std::size_t>(size - done, kPieceBytes);
        stream_.read(data + done, static_cast<std::streamsize>(piece));
        const auto got = static_cast<std::size_t>(stream_.gcount());
        done += got;
        if (got < piece) break;
      }
    } catch (const std::exception& error) {
      failure_ = error.what();
      if (done == 0)
        throw make_error("{}: corrupt compressed data after line {}: {}", name_, line, failure_);
    }
    if (done == 0 && zstd_) {  // the end: was it the end of a frame?
      zstd_ = false;           // checked once
      failure_ = zstd_frames_problem(path_);
      if (!failure_.empty())
        throw make_error("{}: corrupt compressed data after line {}: {}", name_, line, failure_);
    }
    return done;
  }

 private:
  static constexpr std::size_t kPieceBytes = 4096;
  std::string path_, name_;
  bool zstd_ = false;  // zstd, its frames not yet checked (zstd_frames_problem)
  std::FILE* file_ = nullptr;
  io::filtering_istream stream_;
  std::string failure_;  // a decompression error not yet reported
};

LineInput::LineInput(const std::string& path, const std::string& name)
    : path_(path),
      name_(name.empty() ? path : name),
      compression_(detect_compression(path)),
      source_(std::make_unique<Source>(path, name_, compression_)),
      buffer_(initial_buffer_bytes(path, compression_)) {}

LineInput::~LineInput() = default;

bool LineInput::refill() {
  if (eof_) return false;
  if (begin_ > 0) {  // keep the unfinished line, at the front
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buffer_.size()) {
    if (buffer_.size() >= kMaxLineBytes)
      throw make_error("{}:{}: line longer than {} bytes", name_, line_number_ + 1, kMaxLineBytes);
    buffer_.resize(std::min(buffer_.size() * 2, kMaxLineBytes));
  }
  const std::size_t n = source_->read(buffer_.data() + end_, buffer_.size() - end_, line_number_);
  end_ += n;
  eof_ = n == 0;
  return n > 0;
}

bool LineInput::next(std::string_view& line) {
  std::size_t searched = begin_;
  while (true) {
    const char* start = buffer_.data() + searched;
    const auto* newline = static_cast<const char*>(std::memchr(start, '\n', end_ - searched));
    if (newline) {
      const std::size_t end = static_cast<std::size_t>(newline - buffer_.data());
      line = std::string_view(buffer_.data() + begin_, end - begin_);
      begin_ = end + 1;
      break;
    }
    const std::size_t pending = end_ - begin_;
    if (!refill()) {
      if (pending == 0) return false;
      line = std::string_view(buffer_.data() + begin_, end_ - begin_);  // no final newline
      begin_ = end_;
      break;
    }
    searched = begin_ + pending;
  }
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  // A UTF-8 byte order mark (Windows editors write one) is not part of the
  // first line.
  if (line_number_ == 0 && line.starts_with("\xEF\xBB\xBF")) line.remove_prefix(3);
  ++line_number_;
  return true;
}

}  // namespace ssdlab::traces
