#include "sim/results/summary.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "common/error.h"
#include <fmt/format.h>

namespace ssdlab::sim {
namespace {

// Typed access to one JSON object, errors naming where it is.
class Fields {
 public:
  Fields(const nlohmann::json& json, std::string where) : json_(json), where_(std::move(where)) {
    if (!json_.is_object()) throw make_error("{}: not a JSON object", where_);
  }
  const nlohmann::json& at(const char* key) const {
    if (!json_.contains(key)) throw make_error("{}: no {}", where_, key);
    return json_[key];
  }
  double number(const char* key) const {
    const auto& value = at(key);
    if (!value.is_number()) throw make_error("{}: {}: not a number", where_, key);
    return value.get<double>();
  }
  double number(const char* key, double otherwise) const {
    return json_.contains(key) ? number(key) : otherwise;
  }
  std::uint64_t count(const char* key, std::uint64_t otherwise) const {
    if (!json_.contains(key)) return otherwise;
    const auto& value = at(key);
    if (!value.is_number_integer() || value.get<std::int64_t>() < 0)
      throw make_error("{}: {}: not a count", where_, key);
    return value.get<std::uint64_t>();
  }
  std::string text(const char* key, const std::string& otherwise) const {
    if (!json_.contains(key)) return otherwise;
    const auto& value = at(key);
    if (!value.is_string()) throw make_error("{}: {}: not a string", where_, key);
    return value.get<std::string>();
  }
  const nlohmann::json& array(const char* key) const {
    const auto& value = at(key);
    if (!value.is_array()) throw make_error("{}: {}: not an array", where_, key);
    return value;
  }
  const std::string& where() const { return where_; }
  const nlohmann::json& json() const { return json_; }

 private:
  const nlohmann::json& json_;
  std::string where_;
};

RunRecord run_from_json(const Fields& f) {
  RunRecord r;
  r.run = static_cast<std::uint32_t>(f.count("run", 0));
  r.count = f.count("count", 0);
  r.ignored = f.count("ignored", 0);
  if (r.count < r.ignored)
    throw make_error("{}: ignored ({}) exceeds count ({})", f.where(), r.ignored, r.count);
  r.mean_us = f.number("mean_us");
  // Percentiles may be missing from hand-made files: not a number then.
  r.p50_us = f.number("p50_us", std::nan(""));
  r.p99_us = f.number("p99_us", std::nan(""));
  r.min_us = f.number("min_us", 0);
  r.max_us = f.number("max_us", 0);
  r.stddev_us = f.number("stddev_us", 0);
  r.iops = f.number("iops", 0);
  r.mb_per_s = f.number("mb_per_s", 0);
  r.stopped = f.text("stopped", "");
  if (const auto& json = f.json(); json.contains("percentiles")) {
    const auto& map = json["percentiles"];
    if (!map.is_object()) throw make_error("{}: percentiles: not an object", f.where());
    for (const auto& [percent, us] : map.items()) {
      if (!us.is_number())
        throw make_error("{}: percentiles.{}: not a number", f.where(), percent);
      double value = 0;
      try {
        value = std::stod(percent);
      } catch (const std::exception&) {
        throw make_error("{}: percentiles: '{}' is not a percent", f.where(), percent);
      }
      r.percentiles.emplace_back(value, us.get<double>());
    }
    std::sort(r.percentiles.begin(), r.percentiles.end());
  }
  return r;
}

ExperimentRecord experiment_from_json(const Fields& f) {
  ExperimentRecord e;
  e.name = f.text("name", "");
  if (e.name.empty()) throw make_error("{}: no name", f.where());
  e.pattern = f.text("pattern", "");
  e.io_size = f.count("io_size", 0);
  e.queue_depth = static_cast<std::uint32_t>(f.count("queue_depth", 1));
  e.processes = static_cast<std::uint32_t>(f.count("processes", 1));
  e.partitions = static_cast<std::uint32_t>(f.count("partitions", 1));
  e.increment = static_cast<std::int64_t>(f.number("increment", 1));
  e.io_shift = f.count("io_shift", 0);
  e.pause_us = f.number("pause_us", 0);
  const auto& runs = f.array("runs");
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const Fields run(runs[r], fmt::format("{}.runs[{}]", f.where(), r));
    RunRecord record = run_from_json(run);
    if (runs[r].contains("device") && runs[r]["device"].is_object())
      record.write_amplification =
          Fields(runs[r]["device"], run.where() + ".device").number("write_amplification");
    e.runs.push_back(std::move(record));
  }
  return e;
}

}  // namespace

double ExperimentRecord::mean_over_runs(double RunRecord::*figure) const {
  double sum = 0;
  for (const RunRecord& run : runs) sum += run.*figure;
  return runs.empty() ? 0.0 : sum / static_cast<double>(runs.size());
}

bool ExperimentRecord::single_stream() const {
  return queue_depth == 1 && processes == 1 && !mixed && pause_us == 0 && io_shift == 0 &&
         increment == 1 && partitions == 1;
}

SummaryRecord summary_from_json(const nlohmann::json& json, const std::string& where) {
  const Fields f(json, where);
  SummaryRecord s;
  s.schema_version = static_cast<int>(f.count("schema_version", 1));
  if (s.schema_version > kSummarySchemaVersion)
    throw make_error("{}: schema_version {}; this ssdlab reads up to {}", where, s.schema_version,
                     kSummarySchemaVersion);
  if (json.contains("ssdlab") && json["ssdlab"].is_object())
    s.ssdlab_version = Fields(json["ssdlab"], where + ": ssdlab").text("version", "");
  s.workload = f.text("workload", "");
  s.seed = f.count("seed", 0);
  s.logical_bytes = f.count("logical_bytes", 0);
  const auto& experiments = f.array("experiments");
  for (std::size_t e = 0; e < experiments.size(); ++e) {
    const Fields experiment(experiments[e], fmt::format("{}: experiments[{}]", where, e));
    ExperimentRecord record = experiment_from_json(experiment);
    record.mixed = experiments[e].contains("mix");
    s.experiments.push_back(std::move(record));
  }
  if (json.contains("device") && json["device"].is_object())
    s.write_amplification = Fields(json["device"], where + ": device").number("write_amplification");
  return s;
}

SummaryRecord read_summary(const std::filesystem::path& path) {
  return summary_from_json(read_json_file(path), path.string());
}

}  // namespace ssdlab::sim
