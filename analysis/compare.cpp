#include "analysis/compare.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <map>
#include <ostream>

#include "analysis/compare_match.h"
#include "analysis/plot.h"
#include "common/error.h"
#include "common/temp_folder.h"
#include "sim/results/output.h"

namespace ssdlab::analysis {
using sim::check_output_path;
using sim::check_replaces_own_kind;
using sim::command_input;
using sim::NamedPath;
using sim::write_file_atomically;
namespace fs = std::filesystem;

namespace {

struct Figures {
  double mean = 0, p50 = 0, p99 = 0;
  std::map<double, double> tail;  // percentiles above p99 that every run has: percent -> us
};

// The mean over runs of each run's figures.
Figures average(const ExperimentFigures& experiment) {
  Figures sum;
  std::map<double, std::size_t> runs_with;
  for (const auto& run : experiment.runs) {
    sum.mean += run.mean_us;
    sum.p50 += run.p50_us;
    sum.p99 += run.p99_us;
    for (const auto& [percent, us] : run.percentiles)
      if (percent > 99) sum.tail[percent] += us, ++runs_with[percent];
  }
  const auto runs = static_cast<double>(experiment.runs.size());
  Figures mean{sum.mean / runs, sum.p50 / runs, sum.p99 / runs, {}};
  for (const auto& [percent, total] : sum.tail)
    if (runs_with[percent] == experiment.runs.size()) mean.tail[percent] = total / runs;
  return mean;
}

struct Row {
  std::string name;
  Figures a, b;
};

// The percentiles above p99 both sides of every row have.
std::vector<double> shared_tail(const std::vector<Row>& rows) {
  std::vector<double> percents;
  if (rows.empty()) return percents;
  for (const auto& [percent, us] : rows.front().a.tail) {
    bool everywhere = true;
    for (const Row& row : rows)
      everywhere = everywhere && row.a.tail.contains(percent) && row.b.tail.contains(percent);
    if (everywhere) percents.push_back(percent);
  }
  return percents;
}

// "p99.9" for the table's headers, "p99_9" for the CSV's.
std::string tail_name(double percent, bool csv) {
  std::string text = fmt::format("p{}", percent);
  if (csv) std::replace(text.begin(), text.end(), '.', '_');
  return text;
}

// B/A, or NaN where A is 0 (no ratio to speak of).
double ratio(double a, double b) {
  return a > 0 ? b / a : std::nan("");
}

struct Totals {
  Figures geometric_mean;  // of the ratios
  double mean_error = 0;   // mean of |B-A|/A over the means
};

Totals totals(const std::vector<Row>& rows) {
  const auto geometric = [&rows](auto figure) {
    double logs = 0;
    std::size_t n = 0;
    for (const auto& row : rows) {
      const double r = ratio(figure(row.a), figure(row.b));
      if (std::isfinite(r) && r > 0) logs += std::log(r), ++n;
    }
    return n ? std::exp(logs / static_cast<double>(n)) : std::nan("");
  };
  Totals t;
  t.geometric_mean = {geometric([](const Figures& f) { return f.mean; }),
                      geometric([](const Figures& f) { return f.p50; }),
                      geometric([](const Figures& f) { return f.p99; }),
                      {}};
  double errors = 0;
  std::size_t n = 0;
  for (const auto& row : rows)
    if (row.a.mean > 0) errors += std::abs(row.b.mean - row.a.mean) / row.a.mean, ++n;
  t.mean_error = n ? errors / static_cast<double>(n) : std::nan("");
  return t;
}

std::string ratio_text(double r, int decimals) {
  return std::isfinite(r) ? fmt::format("{:.{}f}", r, decimals) : "-";
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// How compare's CSV starts: `--csv` replaces only such a file (or an empty one).
constexpr std::string_view kCsvStart = "experiment,a_mean_us,b_mean_us,";

std::string to_csv(const std::vector<Row>& rows, const Totals& t) {
  // The columns of percentiles above p99 come last, so that readers of the
  // first columns are unaffected.
  const std::vector<double> tail = shared_tail(rows);
  std::string csv = std::string(kCsvStart) +
      "mean_ratio,a_p50_us,b_p50_us,p50_ratio,a_p99_us,b_p99_us,"
      "p99_ratio,mean_error";
  for (const double percent : tail) {
    const std::string name = tail_name(percent, true);
    csv += fmt::format(",a_{0}_us,b_{0}_us,{0}_ratio", name);
  }
  csv += "\n";
  const auto cell = [](double r) { return std::isfinite(r) ? fmt::format("{:.6f}", r) : ""; };
  for (const auto& row : rows) {
    csv += fmt::format(
        "{},{:.3f},{:.3f},{},{:.3f},{:.3f},{},{:.3f},{:.3f},{},{}", csv_field(row.name), row.a.mean,
        row.b.mean, cell(ratio(row.a.mean, row.b.mean)), row.a.p50, row.b.p50,
        cell(ratio(row.a.p50, row.b.p50)), row.a.p99, row.b.p99, cell(ratio(row.a.p99, row.b.p99)),
        cell(row.a.mean > 0 ? std::abs(row.b.mean - row.a.mean) / row.a.mean : std::nan("")));
    for (const double percent : tail) {
      const double x = row.a.tail.at(percent), y = row.b.tail.at(percent);
      csv += fmt::format(",{:.3f},{:.3f},{}", x, y, cell(ratio(x, y)));
    }
    csv += "\n";
  }
  csv += fmt::format("(total),,,{},,,{},,,{},{}", cell(t.geometric_mean.mean),
                     cell(t.geometric_mean.p50), cell(t.geometric_mean.p99), cell(t.mean_error));
  for (const double percent : tail) {  // the geometric mean of the ratios, as above
    double logs = 0;
    std::size_t n = 0;
    for (const auto& row : rows) {
      const double r = ratio(row.a.tail.at(percent), row.b.tail.at(percent));
      if (std::isfinite(r) && r > 0) logs += std::log(r), ++n;
    }
    csv += ",,," + cell(n ? std::exp(logs / static_cast<double>(n)) : std::nan(""));
  }
  csv += "\n";
  return csv;
}

void print_table(std::ostream& out, const std::vector<Row>& rows, const Totals& t) {
  std::size_t width = 10;
  for (const auto& row : rows) width = std::max(width, row.name.size());
  const std::vector<double> tail = shared_tail(rows);
  fmt::print(out, "  {:<{}} {:>11} {:>11} {:>7} {:>11} {:>11} {:>7} {:>11} {:>11} {:>7}",
             "experiment", width, "mean_us A", "mean_us B", "B/A", "p50_us A", "p50_us B", "B/A",
             "p99_us A", "p99_us B", "B/A");
  for (const double percent : tail) {
    const std::string name = tail_name(percent, false);
    fmt::print(out, " {:>11} {:>11} {:>7}", name + "_us A", name + "_us B", "B/A");
  }
  fmt::print(out, "\n");
  for (const auto& row : rows) {
    fmt::print(out,
               "  {:<{}} {:>11.3f} {:>11.3f} {:>7} {:>11.3f} {:>11.3f} {:>7} {:>11.3f} {:>11.3f} "
               "{:>7}",
               row.name, width, row.a.mean, row.b.mean,
               ratio_text(ratio(row.a.mean, row.b.mean), 3), row.a.p50, row.b.p50,
               ratio_text(ratio(row.a.p50, row.b.p50), 3), row.a.p99, row.b.p99,
               ratio_text(ratio(row.a.p99, row.b.p99), 3));
    for (const double percent : tail) {
      const double x = row.a.tail.at(percent), y = row.b.tail.at(percent);
      fmt::print(out, " {:>11.3f} {:>11.3f} {:>7}", x, y, ratio_text(ratio(x, y), 3));
    }
    fmt::print(out, "\n");
  }
  fmt::print(out, "  geometric mean of B/A over {} experiment{}: mean {}, p50 {}, p99 {}\n",
             rows.size(), rows.size() == 1 ? "" : "s", ratio_text(t.geometric_mean.mean, 3),
             ratio_text(t.geometric_mean.p50, 3), ratio_text(t.geometric_mean.p99, 3));
  fmt::print(out, "  mean absolute relative error of the means, |B-A|/A: {}{}\n",
             ratio_text(t.mean_error, 4),
             std::isfinite(t.mean_error) ? fmt::format(" ({:.2f}%)", t.mean_error * 100) : "");
}

// The experiments of `side` no pair uses (`first`: side A's indices).
std::string names_unmatched(const CompareSide& side, const std::vector<MatchedPair>& pairs,
                            bool first) {
  std::string names;
  for (std::size_t i = 0; i < side.experiments.size(); ++i) {
    const bool matched = std::any_of(pairs.begin(), pairs.end(), [&](const MatchedPair& pair) {
      return (first ? pair.a : pair.b) == i;
    });
    if (!matched) names += (names.empty() ? "" : ", ") + side.experiments[i].name;
  }
  return names;
}

// The files compare reads: a side's file, or a folder's outputs.
std::vector<NamedPath> compare_inputs(const CompareOptions& options) {
  std::vector<NamedPath> inputs;
  for (const std::string& side : {options.a, options.b}) {
    std::error_code error;
    if (!fs::is_directory(side, error)) {
      inputs.push_back(command_input(side, side));
      continue;
    }
    for (const char* name : sim::kRunOutputNames)
      inputs.push_back(command_input(fmt::format("{} of {}", name, side), fs::path(side) / name));
  }
  return inputs;
}

}  // namespace

int run_compare(const CompareOptions& options, std::ostream& out) {
  if (!options.plot.empty()) {
    const auto extension = fs::path(options.plot).extension();
    if (extension != ".png" && extension != ".svg")
      throw make_error("--plot {}: expected a .png or .svg file name", options.plot);
  }
  const std::vector<NamedPath> inputs = compare_inputs(options);
  if (!options.csv.empty()) {
    check_output_path(options.csv, "output file", inputs);
    check_replaces_own_kind(options.csv, "compare table", kCsvStart);
  }
  if (!options.plot.empty()) check_output_path(options.plot, "plot", inputs);
  const CompareSide a = load_side(options.a, options.name, options.pool_jobs);
  const CompareSide b = load_side(options.b, options.name, options.pool_jobs);
  for (const CompareSide* side : {&a, &b})
    if (side->experiments.empty()) throw make_error("{}: no experiment with runs", side->path);
  const std::vector<MatchedPair> pairs =
      match_experiments(a.experiments, b.experiments, parse_match(options.match), options.maps);
  std::vector<Row> rows;
  for (const MatchedPair& pair : pairs)
    rows.push_back({pair.label, average(a.experiments[pair.a]), average(b.experiments[pair.b])});
  if (rows.empty())
    throw make_error(
        "{} and {} have no experiment in common (A: {}; B: {}); pair them with --match order "
        "or --map A-NAME=B-NAME",
        a.path, b.path, a.experiments.front().name + (a.experiments.size() > 1 ? ", ..." : ""),
        b.experiments.front().name + (b.experiments.size() > 1 ? ", ..." : ""));
  const Totals t = totals(rows);
  fmt::print(out, "A: {} ({})\nB: {} ({})\n", a.path, a.kind, b.path, b.kind);
  print_table(out, rows, t);
  if (const auto only = names_unmatched(a, pairs, true); !only.empty())
    fmt::print(out, "  only in A: {}\n", only);
  if (const auto only = names_unmatched(b, pairs, false); !only.empty())
    fmt::print(out, "  only in B: {}\n", only);
  const std::string csv = to_csv(rows, t);
  if (!options.csv.empty()) {
    write_file_atomically(options.csv, csv);
    fmt::print(out, "  csv: {}\n", options.csv);
  }
  if (options.plot.empty()) return 0;
  // The script reads the table from a CSV file: --csv's, or a private one.
  std::string table = options.csv;
  if (table.empty()) {
    table = (temporary_folder("compare --plot") / "ssdlab-compare-XXXXXX").string();
    const int fd = mkstemp(table.data());
    if (fd < 0)
      throw make_error("{}: cannot create a temporary file: {}", table, std::strerror(errno));
    close(fd);
    write_file_atomically(table, csv);
  }
  out.flush();  // before the script's own lines
  const int status = run_plot_script({"--compare", table, options.plot, a.path, b.path});
  if (options.csv.empty()) {
    std::error_code ignored;
    fs::remove(table, ignored);
  }
  return status;
}

}  // namespace ssdlab::analysis
