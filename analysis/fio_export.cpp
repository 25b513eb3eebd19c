#include "analysis/fio_export.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <ostream>
#include <set>

#include "analysis/io_csv.h"
#include "common/error.h"
#include "common/output_error.h"
#include "sim/results/output.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

namespace {

std::string file_safe(const std::string& name) {
  std::string safe = name;
  for (char& c : safe) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      std::strchr("_-.=+@:", c) != nullptr;
    if (!keep) c = '_';
  }
  return safe;
}

}  // namespace

// The logs being written: the open ones (those of the current experiment and
// run) and the temporary names of all, removed unless committed.
class FioLatLogs::Writer {
 public:
  explicit Writer(std::string prefix) : prefix_(std::move(prefix)) {}
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  ~Writer() {
    for (auto& [process, log] : open_)
      if (log.file) std::fclose(log.file);
    std::error_code ignored;
    if (!committed_)
      for (const auto& path : paths_) fs::remove(partial(path), ignored);
  }

  void row(const IoRow& row) {
    Log& log = file(row);
    const TimeNs completion = row.submit_ns + row.response_ns;
    const std::string line =
        fmt::format("{}, {}, {}, {}, {}, 0\n", completion / 1000000, row.response_ns,
                    static_cast<int>(row.mode), row.size, row.offset);
    if (log.fail_for_test) throw write_failed(log.path.string(), ENOSPC);
    if (std::fwrite(line.data(), 1, line.size(), log.file) != line.size())
      throw write_failed(log.path.string(), errno);
  }

  std::vector<fs::path> commit() {
    close_all();
    for (const auto& path : paths_) {
      std::error_code error;
      fs::rename(partial(path), path, error);
      if (error)
        throw OutputError(
            fmt::format("{}: cannot rename into place: {}", path.string(), error.message()));
    }
    committed_ = true;
    return paths_;
  }

 private:
  struct Log {
    std::FILE* file = nullptr;
    fs::path path;  // its final name, for messages
    bool fail_for_test = false;
  };

  Log& file(const IoRow& row) {
    if (row.experiment != experiment_ || row.run != run_) {
      close_all();  // io.csv groups the rows of a run: the last run's logs are done
      experiment_ = row.experiment;
      run_ = row.run;
    }
    Log& log = open_[row.process];
    if (!log.file) {
      const std::string safe = file_safe(row.experiment);
      const auto [owner, inserted] = owners_.emplace(safe, row.experiment);
      if (owner->second != row.experiment)
        throw make_error("experiments '{}' and '{}' would share the fio log name '{}'",
                         owner->second, row.experiment, safe);
      const fs::path path =
          fmt::format("{}-{}-run{}_lat.{}.log", prefix_, safe, row.run, row.process + 1);
      const bool again = written_.contains(path);
      log.file = std::fopen(partial(path).c_str(), again ? "ab" : "wb");
      if (!log.file)
        throw OutputError(
            fmt::format("{}: cannot create: {}", partial(path).string(), std::strerror(errno)));
      log.path = path;
      log.fail_for_test = write_fails_for_test(path);
      if (!again) {
        written_.insert(path);
        paths_.push_back(path);
      }
    }
    return log;
  }

  // Closes the open logs; a failed close is a failed write (a full disk).
  void close_all() {
    std::optional<OutputError> failed;
    for (auto& [process, log] : open_)
      if (log.file && std::fclose(log.file) != 0 && !failed)
        failed = write_failed(log.path.string(), errno);
    open_.clear();
    if (failed) throw *failed;
  }

  static fs::path partial(const fs::path& path) { return path.string() + ".partial"; }

  std::string prefix_;
  std::string experiment_;
  std::uint32_t run_ = 0;
  std::map<std::uint32_t, Log> open_;          // process -> its log
  std::map<std::string, std::string> owners_;  // file-safe name -> experiment
  std::set<fs::path> written_;
  std::vector<fs::path> paths_;
  bool committed_ = false;
};

FioLatLogs::FioLatLogs(const fs::path& io_csv, const std::string& prefix, const std::string& what) {
  if (prefix.empty()) throw make_error("{}: the prefix is empty", what);
  // Unlike fio, create the folder the prefix names: a run must not end in an
  // error for want of it.
  if (const fs::path folder = fs::path(prefix).parent_path(); !folder.empty()) {
    std::error_code error;
    fs::create_directories(folder, error);
    if (error)
      throw OutputError(
          fmt::format("{}: cannot create the folder: {}", folder.string(), error.message()));
  }
  IoCsvReader reader(io_csv);
  writer_ = std::make_unique<Writer>(prefix);
  IoRow row;
  while (reader.next(row)) writer_->row(row);
}

FioLatLogs::~FioLatLogs() = default;

std::vector<fs::path> FioLatLogs::publish() {
  return writer_->commit();
}

std::vector<fs::path> export_fio_lat_logs(const fs::path& io_csv, const std::string& prefix,
                                          const std::string& what) {
  return FioLatLogs(io_csv, prefix, what).publish();
}

void print_fio_lat_logs(std::ostream& out, const std::vector<fs::path>& logs,
                        const std::string& prefix) {
  fmt::print(out, "  fio lat logs: {} file{}, {}-*_lat.*.log\n", logs.size(),
             logs.size() == 1 ? "" : "s", prefix);
}

void run_export_fio(const fs::path& outdir, const std::string& prefix, std::ostream& out) {
  if (!fs::is_directory(outdir)) throw make_error("{}: no such output folder", outdir.string());
  const fs::path io_csv = outdir / "io.csv";
  if (!fs::is_regular_file(io_csv))
    throw make_error("{}: no io.csv to export (written with --no-io-log?)", outdir.string());
  print_fio_lat_logs(out, export_fio_lat_logs(io_csv, prefix, "export-fio PREFIX"), prefix);
}

}  // namespace ssdlab::sim
