// io.csv's rows as fio latency logs (format: shared/FORMATS.md), so that
// fio's own tools (fio_generate_plots, fiologparser) read ssdlab's results.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "sim/results/output.h"

namespace ssdlab::sim {

// Writes one log per experiment, run and process, as fio writes one per job
// (per_job_logs, the default): "PREFIX-EXPERIMENT-runR_lat.P.log" with P the
// uFLIP process plus 1 (fio numbers jobs from 1) and EXPERIMENT the
// experiment's name with '/' and other characters unfit for a file name
// replaced by '_'. Lines are fio's with log_offset=1:
//   time_ms, latency_ns, ddir, bs, offset, prio
// time_ms is the completion time from the run's start, truncated to whole
// milliseconds as fio does; ddir 0 read, 1 write; prio 0. Rows keep io.csv's
// (completion) order; every row is written, the ignored start-up I/Os too.
// Logs are written under fresh temporary names (TemporaryFile) and renamed
// once all are complete. A log that would replace io_csv or one of `inputs`
// (check_output_path) is refused before it is written. `what` names PREFIX in messages ("--fio-lat-log", or
// "export-fio PREFIX"). Bad input throws ssdlab::Error; a log that cannot be
// written (a full disk) ssdlab::OutputError, "LOG: write failed: OS error";
// with SSDLAB_TEST_FAIL_WRITE naming a log, its writes fail so.
// `name` with every character unfit for a file name (anything but letters,
// digits and "_-.=+@:") replaced by '_', as the logs' EXPERIMENT part.
std::string file_safe(const std::string& name);

class FioLatLogs {
 public:
  // Writes the complete logs of `io_csv` under their temporary names.
  FioLatLogs(const std::filesystem::path& io_csv, const std::string& prefix,
             const std::string& what, std::span<const NamedPath> inputs = {});
  ~FioLatLogs();  // removes the temporary files unless published
  FioLatLogs(const FioLatLogs&) = delete;
  FioLatLogs& operator=(const FioLatLogs&) = delete;
  // Renames the logs into place. Returns them, in the order they were
  // first written to.
  std::vector<std::filesystem::path> publish();

 private:
  class Writer;
  std::unique_ptr<Writer> writer_;
};

// FioLatLogs written and published at once.
std::vector<std::filesystem::path> export_fio_lat_logs(const std::filesystem::path& io_csv,
                                                       const std::string& prefix,
                                                       const std::string& what = "--fio-lat-log",
                                                       std::span<const NamedPath> inputs = {});

// The line a run or export-fio prints for the logs it wrote.
void print_fio_lat_logs(std::ostream& out, const std::vector<std::filesystem::path>& logs,
                        const std::string& prefix);

// `ssdlab export-fio OUTDIR PREFIX`: exports OUTDIR/io.csv and says on `out`
// how many logs it wrote. Refuses a folder an unfinished run left
// (check_outputs_complete).
void run_export_fio(const std::filesystem::path& outdir, const std::string& prefix,
                    std::ostream& out);

}  // namespace ssdlab::sim
