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

std::vector<double> parse_percentiles(std::string_view text) {
  std::vector<double> percents;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item = text.substr(start, comma - start);
    double percent = 0;
    const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), percent);
    if (item.empty() || error != std::errc() || end != item.data() + item.size() ||
        !(percent > 0 && percent <= 100))
      throw make_error(
          "--percentiles '{}': '{}' is not a percent in (0, 100] (expected a list such as "
          "50,90,99,99.9)",
          text, item);
    percents.push_back(percent);
    start = comma + 1;
  }
  if (percents.size() > 16) throw make_error("--percentiles '{}': at most 16", text);
  return percents;
}

std::string percentile_key(double percent) {
  std::string text = fmt::format("{}", percent);
  std::replace(text.begin(), text.end(), '.', '_');
  return "p" + text + "_us";
}

std::uint32_t LatencyHistogram::index_of(TimeNs ns) {
  const auto v = static_cast<std::uint64_t>(std::max<TimeNs>(ns, 0));
  if (v < 4) return static_cast<std::uint32_t>(v);
  const auto exponent = static_cast<std::uint32_t>(std::bit_width(v) - 1);  // >= 2
  const auto mantissa = static_cast<std::uint32_t>((v >> (exponent - 2)) & 3);
  return 4 * (exponent - 1) + mantissa;  // 4 .. : exponent 2 starts at index 4
}

TimeNs LatencyHistogram::lower_bound(std::uint32_t index) {
  if (index < 4) return index;
  const std::uint32_t exponent = index / 4 + 1, mantissa = index % 4;
  return static_cast<TimeNs>((std::uint64_t{4} + mantissa) << (exponent - 2));
}

namespace {

LatencyHistogram histogram_of(const std::vector<TimeNs>& responses) {
  std::vector<std::uint64_t> counts(LatencyHistogram::index_of(std::numeric_limits<TimeNs>::max()) +
                                    1);
  for (TimeNs r : responses) ++counts[LatencyHistogram::index_of(r)];
  LatencyHistogram histogram;
  for (std::uint32_t i = 0; i < counts.size(); ++i)
    if (counts[i])
      histogram.buckets.push_back({LatencyHistogram::lower_bound(i),
                                   i + 1 < counts.size() ? LatencyHistogram::lower_bound(i + 1)
                                                         : std::numeric_limits<TimeNs>::max(),
                                   counts[i]});
  return histogram;
}

}  // namespace

RunStats compute_stats(std::vector<TimeNs>& responses, std::uint64_t count, TimeNs span,
                       std::uint64_t bytes, std::span<const double> percentiles) {
  RunStats stats;
  stats.count = count;
  stats.ignored = count - responses.size();
  if (responses.empty()) return stats;
  const auto n = responses.size();
  auto rank = [&responses, n](double fraction) {
    // Rounding of fraction x n must not push an exact rank up by one (p99.9
    // of 1000 responses is rank 999, not 999.0000000001 rounded up): percents
    // have few decimals, so a true fractional part is far above 1e-7.
    const double exact = fraction * static_cast<double>(n);
    const auto k = static_cast<std::size_t>(std::ceil(exact - 1e-7));
    auto nth = responses.begin() + static_cast<std::ptrdiff_t>(
                                       std::min<std::size_t>(std::max<std::size_t>(k, 1), n) - 1);
    std::nth_element(responses.begin(), nth, responses.end());
    return *nth;
  };
  stats.p50_ns = rank(0.50);
  stats.p99_ns = rank(0.99);
  for (const double percent : percentiles)
    stats.percentiles.push_back({percent, rank(percent / 100)});
  const auto [min, max] = std::minmax_element(responses.begin(), responses.end());
  stats.min_ns = *min;
  stats.max_ns = *max;
  double sum = 0;
  for (TimeNs r : responses) sum += static_cast<double>(r);
  stats.mean_ns = sum / static_cast<double>(n);
  double squares = 0;
  for (TimeNs r : responses) squares += (r - stats.mean_ns) * (r - stats.mean_ns);
  stats.stddev_ns = std::sqrt(squares / static_cast<double>(n));
  stats.histogram = histogram_of(responses);
  if (span > 0) {
    const double seconds = static_cast<double>(span) * 1e-9;
    stats.iops = static_cast<double>(n) / seconds;
    stats.mb_per_s = static_cast<double>(bytes) / seconds / 1e6;
  }
  return stats;
}

nlohmann::json to_json(const RunStats& s) {
  auto us = [](double ns) { return std::round(ns) / 1000.0; };
  nlohmann::json json = {{"count", s.count},
                         {"ignored", s.ignored},
                         {"min_us", us(static_cast<double>(s.min_ns))},
                         {"max_us", us(static_cast<double>(s.max_ns))},
                         {"mean_us", us(s.mean_ns)},
                         {"stddev_us", us(s.stddev_ns)},
                         {"p50_us", us(static_cast<double>(s.p50_ns))},
                         {"p99_us", us(static_cast<double>(s.p99_ns))},
                         {"iops", std::round(s.iops * 10) / 10},
                         {"mb_per_s", std::round(s.mb_per_s * 1000) / 1000}};
  nlohmann::json percentiles = nlohmann::json::object();
  for (const Percentile& p : s.percentiles) {
    json[percentile_key(p.percent)] = us(static_cast<double>(p.ns));
    percentiles[fmt::format("{}", p.percent)] = us(static_cast<double>(p.ns));
  }
  json["percentiles"] = std::move(percentiles);
  nlohmann::json from = nlohmann::json::array(), to = nlohmann::json::array(),
                 counts = nlohmann::json::array();
  for (const auto& bucket : s.histogram.buckets) {
    from.push_back(us(static_cast<double>(bucket.from_ns)));
    to.push_back(us(static_cast<double>(bucket.to_ns)));
    counts.push_back(bucket.count);
  }
  json["histogram"] = {
      {"from_us", std::move(from)}, {"to_us", std::move(to)}, {"counts", std::move(counts)}};
  return json;
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

double mean_over_runs(const nlohmann::json& experiment, const char* key) {
  const auto& runs = experiment.at("runs");
  double sum = 0;
  for (const auto& run : runs) sum += run.at(key).get<double>();
  return runs.empty() ? 0.0 : sum / static_cast<double>(runs.size());
}

}  // namespace ssdlab::sim
