#include "sim/results/refusal_log.h"

#include <fmt/format.h>

#include <cerrno>

#include "common/error.h"
#include "common/output_error.h"

namespace ssdlab::sim {
namespace {

[[noreturn]] void failed(const std::filesystem::path& path, int error) {
  throw write_failed(path.string(), error);
}

}  // namespace

void RefusalLog::row(std::string_view experiment, std::uint32_t run, std::uint32_t process,
                     std::uint64_t io, IoMode mode, std::uint64_t offset, std::uint32_t size,
                     std::string_view status, unsigned code) {
  if (!temporary_) {
    temporary_.emplace(path_);
    if (std::fprintf(temporary_->file(), "%s\n", std::string(kRefusedCsvHeader).c_str()) < 0)
      failed(temporary_->path(), errno);
  }
  std::FILE* file = temporary_->file();
  if (!file) throw make_error("{}: written after it was finished", temporary_->path().string());
  // stdio buffers the rows; a failure shows here or at finish().
  const std::string text = fmt::format("{},{},{},{},{},{},{},{},0x{:03X}\n", experiment, run,
                                       process, io, io_mode_letter(mode), offset, size, status,
                                       code);
  const bool simulated = write_fails_for_test(path_);
  if (simulated || std::fwrite(text.data(), 1, text.size(), file) != text.size())
    failed(temporary_->path(), simulated ? ENOSPC : errno);
  ++rows_;
}

void RefusalLog::finish() {
  if (temporary_ && !temporary_->close()) failed(temporary_->path(), errno);
}

void RefusalLog::publish() {
  if (temporary_) temporary_->publish("refused.csv");
}

}  // namespace ssdlab::sim
