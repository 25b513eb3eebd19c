#include "sim/results/uflip_report.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>
#include <vector>

#include "sim/results/report.h"
#include "workloads/methodology.h"

namespace ssdlab::sim {
namespace {

template <typename T>
std::size_t index_of(std::vector<T>& items, const T& item) {
  auto it = std::find(items.begin(), items.end(), item);
  if (it != items.end()) return static_cast<std::size_t>(it - items.begin());
  items.push_back(item);
  return items.size() - 1;
}

// Values sort numerically when they are numbers (they are, for every
// micro-benchmark), so that execution order does not shuffle the rows.
bool value_less(const std::string& a, const std::string& b) {
  return std::stod(a) < std::stod(b);
}

}  // namespace

nlohmann::json benchmark_tables(const nlohmann::json& experiments,
                                std::uint64_t logical_page_size) {
  std::vector<std::string> names;
  std::vector<nlohmann::json> tables;
  for (const auto& experiment : experiments) {
    if (!experiment.contains("benchmark")) continue;
    const std::string name = experiment["benchmark"];
    const std::size_t t = index_of(names, name);
    if (t == tables.size())
      tables.push_back({{"name", name},
                        {"parameter", experiment["parameter"]},
                        {"columns", nlohmann::json::array()},
                        {"rows", nlohmann::json::array()}});
    nlohmann::json& table = tables[t];
    const double mean = mean_over_runs(experiment, "mean_us");
    const std::string column = experiment["column"], value = experiment["value"];
    if (std::find(table["columns"].begin(), table["columns"].end(), column) ==
        table["columns"].end())
      table["columns"].push_back(column);
    auto row = std::find_if(table["rows"].begin(), table["rows"].end(),
                            [&](const nlohmann::json& r) { return r["value"] == value; });
    if (row == table["rows"].end()) {
      table["rows"].push_back({{"value", value}, {"mean_us", nlohmann::json::object()}});
      row = table["rows"].end() - 1;
    }
    (*row)["mean_us"][column] = std::round(mean * 1000) / 1000;
  }
  nlohmann::json result = nlohmann::json::array();
  for (auto& table : tables) {
    // Columns in the paper's order, whatever order the plan ran them in.
    static const std::vector<std::string> kOrder = {"SR",    "RR",    "SW",    "RW",    "SR+RR",
                                                    "SR+RW", "SR+SW", "RR+SW", "RR+RW", "SW+RW"};
    const auto rank = [](const nlohmann::json& column) {
      return std::find(kOrder.begin(), kOrder.end(), column.get<std::string>()) - kOrder.begin();
    };
    auto& columns = table["columns"];
    std::stable_sort(columns.begin(), columns.end(),
                     [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
    auto& rows = table["rows"];
    std::stable_sort(rows.begin(), rows.end(),
                     [](const nlohmann::json& a, const nlohmann::json& b) {
                       return value_less(a["value"], b["value"]);
                     });
    if (table["parameter"] == "io_size") {
      // Linear cost over the sizes that are whole logical pages: below a page
      // the FTL's read-modify-write is a different regime.
      nlohmann::json fits = nlohmann::json::object();
      for (const auto& column : table["columns"]) {
        std::vector<double> sizes, costs;
        for (const auto& row : rows) {
          const double size = std::stod(row["value"].get<std::string>());
          if (!row["mean_us"].contains(column) || size < static_cast<double>(logical_page_size) ||
              static_cast<std::uint64_t>(size) % logical_page_size != 0)
            continue;
          sizes.push_back(size);
          costs.push_back(row["mean_us"][column].get<double>());
        }
        const workloads::LinearCost fit = workloads::fit_linear_cost(sizes, costs);
        if (fit.points < 2) continue;
        fits[column.get<std::string>()] = {
            {"fixed_us", std::round(fit.fixed_us * 1000) / 1000},
            {"per_kib_us", std::round(fit.per_byte_us * 1024e3) / 1e3},
            {"r_squared", std::round(fit.r_squared * 1e4) / 1e4},
            {"points", fit.points}};
      }
      table["linear_cost"] = std::move(fits);
    }
    result.push_back(std::move(table));
  }
  return result;
}

void print_benchmark_tables(std::ostream& out, const nlohmann::json& tables) {
  for (const auto& table : tables) {
    fmt::print(out, "\n{}: mean response time (us) by {}\n  {:>12}",
               table["name"].get<std::string>(), table["parameter"].get<std::string>(),
               table["parameter"].get<std::string>());
    for (const auto& column : table["columns"])
      fmt::print(out, " {:>10}", column.get<std::string>());
    fmt::print(out, "\n");
    for (const auto& row : table["rows"]) {
      fmt::print(out, "  {:>12}", row["value"].get<std::string>());
      for (const auto& column : table["columns"]) {
        if (row["mean_us"].contains(column))
          fmt::print(out, " {:>10.1f}", row["mean_us"][column].get<double>());
        else
          fmt::print(out, " {:>10}", "-");
      }
      fmt::print(out, "\n");
    }
    if (table.contains("linear_cost"))
      for (const auto& [column, fit] : table["linear_cost"].items())
        fmt::print(out, "  {} linear cost: {:.1f} us + {:.3f} us per KiB (r^2 {:.4f}, {} sizes)\n",
                   column, fit["fixed_us"].get<double>(), fit["per_kib_us"].get<double>(),
                   fit["r_squared"].get<double>(), fit["points"].get<std::size_t>());
  }
}

}  // namespace ssdlab::sim
