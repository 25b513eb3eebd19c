// Readers of fio's results for `ssdlab compare` (formats: shared/FORMATS.md):
// latency logs (write_lat_log / write_clat_log) and JSON output
// (--output-format=json). Errors are ssdlab::Error, "file:line: reason".
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/figures.h"

namespace ssdlab::analysis {

// The job name in a latency log's file name: "seqwrite" for
// "seqwrite_clat.2.log" or "seqwrite_lat.log"; the file's stem for other
// names. Logs of other quantities (_slat, _bw, _iops) are errors: their
// values are not response times.
std::string fio_log_job_name(const std::filesystem::path& path);

// A latency log as one run of one experiment named `name`: every sample,
// whatever its direction (as io.csv's figures count every I/O). Lines are
// `time_ms, value, ddir, bs[, offset][, prio]...`; the columns after bs
// depend on fio's options, so only the first four are read. Values are
// nanoseconds (fio >= 3.0). Streams the file. An averaged log (fio's
// log_avg_msec: each line a window's mean or maximum, which fio writes with
// bs 0, while a per-I/O sample has the I/O's size) is an error: percentiles
// of window means are not percentiles of I/Os.
ExperimentFigures read_fio_lat_log(const std::filesystem::path& path, const std::string& name);
// Several logs pooled into one run (the per-job logs NAME_clat.1.log,
// NAME_clat.2.log, ... of numjobs): the figures of all their samples.
ExperimentFigures read_fio_lat_logs(const std::vector<std::filesystem::path>& paths,
                                    const std::string& name);

// Whether `line` has the shape of a fio latency log line: 4 to 8
// comma-separated fields, the first four non-negative integers.
bool is_fio_lat_log_line(std::string_view line);

// The per-job latency logs that `prefix` names: PREFIX_clat.N.log (or
// PREFIX_clat.log), else the same with _lat, in job order; empty if none.
// `prefix` may also be a file-name pattern with '*' and '?' in its last part
// ("logs/seq_clat.*.log"), matched in its folder.
std::vector<std::filesystem::path> fio_job_logs(const std::string& prefix);

// The byte range [begin, end) of fio's JSON object in `text`: the first line
// starting with '{' whose balanced object holds "jobs", so that notes before
// it ("note: ...") and the normal-format text around it
// (--output-format=normal,json) are skipped. Throws ssdlab::Error naming
// `path` if there is none.
std::pair<std::size_t, std::size_t> find_fio_json(const std::string& text, const std::string& path);

// fio's JSON output (json, json+, normal,json): one experiment per job name.
// The distribution is lat (submission to completion) where fio reported its
// percentiles (lat_percentiles=1), clat otherwise (fio's default). A job with
// I/Os in one direction is named after the job; with several, each direction
// is its own experiment, "job:read", "job:write", "job:trim", since
// percentiles of two directions cannot be merged. Units: *_ns (fio >= 3.0)
// or the older clat/lat in microseconds.
//
// Several jobs of one name (numjobs without group_reporting) are pooled into
// one run: counts added, means weighted by count, and percentiles from their
// summed latency histograms ("bins", --output-format=json+) with fio's own
// rule (the first bin where the cumulative count reaches p% of all). fio's
// per-job percentiles cannot be pooled exactly, so without bins that is an
// error saying how to get exact ones (group_reporting=1, or json+).
std::vector<ExperimentFigures> read_fio_json(const std::filesystem::path& path);

}  // namespace ssdlab::analysis
