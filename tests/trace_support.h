// Helpers for the trace tests: trace files written on the fly, compressed
// copies, and reading a whole (small) trace into records.
#pragma once

#include <bzlib.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "test_support.h"
#include "traces/trace_file.h"

namespace ssdlab::testing {

// Compressed files are written with zlib and libbz2 directly (what
// Boost.Iostreams wraps), so that the tests do not depend on the reader's
// own library to produce their input.
inline std::filesystem::path write_gzip(const std::filesystem::path& path,
                                        const std::string& text) {
  gzFile file = gzopen(path.c_str(), "wb");
  EXPECT_NE(file, nullptr) << path;
  EXPECT_EQ(gzwrite(file, text.data(), static_cast<unsigned>(text.size())),
            static_cast<int>(text.size()));
  EXPECT_EQ(gzclose(file), Z_OK);
  return path;
}

inline std::filesystem::path write_bzip2(const std::filesystem::path& path,
                                         const std::string& text) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  EXPECT_NE(file, nullptr) << path;
  int error = BZ_OK;
  BZFILE* bz = BZ2_bzWriteOpen(&error, file, 9, 0, 0);
  std::string data = text;  // libbz2 takes a non-const buffer
  BZ2_bzWrite(&error, bz, data.data(), static_cast<int>(data.size()));
  EXPECT_EQ(error, BZ_OK);
  BZ2_bzWriteClose(&error, bz, 0, nullptr, nullptr);
  EXPECT_EQ(error, BZ_OK);
  std::fclose(file);
  return path;
}

// Records from a vector, as a reader would return them.
class VectorReader final : public traces::TraceReader {
 public:
  explicit VectorReader(std::vector<traces::TraceRecord> records) : records_(std::move(records)) {}
  std::optional<traces::TraceRecord> next() override {
    if (next_ == records_.size()) return std::nullopt;
    return records_[next_++];
  }

 private:
  std::vector<traces::TraceRecord> records_;
  std::size_t next_ = 0;
};

// Every record of `path` read as `format`.
inline std::vector<traces::TraceRecord> read_all(const std::filesystem::path& path,
                                                 const std::string& format,
                                                 traces::ReadOptions options = {}) {
  options.format = format;
  traces::TraceFile file(path.string(), options);
  std::vector<traces::TraceRecord> records;
  while (auto record = file.next()) records.push_back(*record);
  return records;
}

}  // namespace ssdlab::testing
