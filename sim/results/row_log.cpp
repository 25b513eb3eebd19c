#include "sim/results/row_log.h"

#include <cerrno>

#include "common/error.h"
#include "common/output_error.h"

namespace ssdlab::sim {
namespace {

[[noreturn]] void failed(const std::filesystem::path& path, int error) {
  throw write_failed(path.string(), error);
}

}  // namespace

void RowLog::row(std::string_view text) {
  if (!temporary_) {
    temporary_.emplace(path_);
    if (std::fprintf(temporary_->file(), "%.*s\n", static_cast<int>(header_.size()),
                     header_.data()) < 0)
      failed(temporary_->path(), errno);
  }
  std::FILE* file = temporary_->file();
  if (!file) throw make_error("{}: written after it was finished", temporary_->path().string());
  // stdio buffers the rows; a failure shows here or at finish().
  const bool simulated = write_fails_for_test(path_);
  if (simulated || std::fwrite(text.data(), 1, text.size(), file) != text.size() ||
      std::fputc('\n', file) == EOF)
    failed(temporary_->path(), simulated ? ENOSPC : errno);
  ++rows_;
}

void RowLog::finish() {
  if (temporary_ && !temporary_->close()) failed(temporary_->path(), errno);
}

void RowLog::publish() {
  if (temporary_) temporary_->publish(name_);
}

}  // namespace ssdlab::sim
