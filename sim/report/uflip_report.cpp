#include "sim/report/uflip_report.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "sim/report/report.h"
#include "workloads/methodology.h"

namespace ssdlab::sim {
namespace {

// Values sort numerically when they are numbers (they are, for every
// micro-benchmark), so that execution order does not shuffle the rows.
bool value_less(const std::string& a, const std::string& b) {
  return std::stod(a) < std::stod(b);
}

// Columns in the paper's order, whatever order the plan ran them in.
std::ptrdiff_t column_rank(const std::string& column) {
  static const std::vector<std::string> kOrder = {"SR",    "RR",    "SW",    "RW",    "SR+RR",
                                                  "SR+RW", "SR+SW", "RR+SW", "RR+RW", "SW+RW"};
  return std::find(kOrder.begin(), kOrder.end(), column) - kOrder.begin();
}

// Linear cost over the sizes that are whole logical pages: below a page the
// FTL's read-modify-write is a different regime.
std::map<std::string, LinearCostRecord> linear_costs(const BenchmarkTable& table,
                                                     std::uint64_t logical_page_size) {
  std::map<std::string, LinearCostRecord> fits;
  for (const std::string& column : table.columns) {
    std::vector<double> sizes, costs;
    for (const BenchmarkTable::Row& row : table.rows) {
      const double size = std::stod(row.value);
      const auto cost = row.mean_us.find(column);
      if (cost == row.mean_us.end() || size < static_cast<double>(logical_page_size) ||
          static_cast<std::uint64_t>(size) % logical_page_size != 0)
        continue;
      sizes.push_back(size);
      costs.push_back(cost->second);
    }
    const workloads::LinearCost fit = workloads::fit_linear_cost(sizes, costs);
    if (fit.points < 2) continue;
    fits[column] = {std::round(fit.fixed_us * 1000) / 1000,
                    std::round(fit.per_byte_us * 1024e3) / 1e3,
                    std::round(fit.r_squared * 1e4) / 1e4, fit.points};
  }
  return fits;
}

}  // namespace

std::vector<BenchmarkTable> benchmark_tables(const std::vector<ExperimentRecord>& experiments,
                                             std::uint64_t logical_page_size) {
  std::vector<BenchmarkTable> tables;
  for (const ExperimentRecord& experiment : experiments) {
    if (!experiment.benchmark) continue;
    auto table = std::find_if(tables.begin(), tables.end(), [&](const BenchmarkTable& t) {
      return t.name == *experiment.benchmark;
    });
    if (table == tables.end()) {
      tables.push_back({*experiment.benchmark, experiment.parameter.value_or(""), {}, {}, {}});
      table = tables.end() - 1;
    }
    const std::string column = experiment.column.value_or(""), value = experiment.value.value_or("");
    if (std::find(table->columns.begin(), table->columns.end(), column) == table->columns.end())
      table->columns.push_back(column);
    auto row = std::find_if(table->rows.begin(), table->rows.end(),
                            [&](const BenchmarkTable::Row& r) { return r.value == value; });
    if (row == table->rows.end()) {
      table->rows.push_back({value, {}});
      row = table->rows.end() - 1;
    }
    row->mean_us[column] = std::round(experiment.mean_over_runs(&RunRecord::mean_us) * 1000) / 1000;
  }
  for (BenchmarkTable& table : tables) {
    std::stable_sort(table.columns.begin(), table.columns.end(),
                     [](const auto& a, const auto& b) { return column_rank(a) < column_rank(b); });
    std::stable_sort(table.rows.begin(), table.rows.end(),
                     [](const auto& a, const auto& b) { return value_less(a.value, b.value); });
    if (table.parameter == "io_size") table.linear_cost = linear_costs(table, logical_page_size);
  }
  return tables;
}

void print_benchmark_tables(std::ostream& out, const std::vector<BenchmarkTable>& tables) {
  for (const BenchmarkTable& table : tables) {
    fmt::print(out, "\n{}: mean response time (us) by {}\n  {:>12}", table.name, table.parameter,
               table.parameter);
    for (const auto& column : table.columns) fmt::print(out, " {:>10}", column);
    fmt::print(out, "\n");
    for (const BenchmarkTable::Row& row : table.rows) {
      fmt::print(out, "  {:>12}", row.value);
      for (const auto& column : table.columns) {
        if (const auto cost = row.mean_us.find(column); cost != row.mean_us.end())
          fmt::print(out, " {:>10.1f}", cost->second);
        else
          fmt::print(out, " {:>10}", "-");
      }
      fmt::print(out, "\n");
    }
    if (table.linear_cost)
      for (const auto& [column, fit] : *table.linear_cost)
        fmt::print(out, "  {} linear cost: {:.1f} us + {:.3f} us per KiB (r^2 {:.4f}, {} sizes)\n",
                   column, fit.fixed_us, fit.per_kib_us, fit.r_squared, fit.points);
  }
}

}  // namespace ssdlab::sim
