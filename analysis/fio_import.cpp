#include "analysis/fio_import.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <regex>

#include "common/error.h"

namespace ssdlab::sim {
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

// The percentile `key` ("99.000000") of a fio latency object, in microseconds.
double percentile_us(const nlohmann::json& stat, const std::string& key, double scale,
                     const std::string& where) {
  const auto& percentiles = stat["percentile"];
  if (!percentiles.contains(key) || !percentiles[key].is_number())
    throw make_error("{}.percentile has no {} (fio's percentile_list leaves it out)", where, key);
  return percentiles[key].get<double>() * scale;
}

}  // namespace

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

ExperimentFigures read_fio_lat_log(const fs::path& path, const std::string& name) {
  std::ifstream in(path);
  if (!in) throw make_error("{}: cannot open", path.string());
  std::vector<TimeNs> responses;
  std::string text;
  std::uint64_t line = 0;
  while (std::getline(in, text)) {
    ++line;
    if (text.empty() || text == "\r") continue;
    const auto where = [&] { return fmt::format("{}:{}", path.string(), line); };
    std::vector<std::string_view> fields;
    const std::string_view view(text);
    for (std::size_t start = 0;;) {
      const auto comma = view.find(',', start);
      fields.push_back(trim(view.substr(start, comma - start)));
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
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
    responses.push_back(values[1]);
  }
  if (in.bad()) throw make_error("{}: read failed", path.string());
  if (responses.empty()) throw make_error("{}: no latency samples", path.string());
  return {name, {run_figures(responses)}};
}

std::vector<ExperimentFigures> read_fio_json(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw make_error("{}: cannot open", path.string());
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  // fio may print notes ("note: both iodepth >= 1 and synchronous I/O
  // engine ...") before the JSON itself.
  std::size_t start = 0;
  while (start < text.size() && text[start] != '{') {
    const auto newline = text.find('\n', start);
    start = newline == std::string::npos ? text.size() : newline + 1;
  }
  const nlohmann::json root = parse_json(text, start, path.string());
  if (!root.is_object() || !root.contains("jobs") || !root["jobs"].is_array())
    throw make_error("{}: not fio JSON output: no jobs[]", path.string());

  std::vector<ExperimentFigures> experiments;
  const auto add_run = [&experiments](const std::string& name, const RunFigures& run) {
    for (auto& experiment : experiments)
      if (experiment.name == name) return experiment.runs.push_back(run);
    experiments.push_back({name, {run}});
  };
  const auto& jobs = root["jobs"];
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const auto& job = jobs[j];
    const std::string where = fmt::format("{}: jobs[{}]", path.string(), j);
    if (!job.is_object() || !job.contains("jobname") || !job["jobname"].is_string())
      throw make_error("{}: no jobname", where);
    const std::string jobname = job["jobname"].get<std::string>();
    std::vector<std::pair<std::string, RunFigures>> directions;
    for (const char* direction : {"read", "write", "trim"}) {
      if (!job.contains(direction) || !job[direction].is_object()) continue;
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
      std::uint64_t count = 0;
      if (stat && stat->contains("N") && (*stat)["N"].is_number_unsigned())
        count = (*stat)["N"].get<std::uint64_t>();
      else if (figures.contains("total_ios") && figures["total_ios"].is_number_unsigned())
        count = figures["total_ios"].get<std::uint64_t>();
      if (count == 0) continue;
      const std::string stat_where = fmt::format("{} ({}): {}.{}", where, jobname, direction, key);
      if (!stat || !stat->contains("mean") || !(*stat)["mean"].is_number())
        throw make_error("{}: no mean latency", stat_where);
      if (!stat->contains("percentile") || !(*stat)["percentile"].is_object())
        throw make_error("{}: no percentiles (fio ran with clat_percentiles=0?)", stat_where);
      const double scale = key.ends_with("_ns") ? 1e-3 : 1.0;
      directions.emplace_back(
          direction, RunFigures{(*stat)["mean"].get<double>() * scale,
                                percentile_us(*stat, "50.000000", scale, stat_where),
                                percentile_us(*stat, "99.000000", scale, stat_where), count});
    }
    for (const auto& [direction, run] : directions)
      add_run(directions.size() == 1 ? jobname : jobname + ":" + direction, run);
  }
  if (experiments.empty()) throw make_error("{}: no fio job did any I/O", path.string());
  return experiments;
}

}  // namespace ssdlab::sim
