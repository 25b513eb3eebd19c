// refused.csv: the commands a zoned device refused, one row each
// (docs/zns.md), streamed as io.csv is (issue 51, L10): rows go to a
// temporary file as they come, so memory does not grow with the refusals.
// The file is created at the first refusal (a run that refused nothing has
// no refused.csv) and renamed into place with the run's other outputs.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string_view>

#include "common/io_mode.h"
#include "sim/results/output.h"

namespace ssdlab::sim {

inline constexpr std::string_view kRefusedCsvHeader =
    "experiment,run,process,io,mode,offset,size,status,code";

class RefusalLog {
 public:
  explicit RefusalLog(std::filesystem::path path) : path_(std::move(path)) {}

  // One refused command: its io.csv key, what it asked, and the device's
  // status (its ZNS name and code). Throws ssdlab::Error on a failed write.
  void row(std::string_view experiment, std::uint32_t run, std::uint32_t process,
           std::uint64_t io, IoMode mode, std::uint64_t offset, std::uint32_t size,
           std::string_view status, unsigned code);
  std::uint64_t rows() const { return rows_; }
  // Completes the temporary file (every write checked); then publish()
  // renames it into place. Both do nothing without a row.
  void finish();
  void publish();

 private:
  std::filesystem::path path_;
  std::optional<TemporaryFile> temporary_;
  std::uint64_t rows_ = 0;
};

}  // namespace ssdlab::sim
