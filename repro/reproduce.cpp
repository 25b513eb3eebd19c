#include "repro/reproduce.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/error.h"
#include "sim/results/output.h"
#include "sim/run/plan_run.h"

namespace ssdlab::repro {
namespace fs = std::filesystem;

namespace {

std::string quoted(const std::string& text) {
  return text.find_first_of(" '\"*;&|<>()$") == std::string::npos ? text : "'" + text + "'";
}

const std::string& workload_of(const SimRun& run, bool quick) {
  return quick && !run.quick_workload.empty() ? run.quick_workload : run.workload;
}

// The run of one measure: summary.json of the folder it ran in.
const nlohmann::json& experiment_json(const nlohmann::json& summary, const std::string& name,
                                      const std::string& folder) {
  for (const auto& experiment : summary.at("experiments"))
    if (name.empty() || experiment.at("name").get<std::string>() == name)
      return experiment.at("runs").at(0);
  throw make_error("{}: no experiment '{}' in summary.json", folder, name);
}

double packages_of(const nlohmann::json& summary) {
  const nlohmann::json& geometry = summary.at("config").at("geometry");
  return geometry.at("channels").get<double>() * geometry.at("packages_per_channel").get<double>();
}

double read_metric(const nlohmann::json& summary, const Measure& measure,
                   const std::string& folder) {
  const nlohmann::json& run = experiment_json(summary, measure.experiment, folder);
  const nlohmann::json& device = run.at("device");
  const nlohmann::json& wear = summary.at("wear");
  switch (measure.metric) {
    case Metric::kMeanUs:
      return run.at("mean_us").get<double>();
    case Metric::kIops:
      return run.at("iops").get<double>();
    case Metric::kMbPerS:
      return run.at("mb_per_s").get<double>();
    case Metric::kCleaningMsPerBlock: {
      const double blocks = device.at("blocks_cleaned").get<double>();
      return blocks > 0 ? device.at("cleaning_time_us").get<double>() / blocks / 1000 : 0;
    }
    case Metric::kCleaningEfficiency:
      return device.at("cleaning_efficiency").get<double>();
    case Metric::kPagesMoved:
      return device.at("pages_moved").get<double>();
    case Metric::kWearStddev:
      return wear.at("remaining_life_stddev").get<double>();
    case Metric::kWearMean:
      return wear.at("remaining_life_mean").get<double>();
    case Metric::kAccessTimeUs:
      return device.at("access_time_us").get<double>();
    case Metric::kAccessIops: {
      // Agrawal et al. Table 3: "IO/s" is the packages (DiskSim's elements,
      // each serving one access at a time) over the access time.
      const double access_us = device.at("access_time_us").get<double>();
      return access_us > 0 ? packages_of(summary) * 1e6 / access_us : 0;
    }
    case Metric::kQueueLength: {
      const double span_us = run.at("end_us").get<double>() - run.at("start_us").get<double>();
      return span_us > 0 ? device.at("queued_command_time_us").get<double>() / span_us /
                               packages_of(summary)
                         : 0;
    }
    case Metric::kWearBelow80: {
      // Disjoint bins (Table 8): below 40%, and from 40% to below 80%.
      const auto& histogram = wear.at("remaining_life_histogram");
      return histogram.at("below_40pct_of_mean").get<double>() +
             histogram.at("below_80pct_of_mean").get<double>();
    }
  }
  return 0;
}

std::string percent(double fraction) { return fmt::format("{:+.1f}%", fraction * 100); }

}  // namespace

std::vector<std::string> SimRun::overrides_for(bool quick) const {
  std::vector<std::string> all = overrides;
  if (quick) all.insert(all.end(), quick_overrides.begin(), quick_overrides.end());
  return all;
}

std::string SimRun::key(bool quick) const {
  std::string key = config + "|" + workload_of(*this, quick) + "|" + precondition;
  for (const auto& o : overrides_for(quick)) key += "|" + o;
  return key;
}

const std::vector<std::string>& paper_names() {
  static const std::vector<std::string> names{"agrawal", "uflip", "desnoyers", "ajwani"};
  return names;
}

std::vector<const Row*> select_rows(const std::string& paper) {
  const auto& names = paper_names();
  if (paper != "all" && std::find(names.begin(), names.end(), paper) == names.end())
    throw make_error("reproduce: unknown paper '{}' (known: {}, all)", paper,
                     fmt::join(names, ", "));
  std::vector<const Row*> rows;
  for (const Row& row : all_rows())
    if (paper == "all" || row.paper == paper) rows.push_back(&row);
  return rows;
}

RowResult judge(const Row& row, std::vector<double> values) {
  RowResult result{&row, std::move(values), false, "", "", {}};
  const auto& v = result.values;
  switch (row.check) {
    case Check::kValue: {
      const double paper = row.paper_value.value_or(0);
      const double off = paper != 0 ? v.at(0) / paper - 1 : 0;
      result.pass = std::abs(off) <= row.tolerance;
      result.detail = fmt::format("{} (tolerance ±{:g}%)", percent(off), row.tolerance * 100);
      break;
    }
    case Check::kIncreasing:
    case Check::kDecreasing: {
      const bool up = row.check == Check::kIncreasing;
      bool monotone = true;
      for (std::size_t i = 1; i < v.size(); ++i) {
        const double step = up ? v[i] / v[i - 1] - 1 : v[i - 1] / v[i] - 1;
        if (step < -row.tolerance) monotone = false;
      }
      const bool ends = up ? v.back() > v.front() : v.back() < v.front();
      result.pass = monotone && ends && v.size() >= 2;
      result.detail = fmt::format("{} from {:.4g} to {:.4g}{}", up ? "rises" : "falls", v.front(),
                                  v.back(),
                                  monotone ? "" : fmt::format(" but not monotonically (slack {:g}%)",
                                                              row.tolerance * 100));
      if (!ends) result.detail = fmt::format("does not {}: {:.4g} to {:.4g}", up ? "rise" : "fall",
                                             v.front(), v.back());
      break;
    }
    case Check::kAtLeast:
    case Check::kAtMost: {
      const double ratio = v.at(1) != 0 ? v.at(0) / v.at(1) : 0;
      const bool least = row.check == Check::kAtLeast;
      result.pass = least ? ratio >= row.bound : ratio <= row.bound;
      result.detail = fmt::format("ratio {:.3g} ({} {:g})", ratio, least ? "≥" : "≤", row.bound);
      break;
    }
    case Check::kMeasured:
      result.verdict = "measured";
      result.detail = "not a figure of the paper: reported, not compared";
      return result;
    case Check::kRatio: {
      const double paper = row.paper_value.value_or(0);
      const double ratio = v.size() >= 2 && v.front() != 0 ? v.back() / v.front() : 0;
      const double off = paper != 0 ? ratio / paper - 1 : 0;
      result.pass = v.size() >= 2 && ratio > 0 && std::abs(off) <= row.tolerance;
      result.detail = fmt::format("x{:.3g} from {:.4g} to {:.4g}, {} of the paper's x{:.3g} "
                                  "(tolerance ±{:g}%)",
                                  ratio, v.front(), v.back(), percent(off), paper,
                                  row.tolerance * 100);
      break;
    }
  }
  result.verdict = result.pass ? "pass" : "miss";
  return result;
}

std::string sim_command(const SimRun& run, const ReproduceOptions& options,
                        const std::string& run_outdir) {
  std::string command = fmt::format("ssdlab sim -c {}/{} -w {}", options.configs, run.config,
                                    quoted(workload_of(run, options.quick)));
  if (!run.precondition.empty()) command += " --precondition " + run.precondition;
  for (const auto& o : run.overrides_for(options.quick)) command += " --set " + quoted(o);
  if (options.seed != 1) command += fmt::format(" --seed {}", options.seed);
  return command + " --no-io-log -o " + run_outdir;
}

int run_reproduce(const ReproduceOptions& options, std::ostream& out) {
  if (options.outdir.empty()) throw make_error("reproduce: -o OUTDIR is required");
  const auto rows = select_rows(options.paper);
  const auto started = std::chrono::steady_clock::now();
  if (std::error_code error;
      !fs::create_directories(fs::path(options.outdir) / "runs", error) && error)
    throw make_error("{}: cannot create the output folder: {}", options.outdir, error.message());
  // Each distinct run once, in the order rows first need it.
  std::map<std::string, std::string> folders;  // run key -> its output folder
  std::map<std::string, nlohmann::json> summaries;
  std::vector<RowResult> results;
  for (const Row* row : rows) {
    std::vector<double> values;
    std::vector<std::string> commands;
    for (const Measure& measure : row->measures) {
      const std::string key = measure.run.key(options.quick);
      if (!folders.count(key)) {
        const std::string folder =
            (fs::path(options.outdir) / "runs" / fmt::format("{:03}", folders.size())).string();
        sim::SimOptions sim;
        sim.config = (fs::path(options.configs) / measure.run.config).string();
        sim.workload = workload_of(measure.run, options.quick);
        sim.outdir = folder;
        sim.overrides = measure.run.overrides_for(options.quick);
        sim.precondition = measure.run.precondition;
        sim.seed = options.seed;
        sim.io_log = false;
        sim.quiet = true;
        fmt::print(out, "[{}] {}\n", row->id, sim_command(measure.run, options, folder));
        out.flush();
        std::ostringstream ignored;  // the run's own summary lines
        sim::run_sim(sim, ignored);
        summaries[key] = sim::read_json_file(fs::path(folder) / "summary.json");
        folders[key] = folder;
      }
      values.push_back(read_metric(summaries[key], measure, folders[key]));
      const std::string command = sim_command(measure.run, options, folders[key]);
      if (std::find(commands.begin(), commands.end(), command) == commands.end())
        commands.push_back(command);
    }
    RowResult result = judge(*row, std::move(values));
    result.commands = std::move(commands);
    fmt::print(out, "  {}: {} {}\n", row->id, result.verdict, result.detail);
    results.push_back(std::move(result));
  }
  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const std::string command = fmt::format("ssdlab reproduce {} -o {}{}", options.paper,
                                          options.outdir, options.quick ? " --quick" : "");
  write_reports(results, options, wall_s, command);
  const bool plotted = options.plots && draw_plots(options.outdir);
  const auto passed = std::count_if(results.begin(), results.end(),
                                    [](const RowResult& r) { return r.pass; });
  const auto measured = std::count_if(results.begin(), results.end(), [](const RowResult& r) {
    return r.row->check == Check::kMeasured;
  });
  fmt::print(out, "{} of {} rows within tolerance ({} more measured, not compared); {} runs in "
             "{:.1f} s wall\n",
             passed, results.size() - measured, measured, folders.size(), wall_s);
  fmt::print(out, "report: {}/report.md, {}/report.json{}\n", options.outdir, options.outdir,
             plotted ? fmt::format(", plots in {}/plots/", options.outdir) : "");
  return 0;
}

}  // namespace ssdlab::repro
