// A CSV of rows beside io.csv that a run writes only when it has some:
// refused.csv (a zoned device's refusals, docs/zns.md) and errors.csv (the
// reads no ECC step corrected, docs/errors.md). Streamed as io.csv is
// (issue 51, L10): rows go to a temporary file as they come, so memory does
// not grow with them. The file is created at the first row (a run without
// any has no such file) and renamed into place with the run's other outputs.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "sim/results/output.h"

namespace ssdlab::sim {

inline constexpr std::string_view kRefusedCsvHeader =
    "experiment,run,process,io,mode,offset,size,status,code";
inline constexpr std::string_view kErrorsCsvHeader =
    "experiment,run,process,io,mode,offset,size,lpn,ppn,bit_errors,rber";

class RowLog {
 public:
  // `folder`/`name`, whose first line is `header`.
  RowLog(const std::filesystem::path& folder, std::string name, std::string_view header)
      : path_(folder / name), name_(std::move(name)), header_(header) {}

  // One row (without its newline). Throws ssdlab::Error on a failed write.
  void row(std::string_view text);
  std::uint64_t rows() const { return rows_; }
  // Completes the temporary file (every write checked); then publish()
  // renames it into place. Both do nothing without a row.
  void finish();
  void publish();

 private:
  std::filesystem::path path_;
  std::string name_;
  std::string_view header_;
  std::optional<TemporaryFile> temporary_;
  std::uint64_t rows_ = 0;
};

}  // namespace ssdlab::sim
