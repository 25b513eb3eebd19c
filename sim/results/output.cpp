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
#include <regex>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>

#include "common/error.h"
#include "common/output_error.h"

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

NamedPath command_input(std::string_view what, const std::filesystem::path& path) {
  return {fmt::format("also an input of this command ({})", what), path};
}

bool same_file(const std::filesystem::path& a, const std::filesystem::path& b) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::equivalent(a, b, error)) return true;
  if (fs::exists(a, error) && fs::exists(b, error)) return false;  // two files
  const fs::path left = fs::weakly_canonical(fs::absolute(a, error), error);
  const fs::path right = fs::weakly_canonical(fs::absolute(b, error), error);
  return !left.empty() && left == right;
}

void check_output_path(const std::filesystem::path& path, std::string_view what,
                       std::span<const NamedPath> others) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (std::filesystem::is_directory(status))
    throw make_error("{}: is a directory; give the {} a file name", path.string(), what);
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    throw make_error("{}: not a regular file; give the {} a file name", path.string(), what);
  for (const NamedPath& other : others)
    if (!other.path.empty() && same_file(path, other.path))
      throw make_error("{}: is {}; give the {} another name", path.string(), other.what, what);
}

void check_replaces_own_kind(const std::filesystem::path& path, std::string_view what,
                             std::string_view start) {
  // O_NOFOLLOW is not needed: check_output_path has refused all but regular files.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return;  // nothing there (or unreadable: the rename decides)
  std::string head(start.size(), '\0');
  const ssize_t got = ::read(fd, head.data(), head.size());
  ::close(fd);
  if (got == 0) return;  // an empty file holds nothing to lose
  if (got != static_cast<ssize_t>(start.size()) || head != start)
    throw make_error("{}: exists and is not an ssdlab {}; remove it or give another name",
                     path.string(), what);
}

bool is_output_temporary(const std::string& name) {
  static const std::regex kTemporary(R"((io\.csv|summary\.json|refused\.csv)(\.[A-Za-z0-9]+)?\.partial)");
  return std::regex_match(name, kTemporary);
}

void check_outputs_complete(const std::filesystem::path& dir) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error))
    if (is_output_temporary(entry.path().filename().string()))
      throw make_error(
          "{}: holds {}: the outputs of a run that did not finish, or is still running (rerun "
          "it)",
          dir.string(), entry.path().filename().string());
}

OutputLock::OutputLock(const std::filesystem::path& dir, Mode mode, std::string_view option) {
  const std::filesystem::path lock = dir / ".ssdlab.lock";
  fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0)
    throw make_error("{}: cannot lock the output folder: {}", dir.string(), std::strerror(errno));
  if (::flock(fd_, (mode == Mode::kShared ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    if (error == EWOULDBLOCK)
      throw make_error(
          "{}: another ssdlab run is writing into this output folder; give each run its own {}",
          dir.string(), option);
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

// The header every io.csv starts with is a contract (DESIGN.md, "Outputs"):
// the row parser that reads it back holds it (common/io_csv_row.h), and the
// writer checks it is the contract's.
static_assert(kIoCsvHeader == "experiment,run,process,io,submit_us,rt_us,mode,offset,size",
              "io.csv's header is DESIGN.md's contract");

IoLog::IoLog(std::filesystem::path path)
    : path_((check_output_path(path, "io log"), std::move(path))), temporary_(path_) {
  buffer_.resize(kBufferBytes);
  used_ = std::copy(kIoCsvHeader.begin(), kIoCsvHeader.end(), buffer_.data()) - buffer_.data();
  buffer_[used_++] = '\n';
}

IoLog::~IoLog() = default;  // the TemporaryFile removes itself unless published

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
  std::FILE* file = temporary_.file();
  if (!file) throw make_error("{}: written after it was finished", temporary_.path().string());
  const bool simulated = write_fails_for_test(path_);
  if (simulated || (used_ > 0 && std::fwrite(buffer_.data(), 1, used_, file) != used_))
    throw write_failed(temporary_.path().string(), simulated ? ENOSPC : errno);
  used_ = 0;
}

void IoLog::commit() {
  finish();
  publish();
}

void IoLog::finish() {
  flush();
  if (!temporary_.close()) throw write_failed(temporary_.path().string(), errno);
}

void IoLog::publish() {
  if (temporary_.file()) finish();
  temporary_.publish("io.csv");
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
    : temporary_((check_output_path(path), std::move(path))) {
  const bool simulated = write_fails_for_test(temporary_.target());
  const bool written =
      !simulated && std::fwrite(text.data(), 1, text.size(), temporary_.file()) == text.size();
  const int write_errno = errno;
  const bool closed = temporary_.close();
  if (!written || !closed)
    throw write_failed(temporary_.path().string(),
                       simulated ? ENOSPC : written ? errno : write_errno);
}

PendingFile::~PendingFile() = default;

void PendingFile::publish() {
  temporary_.publish();
}

TemporaryFile::TemporaryFile(std::filesystem::path target) : target_(std::move(target)) {
  // Random letters from the clock, the process and this object's address:
  // names differ between runs and threads; O_EXCL catches the rest.
  std::uint64_t seed =
      static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
      (static_cast<std::uint64_t>(::getpid()) << 32) ^ reinterpret_cast<std::uintptr_t>(this);
  constexpr std::string_view kLetters =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  int fd = -1;
  int error = 0;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    std::string letters;
    for (int i = 0; i < 6; ++i) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      letters += kLetters[(seed >> 33) % kLetters.size()];
    }
    path_ = target_.string() + "." + letters + ".partial";
    fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    error = errno;
    if (fd < 0 && error != EEXIST) break;
  }
  if (fd >= 0) register_temporary(path_);  // only a file this object made
  if (fd >= 0) file_ = ::fdopen(fd, "wb");
  if (!file_) {
    if (fd >= 0) {
      error = errno;
      ::close(fd);
      ::unlink(path_.c_str());
      unregister_temporary(path_);
    }
    throw make_error("{}: cannot create a temporary file beside it: {}", target_.string(),
                     std::strerror(error));
  }
}

TemporaryFile::~TemporaryFile() {
  if (file_) std::fclose(file_);
  if (published_) return;
  ::unlink(path_.c_str());
  unregister_temporary(path_);
}

bool TemporaryFile::close() {
  if (!file_) return true;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  return closed;
}

void TemporaryFile::publish(std::string_view what) {
  if (published_) return;
  if (!close()) throw write_failed(path_.string(), errno);
  if (::rename(path_.c_str(), target_.c_str()) != 0) {
    const int error = errno;  // before anything else can change it
    throw make_error("{}: cannot rename {} into place: {}", target_.string(), what,
                     std::strerror(error));
  }
  published_ = true;
  unregister_temporary(path_);
}

}  // namespace ssdlab::sim
