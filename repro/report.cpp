// report.md and report.json of `ssdlab reproduce`.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "repro/reproduce.h"
#include "sim/results/output.h"

namespace ssdlab::repro {
namespace fs = std::filesystem;

namespace {

std::string values_text(const RowResult& result) {
  const Row& row = *result.row;
  if (row.check == Check::kValue) return fmt::format("{:.4g}", result.values.at(0));
  std::string text;
  for (std::size_t i = 0; i < result.values.size(); ++i)
    text += fmt::format("{}{}: {:.4g}", i ? ", " : "", row.measures[i].label, result.values[i]);
  return text;
}

std::string check_text(const Row& row) {
  switch (row.check) {
    case Check::kValue:
      return fmt::format("±{:g}%", row.tolerance * 100);
    case Check::kIncreasing:
      return "rises";
    case Check::kDecreasing:
      return "falls";
    case Check::kAtLeast:
      return fmt::format("ratio ≥ {:g}", row.bound);
    case Check::kAtMost:
      return fmt::format("ratio ≤ {:g}", row.bound);
    case Check::kMeasured:
      return "none";
    case Check::kRatio:
      return fmt::format("last/first ±{:g}%", row.tolerance * 100);
  }
  return "?";
}

// A table cell: no line breaks, no column separators.
std::string cell(std::string text) {
  for (char& c : text)
    if (c == '\n') c = ' ';
  std::string escaped;
  for (char c : text) escaped += c == '|' ? std::string("\\|") : std::string(1, c);
  return escaped;
}

// Through a fresh temporary file renamed into place (sim/results/output.h).
void write_file(const fs::path& path, const std::string& text) {
  sim::write_file_atomically(path, text);
}

}  // namespace

std::string markdown_table(const std::vector<RowResult>& results) {
  std::string md =
      "| id | figure | quantity | paper | ssdlab | tolerance | verdict | note |\n"
      "|---|---|---|---|---|---|---|---|\n";
  for (const RowResult& r : results) {
    const Row& row = *r.row;
    md += fmt::format("| {} | {} | {} | {} | {} | {} | **{}** {} | {} |\n", row.id,
                      cell(row.figure), cell(row.quantity), cell(row.published),
                      cell(values_text(r)), check_text(row), r.verdict, cell(r.detail),
                      cell(row.note));
  }
  return md;
}

void write_reports(const std::vector<RowResult>& results, const ReproduceOptions& options,
                   double wall_s, const std::string& command) {
  std::size_t passed = 0, compared = 0;
  nlohmann::json rows = nlohmann::json::array();
  for (const RowResult& r : results) {
    passed += r.pass;
    compared += r.row->check != Check::kMeasured;
    const Row& row = *r.row;
    nlohmann::json measures = nlohmann::json::array();
    for (std::size_t i = 0; i < row.measures.size(); ++i)
      measures.push_back({{"label", row.measures[i].label},
                          {"metric", metric_name(row.measures[i].metric)},
                          {"experiment", row.measures[i].experiment},
                          {"value", r.values[i]}});
    rows.push_back({{"id", row.id},
                    {"paper", row.paper},
                    {"figure", row.figure},
                    {"quantity", row.quantity},
                    {"published", row.published},
                    {"paper_value", row.paper_value ? nlohmann::json(*row.paper_value)
                                                    : nlohmann::json(nullptr)},
                    {"check", check_text(row)},
                    {"trend", row.check == Check::kIncreasing || row.check == Check::kDecreasing},
                    {"measures", measures},
                    {"verdict", r.verdict},
                    {"detail", r.detail},
                    {"note", row.note},
                    {"commands", r.commands}});
  }
  const nlohmann::json report = {{"command", command},
                                 {"quick", options.quick},
                                 {"seed", options.seed},
                                 {"wall_s", wall_s},
                                 {"rows_passed", passed},
                                 {"rows_compared", compared},
                                 {"rows", rows}};
  write_file(fs::path(options.outdir) / "report.json", report.dump(2) + "\n");

  std::string md = fmt::format(
      "# ssdlab reproduce: the seed papers' experiments\n\n"
      "Produced by `{}` ({} of {} compared rows within tolerance, {} more measured; {:.0f} s "
      "wall{}).\n"
      "Paper values are the published ones (the figure or table is named); a trend row\n"
      "checks the direction the paper reports. A miss is explained in its note. A row\n"
      "whose verdict is \"measured\" reports a quantity the paper does not print beside\n"
      "the row that compares the paper's own statistic.\n\n",
      command, passed, compared, results.size() - compared, wall_s,
      options.quick ? "; --quick: scaled-down runs" : "");
  // tools/fidelity-table.py copies the table between these markers into
  // docs/fidelity.md.
  md += "<!-- reproduce-table:begin -->\n" + markdown_table(results) +
        "<!-- reproduce-table:end -->\n";
  md += "\n## Commands\n\nEach row's runs, as `ssdlab sim` command lines:\n\n";
  for (const RowResult& r : results) {
    md += fmt::format("- `{}`:\n", r.row->id);
    for (const auto& c : r.commands) md += fmt::format("  `{}`\n", c);
  }
  write_file(fs::path(options.outdir) / "report.md", md);
}

}  // namespace ssdlab::repro
