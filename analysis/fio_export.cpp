#include "analysis/fio_export.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <ostream>
#include <set>

#include "common/error.h"
#include "analysis/io_csv.h"

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

// The logs being written: the open ones (those of the current experiment and
// run) and the temporary files of all, removed unless committed.
class LogSet {
 public:
  LogSet(std::string prefix, std::vector<NamedPath> inputs)
      : prefix_(std::move(prefix)), inputs_(std::move(inputs)) {}
  LogSet(const LogSet&) = delete;
  LogSet& operator=(const LogSet&) = delete;
  ~LogSet() {
    for (auto& [process, file] : open_)
      if (file) std::fclose(file);
  }

  std::FILE* file(const IoRow& row) {
    if (row.experiment != experiment_ || row.run != run_) {
      close_all();  // io.csv groups the rows of a run: the last run's logs are done
      experiment_ = row.experiment;
      run_ = row.run;
    }
    std::FILE*& file = open_[row.process];
    if (!file) {
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
      file = std::fopen(temporary->path().c_str(), "ab");
      if (!file)
        throw make_error("{}: cannot create: {}", temporary->path().string(), std::strerror(errno));
      temporary->close();
    }
    return file;
  }

  std::vector<fs::path> commit() {
    close_all();
    for (const auto& path : paths_) temporaries_.at(path)->publish("the fio log");
    return paths_;
  }

 private:
  // Closes the open logs; a failed close is a failed write (a full disk).
  void close_all() {
    bool failed = false;
    for (auto& [process, file] : open_)
      if (file) failed = std::fclose(file) != 0 || failed;
    open_.clear();
    if (failed) throw make_error("{}: fio log write failed: {}", prefix_, std::strerror(errno));
  }

  std::string prefix_;
  std::vector<NamedPath> inputs_;  // files no log may replace
  std::string experiment_;
  std::uint32_t run_ = 0;
  std::map<std::uint32_t, std::FILE*> open_;   // process -> its log
  std::map<std::string, std::string> owners_;  // file-safe name -> experiment
  std::map<fs::path, std::unique_ptr<TemporaryFile>> temporaries_;
  std::vector<fs::path> paths_;
};

}  // namespace

std::vector<fs::path> export_fio_lat_logs(const fs::path& io_csv, const std::string& prefix,
                                          std::span<const NamedPath> inputs) {
  if (prefix.empty()) throw make_error("--fio-lat-log: the prefix is empty");
  // Unlike fio, create the folder the prefix names: a run must not end in an
  // error for want of it.
  if (const fs::path folder = fs::path(prefix).parent_path(); !folder.empty()) {
    std::error_code error;
    fs::create_directories(folder, error);
    if (error)
      throw make_error("{}: cannot create the folder: {}", folder.string(), error.message());
  }
  std::vector<NamedPath> not_to_replace(inputs.begin(), inputs.end());
  not_to_replace.push_back(command_input("its io.csv", io_csv));
  IoCsvReader reader(io_csv);
  LogSet logs(prefix, std::move(not_to_replace));
  IoRow row;
  while (reader.next(row)) {
    std::FILE* file = logs.file(row);
    const TimeNs completion = row.submit_ns + row.response_ns;
    fmt::print(file, "{}, {}, {}, {}, {}, 0\n", completion / 1000000, row.response_ns,
               static_cast<int>(row.mode), row.size, row.offset);
  }
  return logs.commit();
}

void run_export_fio(const fs::path& outdir, const std::string& prefix, std::ostream& out,
                    std::span<const NamedPath> inputs) {
  if (!fs::is_directory(outdir)) throw make_error("{}: no such output folder", outdir.string());
  const fs::path io_csv = outdir / "io.csv";
  if (!fs::is_regular_file(io_csv))
    throw make_error("{}: no io.csv to export (written with --no-io-log?)", outdir.string());
  check_outputs_complete(outdir);
  std::vector<NamedPath> not_to_replace(inputs.begin(), inputs.end());
  not_to_replace.push_back(command_input("the folder's summary.json", outdir / "summary.json"));
  const auto logs = export_fio_lat_logs(io_csv, prefix, not_to_replace);
  fmt::print(out, "  fio lat logs: {} file{}, {}-*_lat.*.log\n", logs.size(),
             logs.size() == 1 ? "" : "s", prefix);
}

}  // namespace ssdlab::sim
