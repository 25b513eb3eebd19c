#include "analysis/fio_import.h"

#include <fnmatch.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <regex>

#include "common/error.h"

namespace ssdlab::analysis {
using sim::parse_json;
namespace fs = std::filesystem;

namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

bool parse_integer(std::string_view text, std::int64_t& value) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() && !text.empty();
}

std::vector<std::string_view> comma_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  for (std::size_t start = 0;;) {
    const auto comma = line.find(',', start);
    fields.push_back(trim(line.substr(start, comma - start)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return fields;
}

// Appends the samples of one latency log to `responses`.
void read_log_samples(const fs::path& path, std::vector<TimeNs>& responses) {
  std::ifstream in(path);
  if (!in) throw make_error("{}: cannot open", path.string());
  std::string text;
  std::uint64_t line = 0, samples = 0, averaged = 0;
  while (std::getline(in, text)) {
    ++line;
    if (text.empty() || text == "\r") continue;
    const auto where = [&] { return fmt::format("{}:{}", path.string(), line); };
    const auto fields = comma_fields(text);
    if (fields.size() < 4 || fields.size() > 8)
      throw make_error(
          "{}: expected 4 to 8 comma-separated fields (time, value, ddir, bs, ...), "
          "got {}",
          where(), fields.size());
    std::int64_t values[4];
    const char* names[4] = {"time", "value", "ddir", "bs"};
    for (int i = 0; i < 4; ++i)
      if (!parse_integer(fields[i], values[i]) || values[i] < 0)
        throw make_error("{}: {}: '{}' is not a non-negative integer", where(), names[i],
                         fields[i]);
    if (values[2] > 2)
      throw make_error("{}: ddir: {} is not 0 (read), 1 (write) or 2 (trim)", where(), values[2]);
    averaged += values[3] == 0;
    ++samples;
    responses.push_back(values[1]);
  }
  if (in.bad()) throw make_error("{}: read failed", path.string());
  if (samples == 0) throw make_error("{}: no latency samples", path.string());
  if (averaged)
    throw make_error(
        "{}: an averaged fio log (log_avg_msec: {} of its {} lines have bs 0, fio's mark of a "
        "window's mean or maximum, not of one I/O): percentiles of window means are not "
        "percentiles of I/Os; log every I/O (no log_avg_msec) or compare fio's JSON output",
        path.string(), averaged, samples);
}

// The matching '}' of the '{' at `open` (strings and escapes respected), or
// npos.
std::size_t matching_brace(const std::string& text, std::size_t open) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = open; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}' && --depth == 0) {
      return i;
    }
  }
  return std::string::npos;
}

// fio's latency statistics of one direction of one job: mean and count, the
// percentiles fio computed, and the histogram where json+ gave it.
struct LatencyStat {
  std::string key;  // "clat_ns", "lat_ns", or the older "clat", "lat"
  double scale = 1e-3;  // to microseconds
  double mean = 0;
  std::uint64_t count = 0;
  double p50 = 0, p99 = 0;  // microseconds
  // The tail percentiles fio reported (its default percentile_list has 99.9
  // and 99.99): (percent, microseconds), as summary.json's "percentiles".
  std::vector<std::pair<double, double>> tail;
  std::map<std::uint64_t, std::uint64_t> bins;  // value (key's unit) -> count
};

// The percentile `key` ("99.000000") of a fio latency object, in microseconds.
double percentile_us(const nlohmann::json& stat, const std::string& key, double scale,
                     const std::string& where) {
  const auto& percentiles = stat["percentile"];
  if (!percentiles.contains(key) || !percentiles[key].is_number())
    throw make_error("{}.percentile has no {} (fio's percentile_list leaves it out)", where, key);
  const double value = percentiles[key].get<double>();
  if (!(value >= 0) || !std::isfinite(value))
    throw make_error("{}.percentile.{}: {} is not a latency (negative or not finite)", where, key,
                     percentiles[key].dump());
  return value * scale;
}

// The percentiles above p99 that compare shows (its table's p99.9 and
// p99.99 columns), under their keys in fio's JSON (fio's default
// percentile_list, stat.h FIO_IO_U_PLAT_DEF: 1 ... 99.9, 99.95, 99.99).
constexpr std::pair<double, const char*> kTailPercentiles[] = {{99.9, "99.900000"},
                                                               {99.99, "99.990000"}};

// fio's rule (stat.c, calc_clat_percentiles): the first bin whose cumulative
// count reaches `percent` % of all samples.
double bins_percentile(const std::map<std::uint64_t, std::uint64_t>& bins, std::uint64_t count,
                       double percent) {
  const long double wanted = static_cast<long double>(percent) / 100.0L * count;
  std::uint64_t sum = 0;
  for (const auto& [value, n] : bins) {
    sum += n;
    if (static_cast<long double>(sum) >= wanted) return static_cast<double>(value);
  }
  return bins.empty() ? 0.0 : static_cast<double>(bins.rbegin()->first);
}

// The statistics of `direction` of `job`; nullopt if it did no I/O.
std::optional<LatencyStat> latency_stat(const nlohmann::json& job, const char* direction,
                                        const std::string& where) {
  if (!job.contains(direction) || !job[direction].is_object()) return std::nullopt;
  const auto& figures = job[direction];
  // fio >= 3.0 reports nanoseconds (clat_ns), older versions microseconds (clat).
  using Stat = std::pair<const nlohmann::json*, std::string>;
  const auto stat_of = [&figures](const std::string& kind) -> Stat {
    for (const std::string& key : {kind + "_ns", kind})
      if (figures.contains(key) && figures[key].is_object()) return {&figures[key], key};
    return {nullptr, kind + "_ns"};
  };
  const Stat lat = stat_of("lat");
  const bool use_lat = lat.first && lat.first->contains("percentile");
  const auto [stat, key] = use_lat ? lat : stat_of("clat");
  LatencyStat result;
  result.key = key;
  const std::string stat_where = fmt::format("{}: {}.{}", where, direction, key);
  // A count is a non-negative integer, as fio writes it; anything else is
  // refused, as compare's io.csv reader refuses a negative time.
  const auto count = [](const nlohmann::json& value, const std::string& at) {
    if (!value.is_number_unsigned())
      throw make_error("{}: {} is not a count (a non-negative integer)", at, value.dump());
    return value.get<std::uint64_t>();
  };
  if (stat && stat->contains("N"))
    result.count = count((*stat)["N"], stat_where + ".N");
  else if (figures.contains("total_ios"))
    result.count = count(figures["total_ios"], fmt::format("{}: {}.total_ios", where, direction));
  if (result.count == 0) return std::nullopt;
  if (!stat || !stat->contains("mean") || !(*stat)["mean"].is_number())
    throw make_error("{}: no mean latency", stat_where);
  if (const double mean = (*stat)["mean"].get<double>(); !(mean >= 0) || !std::isfinite(mean))
    throw make_error("{}.mean: {} is not a latency (negative or not finite)", stat_where,
                     (*stat)["mean"].dump());
  if (!stat->contains("percentile") || !(*stat)["percentile"].is_object())
    throw make_error("{}: no percentiles (fio ran with clat_percentiles=0?)", stat_where);
  result.scale = key.ends_with("_ns") ? 1e-3 : 1.0;
  result.mean = (*stat)["mean"].get<double>() * result.scale;
  result.p50 = percentile_us(*stat, "50.000000", result.scale, stat_where);
  result.p99 = percentile_us(*stat, "99.000000", result.scale, stat_where);
  for (const auto& [percent, key] : kTailPercentiles)
    if ((*stat)["percentile"].contains(key))
      result.tail.emplace_back(percent, percentile_us(*stat, key, result.scale, stat_where));
  if (stat->contains("bins") && (*stat)["bins"].is_object())
    for (const auto& [value, n] : (*stat)["bins"].items()) {
      std::int64_t bin = 0;
      if (!parse_integer(value, bin) || bin < 0 || !n.is_number_unsigned())
        throw make_error("{}.bins: '{}': expected a latency and a count", stat_where, value);
      result.bins[static_cast<std::uint64_t>(bin)] += n.get<std::uint64_t>();
    }
  return result;
}

// Jobs of one name pooled (see read_fio_json).
RunFigures pool(const std::vector<LatencyStat>& stats, const std::string& name,
                const std::string& path) {
  if (stats.size() == 1)
    return {stats[0].mean, stats[0].p50, stats[0].p99, stats[0].count, stats[0].tail};
  RunFigures run;
  double weighted = 0;
  std::map<std::uint64_t, std::uint64_t> bins;
  bool all_bins = true;
  for (const auto& stat : stats) {
    run.count += stat.count;
    weighted += stat.mean * static_cast<double>(stat.count);
    if (stat.key != stats[0].key)
      throw make_error("{}: jobs named {} report different latencies ({} and {})", path, name,
                       stats[0].key, stat.key);
    std::uint64_t binned = 0;
    for (const auto& [value, n] : stat.bins) bins[value] += n, binned += n;
    all_bins = all_bins && !stat.bins.empty() && binned == stat.count;
  }
  if (!all_bins)
    throw make_error(
        "{}: {} jobs named {} (numjobs without group_reporting): their percentiles cannot be "
        "pooled from fio's per-job percentiles; rerun fio with group_reporting=1, or with "
        "--output-format=json+ (latency histograms, pooled exactly)",
        path, stats.size(), name);
  run.mean_us = weighted / static_cast<double>(run.count);
  run.p50_us = bins_percentile(bins, run.count, 50.0) * stats[0].scale;
  run.p99_us = bins_percentile(bins, run.count, 99.0) * stats[0].scale;
  for (const auto& [percent, key] : kTailPercentiles)
    run.percentiles.emplace_back(percent,
                                 bins_percentile(bins, run.count, percent) * stats[0].scale);
  return run;
}

}  // namespace

bool is_fio_lat_log_line(std::string_view line) {
  const auto fields = comma_fields(trim(line));
  if (fields.size() < 4 || fields.size() > 8) return false;
  for (int i = 0; i < 4; ++i) {
    std::int64_t value = 0;
    if (!parse_integer(fields[i], value) || value < 0) return false;
  }
  return true;
}

std::string fio_log_job_name(const fs::path& path) {
  static const std::regex kLogName(R"((.+)_(lat|clat|slat|bw|iops)(\.[0-9]+)?\.log)");
  const std::string file = path.filename().string();
  std::smatch match;
  if (!std::regex_match(file, match, kLogName)) return path.stem().string();
  const std::string kind = match[2].str();
  if (kind != "lat" && kind != "clat")
    throw make_error("{}: a fio {} log holds no response times: use the _lat or _clat log",
                     path.string(), kind);
  return match[1].str();
}

std::vector<fs::path> fio_job_logs(const std::string& prefix) {
  const fs::path given(prefix);
  const fs::path folder = given.has_parent_path() ? given.parent_path() : fs::path(".");
  const std::string stem = given.filename().string();
  std::error_code error;
  if (stem.empty() || !fs::is_directory(folder, error)) return {};
  const bool pattern = stem.find_first_of("*?[") != std::string::npos;
  // Per kind: (job number, path); a log without a number is job 0.
  std::map<std::string, std::vector<std::pair<std::uint64_t, fs::path>>> logs;
  static const std::regex kJobLog(R"((.+)_(lat|clat)(?:\.([0-9]+))?\.log)");
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    if (!entry.is_regular_file(error)) continue;
    const std::string file = entry.path().filename().string();
    std::smatch match;
    const bool job_log = std::regex_match(file, match, kJobLog);
    if (pattern) {
      if (fnmatch(stem.c_str(), file.c_str(), 0) != 0) continue;
    } else if (!job_log || match[1].str() != stem) {
      continue;
    }
    const std::string kind = job_log ? match[2].str() : "";
    const std::uint64_t job = job_log && match[3].matched ? std::stoull(match[3].str()) : 0;
    logs[kind].emplace_back(job, entry.path());
  }
  if (logs.empty()) return {};
  if (logs.size() > 1 && pattern)
    throw make_error("{}: the pattern matches several kinds of logs (_clat and _lat): narrow it",
                     prefix);
  auto& chosen = logs.count("clat") ? logs["clat"] : logs.begin()->second;
  std::sort(chosen.begin(), chosen.end());
  std::vector<fs::path> paths;
  for (const auto& [job, path] : chosen) paths.push_back(path);
  return paths;
}

ExperimentFigures read_fio_lat_log(const fs::path& path, const std::string& name) {
  return read_fio_lat_logs({path}, name);
}

ExperimentFigures read_fio_lat_logs(const std::vector<fs::path>& paths, const std::string& name) {
  std::vector<TimeNs> responses;
  for (const auto& path : paths) read_log_samples(path, responses);
  return {name, {run_figures(responses)}};
}

std::pair<std::size_t, std::size_t> find_fio_json(const std::string& text,
                                                  const std::string& path) {
  std::optional<std::pair<std::size_t, std::size_t>> first;  // an object without jobs
  for (std::size_t start = 0; start < text.size();) {
    const auto newline = text.find('\n', start);
    if (text[start] == '{') {
      const std::size_t close = matching_brace(text, start);
      if (close == std::string::npos)
        // Unbalanced: let the parser say where the JSON breaks.
        return {start, text.size()};
      const std::string_view object(text.data() + start, close + 1 - start);
      if (object.find("\"jobs\"") != std::string_view::npos) return {start, close + 1};
      if (!first) first.emplace(start, close + 1);
    }
    start = newline == std::string::npos ? text.size() : newline + 1;
  }
  if (first) return *first;  // JSON, but not fio's: the caller says what it lacks
  throw make_error("{}: no fio JSON output in it (a line starting with '{{' and holding jobs[])",
                   path);
}

std::vector<ExperimentFigures> read_fio_json(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw make_error("{}: cannot open", path.string());
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  // fio may print notes ("note: both iodepth >= 1 and synchronous I/O engine
  // ...") before the JSON, and --output-format=normal,json adds the normal
  // text before and after it.
  const auto [begin, end] = find_fio_json(text, path.string());
  text.resize(end);
  const nlohmann::json root = parse_json(text, begin, path.string());
  if (!root.is_object() || !root.contains("jobs") || !root["jobs"].is_array())
    throw make_error("{}: not fio JSON output: no jobs[]", path.string());

  // (experiment name) -> the latency statistics of each job of that name.
  std::vector<std::pair<std::string, std::vector<LatencyStat>>> experiments;
  const auto add = [&experiments](const std::string& name, LatencyStat stat) {
    for (auto& [known, stats] : experiments)
      if (known == name) return stats.push_back(std::move(stat));
    experiments.push_back({name, {std::move(stat)}});
  };
  const auto& jobs = root["jobs"];
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const auto& job = jobs[j];
    const std::string where = fmt::format("{}: jobs[{}]", path.string(), j);
    if (!job.is_object() || !job.contains("jobname") || !job["jobname"].is_string())
      throw make_error("{}: no jobname", where);
    const std::string jobname = job["jobname"].get<std::string>();
    std::vector<std::pair<std::string, LatencyStat>> directions;
    for (const char* direction : {"read", "write", "trim"})
      if (auto stat = latency_stat(job, direction, fmt::format("{} ({})", where, jobname)))
        directions.emplace_back(direction, std::move(*stat));
    for (auto& [direction, stat] : directions)
      add(directions.size() == 1 ? jobname : jobname + ":" + direction, std::move(stat));
  }
  if (experiments.empty()) throw make_error("{}: no fio job did any I/O", path.string());
  std::vector<ExperimentFigures> figures;
  for (const auto& [name, stats] : experiments)
    figures.push_back({name, {pool(stats, name, path.string())}});
  return figures;
}

}  // namespace ssdlab::analysis
