#include "sim/sweep/sweep_columns.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "common/units.h"
#include "sim/run/trace_run.h"
#include "sim/run/trace_settings.h"

namespace ssdlab::sim {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string typed_field(std::string text) {
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"')
    text = text.substr(1, text.size() - 2);
  double number = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (!text.empty() && error == std::errc() && end == text.data() + text.size()) return text;
  if (const auto bytes = parse_size(text)) return fmt::format("{}", *bytes);
  return csv_field(text);
}

void add_columns(std::vector<std::string>& columns, const Settings& settings) {
  for (const auto& [key, value] : settings)
    if (std::find(columns.begin(), columns.end(), key) == columns.end()) columns.push_back(key);
}

std::string typed_fields(const std::vector<std::string>& columns, const Settings& settings) {
  std::string fields;
  for (const std::string& column : columns) {
    const auto it = std::find_if(settings.begin(), settings.end(), [&column](const auto& setting) {
      return setting.first == column;
    });
    fields += ',';  // (appended apart: GCC 12's -Wrestrict misreads "," + text)
    if (it != settings.end()) fields += typed_field(it->second);
  }
  return fields;
}

namespace {

// "key=value,key=value" into pairs prefixed "workload.".
void add_keys(std::string_view keys, Settings& out) {
  while (!keys.empty()) {
    const std::size_t end = std::min(keys.find(','), keys.size());
    const std::string_view item = keys.substr(0, end);
    keys.remove_prefix(std::min(end + 1, keys.size()));
    const std::size_t equals = item.find('=');
    if (equals != std::string_view::npos && equals > 0)
      out.emplace_back("workload." + std::string(item.substr(0, equals)),
                       std::string(item.substr(equals + 1)));
  }
}

bool has(const Settings& pairs, const std::string& key) {
  for (const auto& [name, value] : pairs)
    if (name == key) return true;
  return false;
}

}  // namespace

Settings workload_parameters(const nlohmann::json& job) {
  Settings pairs;
  const std::string workload = job.value("workload", "");
  if (workload.find(" + ") != std::string::npos) return pairs;  // tenants
  if (is_trace_workload(workload)) {
    std::string file;
    try {
      (void)trace_options_of(workload, TraceOptions{}, file);
    } catch (const std::exception&) {
      return pairs;  // not one the sweep would have run
    }
    const std::size_t keys = std::string_view("trace:").size() + file.size();
    if (keys < workload.size()) add_keys(std::string_view(workload).substr(keys + 1), pairs);
    // The sweep file's trace keys, where the trace does not give its own.
    if (job.value("mode", "") != "" && !has(pairs, "workload.mode"))
      pairs.emplace_back("workload.mode", job.value("mode", ""));
    if (job.value("qd", 0u) != 0 && !has(pairs, "workload.qd"))
      pairs.emplace_back("workload.qd", fmt::format("{}", job.value("qd", 0u)));
    if (job.value("speed", 0.0) != 0 && !has(pairs, "workload.speed"))
      pairs.emplace_back("workload.speed", fmt::format("{}", job.value("speed", 0.0)));
    return pairs;
  }
  // RW:io_size=4096,... and uflip:NAME:count=64,...: the keys follow the
  // last ':' before the first '='; uflip:NAME and plan files have none.
  const std::size_t equals = workload.find('=');
  const std::size_t colon = equals == std::string::npos ? equals : workload.rfind(':', equals);
  if (colon != std::string::npos && !workload.ends_with(".toml"))
    add_keys(std::string_view(workload).substr(colon + 1), pairs);
  return pairs;
}

std::string experiment_fields(const ExperimentRecord& experiment) {
  return fmt::format(
      ",{},{},{},{},{}", csv_field(experiment.pattern),
      csv_field(experiment.benchmark.value_or("")), csv_field(experiment.column.value_or("")),
      csv_field(experiment.parameter.value_or("")), typed_field(experiment.value.value_or("")));
}

std::optional<double> mean_device_ratio(const ExperimentRecord& experiment,
                                        std::optional<double> (DeviceCounters::*ratio)() const) {
  double sum = 0;
  std::size_t runs = 0;
  for (const RunRecord& run : experiment.runs)
    if (const std::optional<double> value = run.device ? ((*run.device).*ratio)() : std::nullopt) {
      sum += *value;
      ++runs;
    }
  if (runs == 0) return std::nullopt;
  return sum / static_cast<double>(runs);
}

std::optional<double> mean_write_amplification(const ExperimentRecord& experiment) {
  return mean_device_ratio(experiment, &DeviceCounters::write_amplification_if_written);
}

namespace {

// Whether `has(run)` holds for a run of `summary`.
template <typename Has>
bool any_run(const SummaryRecord& summary, Has has) {
  for (const ExperimentRecord& experiment : summary.experiments)
    for (const RunRecord& run : experiment.runs)
      if (has(run)) return true;
  return false;
}

}  // namespace

bool has_host_log(const SummaryRecord& summary) {
  return any_run(summary, [](const RunRecord& run) { return run.device && run.device->host_log; });
}

std::string host_log_fields(const ExperimentRecord& experiment) {
  const auto field = [](std::optional<double> value) {
    return value ? fmt::format("{:.4f}", *value) : std::string();
  };
  return fmt::format(
      ",{},{}", field(mean_device_ratio(experiment, &DeviceCounters::host_log_write_amplification)),
      field(mean_device_ratio(experiment, &DeviceCounters::end_to_end_write_amplification)));
}

bool has_energy(const SummaryRecord& summary) {
  return any_run(summary, [](const RunRecord& run) { return run.device && run.device->energy; });
}

std::string energy_fields(const ExperimentRecord& experiment) {
  double sum = 0;
  std::size_t runs = 0;
  for (const RunRecord& run : experiment.runs)
    if (run.device && run.device->energy) {
      sum += static_cast<double>(run.device->energy->total_nj()) / 1000.0;
      ++runs;
    }
  return runs == 0 ? std::string(",") : fmt::format(",{:.3f}", sum / static_cast<double>(runs));
}

bool has_counts_apart(const SummaryRecord& summary) {
  return any_run(summary, [](const RunRecord& run) {
    return run.trims + run.refused + run.zone_management > 0;
  });
}

std::string apart_fields(const ExperimentRecord& experiment) {
  std::uint64_t trims = 0, refused = 0, zone_management = 0;
  for (const RunRecord& run : experiment.runs) {
    trims += run.trims;
    refused += run.refused;
    zone_management += run.zone_management;
  }
  return fmt::format(",{},{:.1f},{},{}", trims, experiment.mean_over_runs(&RunRecord::trim_iops),
                     refused, zone_management);
}

}  // namespace ssdlab::sim
