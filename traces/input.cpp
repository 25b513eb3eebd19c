#include "traces/input.h"

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
#include <initializer_list>

#include "common/error.h"

namespace ssdlab::traces {
namespace io = boost::iostreams;

namespace {

constexpr std::size_t kChunkBytes = std::size_t{1} << 20;
constexpr std::size_t kFilterBytes = std::size_t{1} << 16;
constexpr std::size_t kMaxLineBytes = std::size_t{64} << 20;

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
  Source(const std::string& path, const std::string& compression) : path_(path) {
    if (compression == "none") {
      file_ = std::fopen(path.c_str(), "rb");
      if (!file_) throw make_error("{}: cannot open: {}", path, std::strerror(errno));
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
    if (!file.is_open()) throw make_error("{}: cannot open: {}", path, std::strerror(errno));
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
        throw make_error("{}: read error after line {}: {}", path_, line, std::strerror(errno));
      return n;
    }
    // Corrupt or truncated compressed data: the lines decoded before it are
    // delivered first, so that the error names the line it follows. Reads
    // go in pieces, so that a failure loses only the piece it happens in.
    if (!failure_.empty())
      throw make_error("{}: corrupt compressed data after line {}: {}", path_, line, failure_);
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
        throw make_error("{}: corrupt compressed data after line {}: {}", path_, line, failure_);
    }
    return done;
  }

 private:
  static constexpr std::size_t kPieceBytes = 4096;
  std::string path_;
  std::FILE* file_ = nullptr;
  io::filtering_istream stream_;
  std::string failure_;  // a decompression error not yet reported
};

LineInput::LineInput(const std::string& path)
    : path_(path),
      compression_(detect_compression(path)),
      source_(std::make_unique<Source>(path, compression_)),
      buffer_(kChunkBytes) {}

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
      throw make_error("{}:{}: line longer than {} bytes", path_, line_number_ + 1, kMaxLineBytes);
    buffer_.resize(buffer_.size() * 2);
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
