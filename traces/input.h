// A text file read line by line through a reused buffer: plain, or gzip,
// bzip2, xz or zstd compressed (recognised by their magic bytes, whatever the
// file is called) and decompressed on the fly through Boost.Iostreams. Lines
// are views into the buffer: no allocation per line, and memory stays the
// same whatever the size of the file.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ssdlab::traces {

// "none", "gzip", "bzip2", "xz" or "zstd", from the first bytes of `path`.
// Throws ssdlab::Error if the file cannot be read.
std::string detect_compression(const std::string& path);

class LineInput {
 public:
  // Throws ssdlab::Error "NAME: cannot open: why". Messages name the file
  // `name` ("stdin" for a copy of standard input), its path if empty.
  explicit LineInput(const std::string& path, const std::string& name = {});
  ~LineInput();
  LineInput(const LineInput&) = delete;
  LineInput& operator=(const LineInput&) = delete;

  // The next line, without its "\n" or "\r\n"; false at the end of the file.
  // The view is valid until the next call. Throws ssdlab::Error on a read
  // error or corrupt compressed data.
  bool next(std::string_view& line);
  // The number of the line last returned by next(), from 1.
  std::uint64_t line_number() const { return line_number_; }
  // The file's name in messages: `name`, or its path.
  const std::string& path() const { return name_; }
  const std::string& compression() const { return compression_; }

 private:
  class Source;  // plain or decompressing byte source
  bool refill();

  std::string path_;
  std::string name_;
  std::string compression_;
  std::unique_ptr<Source> source_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0, end_ = 0;  // unread bytes: buffer_[begin_, end_)
  bool eof_ = false;
  std::uint64_t line_number_ = 0;
};

}  // namespace ssdlab::traces
