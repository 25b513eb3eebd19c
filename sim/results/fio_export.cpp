#include "sim/results/fio_export.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <ostream>

#include "sim/results/io_csv.h"
#include "common/error.h"
#include "common/output_error.h"
#include "sim/results/output.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

std::string file_safe(const std::string& name) {
  std::string safe = name;
  for (char& c : safe) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      std::strchr("_-.=+@:", c) != nullptr;
    if (!keep) c = '_';
  }
  return safe;
}

// The logs being written: the open ones (those of the current experiment and
// run) and the temporary files of all, removed unless committed.
class FioLatLogs::Writer {
 public:
  Writer(std::string prefix, std::vector<NamedPath> inputs)
      : prefix_(std::move(prefix)), inputs_(std::move(inputs)) {}
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  ~Writer() {
    for (auto& [process, log] : open_)
      if (log.file) std::fclose(log.file);
  }

  void row(const IoRow& row) {
    // fio's logs know reads, writes and trims: a zone append is a write
    // there; the zone management actions have no data direction and are not
    // exported (docs/zns.md).
    if (is_zone_action(row.mode)) return;
    Log& log = file(row);
    const TimeNs completion = row.submit_ns + row.response_ns;
    const std::string line =
        fmt::format("{}, {}, {}, {}, {}, 0\n", completion / 1000000, row.response_ns,
                    static_cast<int>(carries_data_in(row.mode) ? IoMode::kWrite : row.mode), row.size,
                    row.offset);
    if (log.fail_for_test) throw write_failed(log.path.string(), ENOSPC);
    if (std::fwrite(line.data(), 1, line.size(), log.file) != line.size())
      throw write_failed(log.path.string(), errno);
  }

  std::vector<fs::path> commit() {
    close_all();
    for (const auto& path : paths_) temporaries_.at(path)->publish("the fio log");
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
      auto& temporary = temporaries_[path];
      if (!temporary) {
        check_output_path(path, "fio latency log", inputs_);
        temporary = std::make_unique<TemporaryFile>(path);
        paths_.push_back(path);
      }
      // The temporary is this object's own fresh file; reopened to append
      // when a later run of io.csv writes to the same log again.
      log.file = std::fopen(temporary->path().c_str(), "ab");
      if (!log.file)
        throw OutputError(fmt::format("{}: cannot create: {}", temporary->path().string(),
                                      std::strerror(errno)));
      temporary->close();
      log.path = path;
      log.fail_for_test = write_fails_for_test(path);
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

  std::string prefix_;
  std::vector<NamedPath> inputs_;  // files no log may replace
  std::string experiment_;
  std::uint32_t run_ = 0;
  std::map<std::uint32_t, Log> open_;          // process -> its log
  std::map<std::string, std::string> owners_;  // file-safe name -> experiment
  std::map<fs::path, std::unique_ptr<TemporaryFile>> temporaries_;
  std::vector<fs::path> paths_;  // in the order first written to
};

FioLatLogs::FioLatLogs(const fs::path& io_csv, const std::string& prefix, const std::string& what,
                       std::span<const NamedPath> inputs) {
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
  std::vector<NamedPath> not_to_replace(inputs.begin(), inputs.end());
  not_to_replace.push_back(command_input("its io.csv", io_csv));
  writer_ = std::make_unique<Writer>(prefix, std::move(not_to_replace));
  IoRow row;
  while (reader.next(row)) writer_->row(row);
}

FioLatLogs::~FioLatLogs() = default;

std::vector<fs::path> FioLatLogs::publish() {
  return writer_->commit();
}

std::vector<fs::path> export_fio_lat_logs(const fs::path& io_csv, const std::string& prefix,
                                          const std::string& what,
                                          std::span<const NamedPath> inputs) {
  return FioLatLogs(io_csv, prefix, what, inputs).publish();
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
  check_outputs_complete(outdir);
  const NamedPath summary[] = {command_input("the folder's summary.json", outdir / "summary.json")};
  print_fio_lat_logs(out, export_fio_lat_logs(io_csv, prefix, "export-fio PREFIX", summary),
                     prefix);
}

}  // namespace ssdlab::sim
