// Readers of fio's results for `ssdlab compare` (formats: shared/FORMATS.md):
// latency logs (write_lat_log / write_clat_log) and JSON output
// (--output-format=json). Errors are ssdlab::Error, "file:line: reason".
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "analysis/figures.h"

namespace ssdlab::sim {

// The job name in a latency log's file name: "seqwrite" for
// "seqwrite_clat.2.log" or "seqwrite_lat.log"; the file's stem for other
// names. Logs of other quantities (_slat, _bw, _iops) are errors: their
// values are not response times.
std::string fio_log_job_name(const std::filesystem::path& path);

// A latency log as one run of one experiment named `name`: every sample,
// whatever its direction (as io.csv's figures count every I/O). Lines are
// `time_ms, value, ddir, bs[, offset][, prio]...`; the columns after bs
// depend on fio's options, so only the first four are read. Values are
// nanoseconds (fio >= 3.0). Streams the file.
ExperimentFigures read_fio_lat_log(const std::filesystem::path& path, const std::string& name);

// fio's JSON output: one experiment per job name, a run per job of that name
// (numjobs without group_reporting gives several). The distribution is lat
// (submission to completion) where fio reported its percentiles
// (lat_percentiles=1), clat otherwise (fio's default). A job with I/Os in
// one direction is named after the job; with several, each direction is its
// own experiment, "job:read", "job:write", "job:trim", since percentiles of
// two directions cannot be merged. Units: *_ns (fio >= 3.0) or the older
// clat/lat in microseconds. Lines before the JSON (fio's notes) are skipped.
std::vector<ExperimentFigures> read_fio_json(const std::filesystem::path& path);

}  // namespace ssdlab::sim
