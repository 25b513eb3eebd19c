// What compare reads as one side: an ssdlab output folder (summary.json, or
// io.csv alone), an io.csv, fio JSON, or fio latency logs (one, or a job's
// per-job logs pooled), each told by its content (analysis/compare.h).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

#include "analysis/compare.h"
#include "analysis/fio_import.h"
#include "sim/results/io_csv.h"
#include "common/error.h"
#include "sim/results/output.h"
#include "sim/results/summary.h"

namespace ssdlab::analysis {
using sim::check_outputs_complete;
using sim::ExperimentRecord;
using sim::IoCsvReader;
using sim::IoRow;
using sim::read_summary;
using sim::RunRecord;
using sim::SummaryRecord;
namespace fs = std::filesystem;

namespace {

std::vector<ExperimentFigures> figures_from_summary(const fs::path& path) {
  const SummaryRecord summary = read_summary(path);
  std::vector<ExperimentFigures> experiments;
  for (const ExperimentRecord& experiment : summary.experiments) {
    ExperimentFigures figures{experiment.name, {}};
    for (const RunRecord& run : experiment.runs) {
      RunFigures& figures_of_run = figures.runs.emplace_back(
          RunFigures{run.mean_us, run.p50_us, run.p99_us, run.measured()});
      figures_of_run.percentiles = run.percentiles;
    }
    if (!figures.runs.empty()) experiments.push_back(std::move(figures));
  }
  return experiments;
}

}  // namespace

std::vector<ExperimentFigures> figures_from_io_csv(const std::string& path) {
  IoCsvReader reader(path);
  // As summary.json counts them: served reads and writes only, not trims,
  // zone management or what the device refused (refused.csv beside it).
  const std::set<sim::IoKey> refused =
      sim::read_refused_keys(fs::path(path).parent_path() / "refused.csv");
  std::vector<std::string> order;
  std::map<std::string, std::map<std::uint32_t, std::vector<TimeNs>>> responses;
  IoRow row;
  while (reader.next(row)) {
    auto [experiment, inserted] = responses.try_emplace(row.experiment);
    if (inserted) order.push_back(row.experiment);
    if (!row.moves_data() ||
        (!refused.empty() && refused.contains({row.experiment, row.run, row.process, row.io})))
      continue;
    experiment->second[row.run].push_back(row.response_ns);
  }
  if (order.empty()) throw make_error("{}: no I/Os", path);
  std::vector<ExperimentFigures> experiments;
  for (const auto& name : order) {
    ExperimentFigures figures{name, {}};
    for (auto& [run, times] : responses[name]) figures.runs.push_back(run_figures(times));
    if (!figures.runs.empty()) experiments.push_back(std::move(figures));
  }
  if (experiments.empty()) throw make_error("{}: no reads or writes served", path);
  return experiments;
}

namespace {

// The first `bytes` of `path` (what detection looks at).
std::string head_of(const std::string& path, std::size_t bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw make_error("{}: cannot open", path);
  std::string head(bytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(bytes));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return head;
}

// Per-job logs named by a prefix or a pattern, pooled into one run. Logs of
// different fio jobs (a pattern such as 'logs/*_lat.*.log' over several
// jobs) measure different workloads: pooling them gives figures of none, so
// that is refused unless `pool_jobs` (compare --pool-jobs) asks for it.
CompareSide pooled_logs(const std::string& path, const std::vector<fs::path>& logs,
                        const std::string& log_name, bool pool_jobs) {
  std::vector<std::string> jobs;
  for (const auto& log : logs)
    if (const std::string job = fio_log_job_name(log);
        std::find(jobs.begin(), jobs.end(), job) == jobs.end())
      jobs.push_back(job);
  if (jobs.size() > 1 && !pool_jobs)
    throw make_error(
        "{}: matches the logs of {} different fio jobs ({}): pooling them would mix their "
        "workloads into one experiment; give one job's logs (e.g. {}), or compare fio's JSON "
        "output, which keeps each job apart; --pool-jobs pools them anyway",
        path, jobs.size(), fmt::join(jobs, ", "),
        (logs.front().parent_path() / jobs.front()).string());
  const std::string name = log_name.empty() ? jobs.front() : log_name;
  return {path,
          fmt::format("fio latency logs, {} pooled: {}{}", logs.size(),
                      logs.front().filename().string(), logs.size() > 1 ? " ..." : ""),
          {read_fio_lat_logs(logs, name)}};
}

// A file, told by its content: an io.csv by its header, a fio latency log by
// the shape of its first line, else fio JSON (wherever it starts in the file).
CompareSide load_file(const std::string& path, const std::string& log_name) {
  const std::string head = head_of(path, 1 << 16);
  std::string_view first(head);
  while (!first.empty() && (first.front() == '\n' || first.front() == '\r' || first.front() == ' '))
    first.remove_prefix(1);
  first = first.substr(0, first.find('\n'));
  if (first.starts_with("experiment,run,process,io,"))
    return {path, "io.csv (every read and write counted)", figures_from_io_csv(path)};
  if (is_fio_lat_log_line(first)) {
    const std::string name = log_name.empty() ? fio_log_job_name(path) : log_name;
    std::string kind = "fio latency log";
    // One of numjobs' per-job logs: say that the others exist.
    static const std::regex kJobLog(R"((.+)_(lat|clat)\.[0-9]+\.log)");
    std::smatch match;
    const std::string file = fs::path(path).filename().string();
    if (std::regex_match(file, match, kJobLog)) {
      const auto siblings = fio_job_logs((fs::path(path).parent_path() / match[1].str()).string());
      if (siblings.size() > 1)
        kind += fmt::format(" (1 of {} per-job logs: give {} to pool them)", siblings.size(),
                            (fs::path(path).parent_path() / match[1].str()).string());
    }
    return {path, kind, {read_fio_lat_log(path, name)}};
  }
  if (first.find('{') != std::string_view::npos || head.find("\n{") != std::string::npos ||
      fs::path(path).extension() == ".json")
    return {path, "fio JSON", read_fio_json(path)};
  const std::string text(first.substr(0, 60));
  throw make_error(
      "{}: cannot tell what it is: not fio JSON (no line starting with '{{'), not a fio latency "
      "log (lines 'time, value, ddir, bs[, ...]'), not an io.csv; its first line: '{}'",
      path, text);
}

}  // namespace

CompareSide load_side(const std::string& path, const std::string& log_name, bool pool_jobs) {
  std::error_code error;
  const auto status = fs::status(path, error);
  if (!fs::exists(status)) {
    // A job name (logs/seq for logs/seq_clat.1.log, ...) or a pattern.
    const auto logs = fio_job_logs(path);
    if (!logs.empty()) return pooled_logs(path, logs, log_name, pool_jobs);
    throw make_error("{}: no such file or folder", path);
  }
  if (fs::is_directory(status)) {
    const fs::path dir(path);
    check_outputs_complete(dir);
    if (fs::is_regular_file(dir / "summary.json"))
      return {path, "ssdlab output, summary.json", figures_from_summary(dir / "summary.json")};
    if (fs::is_regular_file(dir / "io.csv"))
      return {path, "ssdlab output, io.csv (no summary.json: every read and write counted)",
              figures_from_io_csv((dir / "io.csv").string())};
    throw make_error("{}: no summary.json or io.csv: not an ssdlab output folder", path);
  }
  return load_file(path, log_name);
}

}  // namespace ssdlab::analysis
