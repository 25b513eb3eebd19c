// Outputs of a run (a contract, DESIGN.md): io.csv, one row per I/O, and the
// statistics that go into summary.json.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/io_csv_row.h"
#include "common/io_mode.h"
#include "common/units.h"

namespace ssdlab::sim {

// The files a run writes into its output folder under fixed names (besides
// fio latency logs and plots), summary.json first: cleared together before a
// run (clear_stale_outputs), refused as the target of any other output
// option, and a temporary of any of them marks an unfinished run
// (is_output_temporary). refused.csv: a zoned device's refusals; errors.csv:
// the reads no ECC step corrected; io_detail.csv: --io-detail's
// (sim/views/io_detail.h).
inline constexpr std::array<const char*, 5> kRunOutputNames = {
    "summary.json", "io.csv", "refused.csv", "errors.csv", "io_detail.csv"};

using ssdlab::kIoCsvHeader;  // common/io_csv_row.h

// A temporary file that becomes `target` once complete. It is created fresh
// beside `target` under a name no other file has (TARGET.XXXXXX.partial),
// with O_CREAT|O_EXCL|O_NOFOLLOW: never an existing file, never through a
// planted symlink, never shared with another run writing the same target.
// It is registered for the signal cleanup below. publish() renames it over
// `target` (atomic: readers see the old file or the new one); destroyed
// unpublished, it is removed.
class TemporaryFile {
 public:
  // Throws ssdlab::Error "TARGET: cannot create a temporary file beside it: ERR".
  explicit TemporaryFile(std::filesystem::path target);
  ~TemporaryFile();
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

  // Open for writing until close().
  std::FILE* file() const { return file_; }
  const std::filesystem::path& path() const { return path_; }
  const std::filesystem::path& target() const { return target_; }
  // Closes the file; false on a failed close (a full disk), errno set.
  bool close();
  // Closes the file if open and renames it over the target. Throws
  // ssdlab::Error "TARGET: cannot rename WHAT into place: ERR", the OS error
  // of the rename itself.
  void publish(std::string_view what = "the file");
  bool published() const { return published_; }

 private:
  std::filesystem::path target_, path_;
  std::FILE* file_ = nullptr;
  bool published_ = false;
};

// Writes io.csv rows through a large buffer. The file is written under a
// temporary name and only renamed to its final name by commit(), so a run that
// fails never leaves an io.csv that looks complete.
//
// A run's outputs are committed together, last: finish() completes the
// temporary file (every write checked), publish() renames it into place.
// commit() is both.
class IoLog {
 public:
  explicit IoLog(std::filesystem::path path);
  ~IoLog();  // removes the temporary file unless published
  IoLog(const IoLog&) = delete;
  IoLog& operator=(const IoLog&) = delete;

  void row(std::string_view experiment, std::uint32_t run, std::uint32_t process, std::uint64_t io,
           TimeNs submit, TimeNs response, IoMode mode, std::uint64_t offset, std::uint32_t size);
  void commit();
  void finish();
  void publish();
  std::uint64_t rows() const { return rows_; }
  // The temporary file: complete after finish(), for what is derived from
  // io.csv before the outputs are committed (--fio-lat-log).
  const std::filesystem::path& temporary_path() const { return temporary_.path(); }

 private:
  void flush();

  std::filesystem::path path_;
  TemporaryFile temporary_;
  std::vector<char> buffer_;  // rows not yet written; its size is its capacity
  std::size_t used_ = 0;      // bytes of buffer_ in use
  std::uint64_t rows_ = 0;
};

// The percentiles summary.json reports by default (fio reports up to p99.99).
inline constexpr double kDefaultPercentiles[] = {50, 90, 99, 99.9, 99.99};
// The I/Os per run whose response times are kept for exact percentiles
// (8 bytes each: 256 MiB); beyond, a histogram (sim/results/run_samples.h).
inline constexpr std::uint64_t kDefaultExactSamples = std::uint64_t{1} << 25;

// Parses "50,90,99,99.9": percents in (0, 100], at most 16; throws
// ssdlab::Error naming --percentiles.
std::vector<double> parse_percentiles(std::string_view text);

class ResponseHistogram;

struct Percentile {
  double percent;  // 99.9
  TimeNs ns;
};

// A log-spaced latency histogram: 4 buckets per doubling of the response
// time (edges 1, 1.19, 1.41, 1.68, 2 x a power of two ns; below 4 ns one
// bucket per ns). Only non-empty buckets are kept, in increasing order.
struct LatencyHistogram {
  struct Bucket {
    TimeNs from_ns, to_ns;  // from_ns <= response < to_ns
    std::uint64_t count;
  };
  std::vector<Bucket> buckets;
  // The bucket `ns` falls in (its index and bounds).
  static std::uint32_t index_of(TimeNs ns);
  static TimeNs lower_bound(std::uint32_t index);
};

// Response-time statistics of one run, after the ignored I/Os.
struct RunStats {
  std::uint64_t count = 0;    // I/Os in the run
  std::uint64_t ignored = 0;  // excluded from the figures below
  TimeNs min_ns = 0, max_ns = 0, p50_ns = 0, p99_ns = 0;
  double mean_ns = 0, stddev_ns = 0;
  double iops = 0, mb_per_s = 0;  // measured I/Os over their span, MB = 10^6 bytes
  // Counted apart (issue 51), in none of the figures above: the run's trims
  // (fio reports trims apart from writes), the commands a zoned device
  // refused, and the zone management commands it served (reset, finish,
  // open, close). `count` is measured + ignored + these three; `ignored` is
  // the reads and writes io_ignore excluded. trim_iops: trims per second over
  // the span from the run's first submission to its last completion.
  std::uint64_t trims = 0, refused = 0, zone_management = 0;
  double trim_iops = 0;
  std::vector<Percentile> percentiles;  // those asked for, in their order
  LatencyHistogram histogram;
  // 0: the percentiles are exact; else they came from a histogram and are
  // within this relative error (ResponseHistogram::kRelativeError).
  double percentile_error = 0;
};

// `responses` is reordered. Percentiles use the nearest-rank definition (the
// smallest response with at least p% of the responses at or below it);
// p50 and p99 always, and each of `percentiles` (percents). stddev is the
// population standard deviation. `span` is from the first measured
// submission to the last completion; `bytes` the measured bytes.
RunStats compute_stats(std::vector<TimeNs>& responses, std::uint64_t count, TimeNs span,
                       std::uint64_t bytes,
                       std::span<const double> percentiles = kDefaultPercentiles);
// The statistics of a run kept as a histogram (RunSamples past its limit of
// exact samples): min, max, mean and stddev are given (tracked as the I/Os
// came); the percentiles (same ranks as compute_stats) are the middles of
// their buckets, clamped to [min, max]; the LatencyHistogram is exact.
RunStats histogram_stats(const ResponseHistogram& histogram, std::uint64_t count, TimeNs min,
                         TimeNs max, double mean, double stddev, TimeNs span, std::uint64_t bytes,
                         std::span<const double> percentiles = kDefaultPercentiles);
// summary.json holds a run's statistics as RunRecord::of(stats)
// (sim/results/summary.h).
// The key of a percentile in a run: 99.9 -> "p99_9_us".
std::string percentile_key(double percent);

// Parses the JSON in `text` from byte `start` on; a syntax error is an
// ssdlab::Error "path:line: malformed JSON", the line counted in `text`; any
// other refusal of the parser (a number beyond a double: 1e400) is an
// ssdlab::Error "path: malformed JSON: what".
nlohmann::json parse_json(const std::string& text, std::size_t start, const std::string& path);
// Reads and parses a JSON file: "path: cannot open", or parse_json's error.
nlohmann::json read_json_file(const std::filesystem::path& path);

// Writes `text` to `path` through a temporary file and a rename. Refuses a
// `path` that is a directory; on any failure (reported with the OS error)
// nothing is left behind.
void write_file_atomically(const std::filesystem::path& path, const std::string& text);

// write_file_atomically in two steps, for outputs committed together: a
// PendingFile writes the complete temporary file at once, publish() renames
// it; destroyed unpublished, it removes the temporary file.
class PendingFile {
 public:
  PendingFile(std::filesystem::path path, const std::string& text);
  ~PendingFile();
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;
  void publish();

 private:
  TemporaryFile temporary_;
};

// A file an output must not replace: an input of the command or another of
// its outputs. `what` says which ("also an input of this command (-c)",
// "the run's own io.csv (-o OUT)").
struct NamedPath {
  std::string what;
  std::filesystem::path path;
};
// An input of the command, as a NamedPath: "also an input of this command (WHAT)".
NamedPath command_input(std::string_view what, const std::filesystem::path& path);

// Whether `a` and `b` are one file: the same device and inode where both
// exist, else the same path once resolved (symbolic links, "..").
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b);

// The one check of every output path option, before anything is written:
// refuses an output `path` that is an existing directory, anything but a
// regular file (a FIFO or a device node is never replaced), or one of
// `others` (same_file). The message names `path` and `what` it was meant to
// be: "PATH: is a directory; give the WHAT a file name", "PATH: is also an
// input of this command (-c); give the WHAT another name".
void check_output_path(const std::filesystem::path& path, std::string_view what = "output file",
                       std::span<const NamedPath> others = {});
// For outputs with a recognisable start (a checkpoint's magic, a timeline's
// JSON): refuses an existing non-empty `path` that does not start with
// `start`, so a file ssdlab did not write is never replaced ("PATH: exists
// and is not an ssdlab WHAT; remove it or give another name").
void check_replaces_own_kind(const std::filesystem::path& path, std::string_view what,
                             std::string_view start);

// Whether `name` is the temporary file of one of kRunOutputNames
// (io.csv.XXXXXX.partial; io.csv.partial of older versions).
bool is_output_temporary(const std::string& name);
// For readers of an output folder: refuses a folder that holds a temporary
// of io.csv or summary.json: a run into it did not finish (killed between
// the renames: io.csv in place, summary.json not) or is still running. A
// folder of io.csv alone (a copy) is read.
void check_outputs_complete(const std::filesystem::path& dir);

// Exclusive ownership of an output folder for one run (or one sweep): an
// flock on DIR/.ssdlab.lock, held until destroyed. A second run into the
// same folder is refused ("DIR: another ssdlab run is writing into this
// folder"); shared locks (Mode::kShared) only exclude an exclusive one.
class OutputLock {
 public:
  enum class Mode {
    kExclusive,  // a run, or a whole sweep
    kShared,     // sweep --job N: array tasks of one sweep beside each other
  };
  OutputLock() = default;
  // `option`: how the command names its output folder, for the refusal.
  explicit OutputLock(const std::filesystem::path& dir, Mode mode = Mode::kExclusive,
                      std::string_view option = "-o");
  ~OutputLock();
  OutputLock(OutputLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  OutputLock& operator=(OutputLock&& other) noexcept;

 private:
  int fd_ = -1;
};

// Temporary files a signal (SIGINT, SIGTERM, SIGHUP) must not leave behind:
// TemporaryFile registers each; the handler installed by
// install_signal_cleanup() unlinks them (async-signal-safe) and re-raises.
void register_temporary(const std::filesystem::path& path);
void unregister_temporary(const std::filesystem::path& path);
void install_signal_cleanup();

// For tests of a full disk: with SSDLAB_TEST_FAIL_WRITE=NAME in the
// environment, writing the output file named NAME (io.csv, summary.json,
// ...) fails as if the disk were full (ENOSPC).
bool write_fails_for_test(const std::filesystem::path& path);

}  // namespace ssdlab::sim
