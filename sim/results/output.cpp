#include "sim/results/output.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>

#include "common/error.h"

namespace ssdlab::sim {
namespace {
constexpr std::size_t kBufferBytes = 1 << 20;
// Room for the numeric fields of one row: 8 numbers of at most 22 characters
// (a sign, 20 digits, a decimal point) and their separators.
constexpr std::size_t kMaxRowNumbers = 8 * 24;

// The registered temporary files, in fixed storage the signal handler can
// read without allocating.
constexpr std::size_t kTemporarySlots = 32;
constexpr std::size_t kTemporaryPathBytes = 4096;
char temporary_paths[kTemporarySlots][kTemporaryPathBytes];
std::atomic<bool> temporary_used[kTemporarySlots];

extern "C" void remove_temporaries_and_reraise(int signal) {
  for (std::size_t i = 0; i < kTemporarySlots; ++i)
    if (temporary_used[i].load()) ::unlink(temporary_paths[i]);
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

// The OS error of a failed write: errno, or ENOSPC for a simulated failure.
std::string write_error(bool simulated) {
  return std::strerror(simulated ? ENOSPC : errno);
}
}  // namespace

void register_temporary(const std::filesystem::path& path) {
  const std::string& text = path.native();
  if (text.size() >= kTemporaryPathBytes) return;
  for (std::size_t i = 0; i < kTemporarySlots; ++i) {
    if (temporary_used[i].load()) continue;
    std::memcpy(temporary_paths[i], text.c_str(), text.size() + 1);
    temporary_used[i].store(true);
    return;
  }
}

void unregister_temporary(const std::filesystem::path& path) {
  for (std::size_t i = 0; i < kTemporarySlots; ++i)
    if (temporary_used[i].load() && path.native() == temporary_paths[i]) {
      temporary_used[i].store(false);
      return;
    }
}

void install_signal_cleanup() {
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) std::signal(signal, remove_temporaries_and_reraise);
}

bool write_fails_for_test(const std::filesystem::path& path) {
  const char* name = std::getenv("SSDLAB_TEST_FAIL_WRITE");
  return name && *name && path.filename() == name;
}

void check_output_path(const std::filesystem::path& path, const char* what) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (std::filesystem::is_directory(status))
    throw make_error("{}: is a directory; give the {} a file name", path.string(), what);
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    throw make_error("{}: not a regular file; give the {} a file name", path.string(), what);
}

OutputLock::OutputLock(const std::filesystem::path& dir) {
  const std::filesystem::path lock = dir / ".ssdlab.lock";
  fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw make_error("{}: cannot lock the output folder: {}", dir.string(), std::strerror(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    if (error == EWOULDBLOCK)
      throw make_error(
          "{}: another ssdlab run is writing into this output folder; give each run its own -o",
          dir.string());
    throw make_error("{}: cannot lock the output folder: {}", dir.string(), std::strerror(error));
  }
}

OutputLock::~OutputLock() {
  if (fd_ >= 0) ::close(fd_);  // releases the flock
}

OutputLock& OutputLock::operator=(OutputLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

IoLog::IoLog(std::filesystem::path path)
    : path_(std::move(path)), temporary_(path_.string() + ".partial") {
  check_output_path(path_, "io log");
  register_temporary(temporary_);
  file_ = std::fopen(temporary_.c_str(), "wb");
  if (!file_) {
    unregister_temporary(temporary_);
    throw make_error("{}: cannot create: {}", temporary_.string(), std::strerror(errno));
  }
  buffer_.resize(kBufferBytes);
  used_ = std::copy(kIoCsvHeader.begin(), kIoCsvHeader.end(), buffer_.data()) - buffer_.data();
  buffer_[used_++] = '\n';
}

IoLog::~IoLog() {
  if (file_) std::fclose(file_);
  if (!published_) {
    std::error_code ignored;
    std::filesystem::remove(temporary_, ignored);
    unregister_temporary(temporary_);
  }
}

void IoLog::row(std::string_view experiment, std::uint32_t run, std::uint32_t process,
                std::uint64_t io, TimeNs submit, TimeNs response, IoMode mode, std::uint64_t offset,
                std::uint32_t size) {
  // Formatted straight into the buffer through a raw pointer: one capacity
  // check per row instead of one per field. A row is the experiment name plus
  // at most 8 numbers of 20 digits and their separators.
  const std::size_t room = experiment.size() + kMaxRowNumbers;
  if (used_ + room > buffer_.size()) {
    flush();
    if (room > buffer_.size()) buffer_.resize(room);  // a very long experiment name
  }
  char* out = buffer_.data() + used_;
  out = std::copy(experiment.begin(), experiment.end(), out);
  *out++ = ',';
  auto number = [&out](std::uint64_t value, char separator) {
    out = std::to_chars(out, out + 20, value).ptr;
    *out++ = separator;
  };
  number(run, ',');
  number(process, ',');
  number(io, ',');
  out = format_us(submit, out);
  *out++ = ',';
  out = format_us(response, out);
  *out++ = ',';
  *out++ = io_mode_letter(mode);
  *out++ = ',';
  number(offset, ',');
  number(size, '\n');
  used_ = static_cast<std::size_t>(out - buffer_.data());
  ++rows_;
}

void IoLog::flush() {
  if (!file_) throw make_error("{}: written after it was finished", temporary_.string());
  const bool simulated = write_fails_for_test(path_);
  if (simulated || (used_ > 0 && std::fwrite(buffer_.data(), 1, used_, file_) != used_))
    throw make_error("{}: write failed: {}", temporary_.string(), write_error(simulated));
  used_ = 0;
}

void IoLog::commit() {
  finish();
  publish();
}

void IoLog::finish() {
  flush();
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!closed) throw make_error("{}: write failed: {}", temporary_.string(), std::strerror(errno));
}

void IoLog::publish() {
  if (file_) finish();
  std::error_code error;
  std::filesystem::rename(temporary_, path_, error);
  if (error)
    throw make_error("{}: cannot rename into place: {}", path_.string(), error.message());
  published_ = true;
  unregister_temporary(temporary_);
}

nlohmann::json parse_json(const std::string& text, std::size_t start, const std::string& path) {
  try {
    return nlohmann::json::parse(text.begin() + static_cast<std::ptrdiff_t>(start), text.end());
  } catch (const nlohmann::json::parse_error& error) {
    // error.byte is 1-based, past the end at an unexpected end of input.
    const std::size_t at = std::min(text.size(), start + (error.byte ? error.byte - 1 : 0));
    const auto line =
        1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
    throw make_error("{}:{}: malformed JSON", path, line);
  } catch (const nlohmann::json::exception& error) {
    // The parser's other refusals: a number beyond a double (1e400), a
    // nesting too deep. Its message without the "[json.exception...] " tag.
    std::string what = error.what();
    if (const auto tag = what.find("] "); what.starts_with("[json.exception") && tag != what.npos)
      what.erase(0, tag + 2);
    throw make_error("{}: malformed JSON: {}", path, what);
  }
}

nlohmann::json read_json_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw make_error("{}: cannot open", path.string());
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return parse_json(text, 0, path.string());
}

void write_file_atomically(const std::filesystem::path& path, const std::string& text) {
  PendingFile(path, text).publish();
}

PendingFile::PendingFile(std::filesystem::path path, const std::string& text)
    : path_(std::move(path)), temporary_(path_.string() + ".partial") {
  check_output_path(path_);
  register_temporary(temporary_);
  std::FILE* file = std::fopen(temporary_.c_str(), "wb");
  if (!file) {
    const int error = errno;
    unregister_temporary(temporary_);
    throw make_error("{}: cannot create: {}", temporary_.string(), std::strerror(error));
  }
  const bool simulated = write_fails_for_test(path_);
  const bool written =
      !simulated && std::fwrite(text.data(), 1, text.size(), file) == text.size();
  const int write_errno = errno;
  const bool closed = std::fclose(file) == 0;
  if (!written || !closed) {
    const std::string what = simulated ? std::strerror(ENOSPC)
                                       : std::strerror(written ? errno : write_errno);
    std::error_code ignored;
    std::filesystem::remove(temporary_, ignored);
    unregister_temporary(temporary_);
    throw make_error("{}: write failed: {}", temporary_.string(), what);
  }
}

PendingFile::~PendingFile() {
  if (published_) return;
  std::error_code ignored;
  std::filesystem::remove(temporary_, ignored);
  unregister_temporary(temporary_);
}

void PendingFile::publish() {
  std::error_code error;
  std::filesystem::rename(temporary_, path_, error);
  if (error)
    throw make_error("{}: cannot rename into place: {}", path_.string(), error.message());
  published_ = true;
  unregister_temporary(temporary_);
}

}  // namespace ssdlab::sim
