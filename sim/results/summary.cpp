// The figures of summary.json's records (summary.h) and the file read back;
// the fields themselves are written and read in summary_json.cpp.
#include "sim/results/summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace ssdlab::sim {

RunRecord RunRecord::of(std::uint32_t run, const RunStats& s) {
  const auto us = [](double ns) { return std::round(ns) / 1000.0; };
  RunRecord r;
  r.run = run;
  r.count = s.count;
  r.ignored = s.ignored;
  r.min_us = us(static_cast<double>(s.min_ns));
  r.max_us = us(static_cast<double>(s.max_ns));
  r.mean_us = us(s.mean_ns);
  r.stddev_us = us(s.stddev_ns);
  r.p50_us = us(static_cast<double>(s.p50_ns));
  r.p99_us = us(static_cast<double>(s.p99_ns));
  r.iops = std::round(s.iops * 10) / 10;
  r.mb_per_s = std::round(s.mb_per_s * 1000) / 1000;
  r.trims = s.trims;
  r.trim_iops = std::round(s.trim_iops * 10) / 10;
  r.refused = s.refused;
  r.zone_management = s.zone_management;
  // In increasing percent, each once, as summary.json's object holds them.
  for (const Percentile& p : s.percentiles)
    r.percentiles.emplace_back(p.percent, us(static_cast<double>(p.ns)));
  std::stable_sort(r.percentiles.begin(), r.percentiles.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  r.percentiles.erase(std::unique(r.percentiles.begin(), r.percentiles.end(),
                                  [](const auto& a, const auto& b) { return a.first == b.first; }),
                      r.percentiles.end());
  if (s.percentile_error > 0)
    r.percentile_method =
        fmt::format("histogram, relative error <= {:.3g}%", s.percentile_error * 100);
  for (const auto& bucket : s.histogram.buckets) {
    r.histogram.from_us.push_back(us(static_cast<double>(bucket.from_ns)));
    r.histogram.to_us.push_back(us(static_cast<double>(bucket.to_ns)));
    r.histogram.counts.push_back(bucket.count);
  }
  return r;
}

std::optional<double> RunRecord::write_amplification() const {
  if (!device) return std::nullopt;
  return device->write_amplification_if_written();
}

double ExperimentRecord::mean_over_runs(double RunRecord::*figure) const {
  double sum = 0;
  for (const RunRecord& run : runs) sum += run.*figure;
  return runs.empty() ? 0.0 : sum / static_cast<double>(runs.size());
}

bool ExperimentRecord::single_stream() const {
  return queue_depth == 1 && processes == 1 && !mix && pause_us == 0 && io_shift == 0 &&
         increment == 1 && partitions == 1;
}

std::optional<double> SummaryRecord::write_amplification() const {
  if (!device) return std::nullopt;
  return device->write_amplification_if_written();
}

std::string SummaryRecord::text() const {
  const nlohmann::json json = *this;
  return json.dump(2) + "\n";
}

SummaryRecord read_summary(const std::filesystem::path& path) {
  return summary_from_json(read_json_file(path), path.string());
}

}  // namespace ssdlab::sim
