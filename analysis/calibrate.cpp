#include "analysis/calibrate.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <toml++/toml.h>

#include <Eigen/Dense>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>

#include "common/error.h"
#include "common/toml_text.h"
#include "sim/config/config.h"
#include "sim/results/output.h"
#include "sim/results/summary.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

namespace {

// How a fitted config starts: `-o` replaces only such a file (or an empty one).
constexpr std::string_view kFittedStart = "# Fitted by `ssdlab calibrate`";

struct Point {
  std::string name;
  std::string pattern;
  std::uint64_t size;
  double mean_us;
  bool read() const { return pattern == "SR" || pattern == "RR"; }
};

SummaryRecord measured_summary(const fs::path& dir) {
  const fs::path path = dir / "summary.json";
  if (!fs::is_regular_file(path))
    throw make_error("{}: no summary.json (is it an ssdlab output folder?)", dir.string());
  return read_summary(path);
}

// Experiments that measure the cost of one I/O alone.
std::vector<Point> usable_points(const SummaryRecord& summary, const fs::path& dir) {
  std::vector<Point> points;
  for (const ExperimentRecord& e : summary.experiments) {
    if (!e.single_stream() || e.runs.empty()) continue;
    Point point{e.name, e.pattern, e.io_size, e.mean_over_runs(&RunRecord::mean_us)};
    // The fit divides by the mean: a zero, negative or non-finite mean is
    // not a measurement, and would give a config full of NaN.
    if (!std::isfinite(point.mean_us) || point.mean_us <= 0)
      throw make_error(
          "{}/summary.json: experiment {}: mean_us {} is not a measured response time (must be "
          "greater than 0)",
          dir.string(), point.name, point.mean_us);
    points.push_back(std::move(point));
  }
  return points;
}

}  // namespace

void run_calibrate(const CalibrateOptions& options, std::ostream& out) {
  const fs::path measured(options.measured);
  const NamedPath inputs[] = {command_input("-c", options.config),
                              command_input("the measurement", measured / "summary.json"),
                              command_input("the measurement", measured / "io.csv")};
  check_output_path(options.output, "calibrated config", inputs);  // before any work
  check_replaces_own_kind(options.output, "calibrated config", kFittedStart);
  const SummaryRecord summary = measured_summary(measured);
  const DeviceConfig base = load_config(options.config, options.overrides);
  const auto& g = base.geometry;
  const double transfer_bytes = g.page_size + g.oob_size;
  const double command_us = static_cast<double>(base.timing.command_ns) / 1000.0;

  std::vector<Point> points = usable_points(summary, measured);
  std::vector<Point> fitted;
  for (const auto& p : points)
    if (p.read() || p.pattern == "SW") fitted.push_back(p);
  const bool reads = std::any_of(fitted.begin(), fitted.end(), [](auto& p) { return p.read(); });
  const bool writes = std::any_of(fitted.begin(), fitted.end(), [](auto& p) { return !p.read(); });
  if (!reads || !writes)
    throw make_error(
        "{}: calibration needs queue-depth-1 reads (SR or RR) and sequential writes (SW) of one "
        "process; found {} usable experiments (try -w uflip:granularity with probe)",
        measured.string(), fitted.size());

  const auto rounds = [&](std::uint64_t size) {
    const std::uint64_t pages = (size + g.page_size - 1) / g.page_size;
    return static_cast<double>((pages + g.channels - 1) / g.channels);
  };
  // Two least-squares fits, both on relative errors. Reads give read_us and
  // the bus (an unloaded read is array time plus transfers, nothing else);
  // with one transfer count only, the bus cannot be told from the array
  // time: keep the base's. Writes then give program_us at that bus.
  std::vector<const Point*> read_points, write_points;
  std::map<double, int> read_rounds;
  for (const auto& p : fitted) {
    (p.read() ? read_points : write_points).push_back(&p);
    if (p.read()) read_rounds[rounds(p.size)]++;
  }
  const bool fit_bus = read_rounds.size() >= 2;
  const double base_bus = static_cast<double>(base.timing.bus_ps_per_byte) / 1000.0;
  const auto bus_term = [&](const Point& p) { return rounds(p.size) * transfer_bytes / 1000.0; };
  double read_us = 0, program_us = 0, bus = base_bus;
  {
    Eigen::MatrixXd a(static_cast<Eigen::Index>(read_points.size()), fit_bus ? 2 : 1);
    Eigen::VectorXd b(a.rows());
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
      const Point& p = *read_points[static_cast<std::size_t>(i)];
      a(i, 0) = 1 / p.mean_us;
      if (fit_bus) a(i, 1) = bus_term(p) / p.mean_us;
      b(i) = (p.mean_us - command_us - (fit_bus ? 0 : bus_term(p) * base_bus)) / p.mean_us;
    }
    const Eigen::VectorXd theta = a.colPivHouseholderQr().solve(b);
    read_us = theta(0);
    if (fit_bus) bus = theta(1);
  }
  {
    Eigen::MatrixXd a(static_cast<Eigen::Index>(write_points.size()), 1);
    Eigen::VectorXd b(a.rows());
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
      const Point& p = *write_points[static_cast<std::size_t>(i)];
      a(i, 0) = 1 / p.mean_us;
      b(i) = (p.mean_us - command_us - bus_term(p) * std::max(bus, 0.001)) / p.mean_us;
    }
    program_us = a.colPivHouseholderQr().solve(b)(0);
  }
  if (!std::isfinite(read_us) || !std::isfinite(program_us) || !std::isfinite(bus))
    throw make_error("{}: the measurements give no finite fit (read_us {}, program_us {}, "
                     "bus_ns_per_byte {}); nothing written",
                     measured.string(), read_us, program_us, bus);
  // A fit outside what a config may hold is a measurement the model cannot
  // explain (wrong units, a cache answering faster than any flash): said
  // so, never clamped into range with a fitted config written anyway.
  const auto check_range = [&](double value, double low, double high, const char* name,
                               const char* unit) {
    if (value >= low && value <= high) return;
    throw make_error(
        "{}: the timing model cannot fit these measurements: {} would be {:.6g} {}, outside "
        "its range [{}, {:g}] {} ({}{}); nothing written",
        measured.string(), name, value, unit, low, high, unit,
        value < low ? "the response times are shorter than the model's fixed costs, command "
                      "and transfers, allow"
                    : "the response times are far longer than any flash operation takes: "
                      "check their unit",
        fit_bus || value >= low
            ? ""
            : fmt::format("; the bus is the base config's {} ns/B, as the reads have one "
                          "transfer size only: measure several sizes, or lower "
                          "timing.bus_ns_per_byte in the base config",
                          base_bus));
  };
  check_range(read_us, 0.001, 1e6, "read_us", "us");
  check_range(program_us, 0.001, 1e6, "program_us", "us");
  check_range(bus, 0.001, 1e6, "bus_ns_per_byte", "ns/B");

  const auto predict = [&](const Point& p) {
    return command_us + (p.read() ? read_us : program_us) +
           rounds(p.size) * transfer_bytes * bus / 1000.0;
  };
  fmt::print(out, "calibrating {} against {} ({} experiments fitted, {} channels)\n",
             options.config, measured.string(), fitted.size(), g.channels);
  fmt::print(out, "  {:<36} {:>12} {:>12} {:>8}\n", "experiment", "measured_us", "model_us",
             "error");
  double squares = 0;
  for (const auto& p : fitted) {
    const double model = predict(p);
    const double error = (model - p.mean_us) / p.mean_us;
    squares += error * error;
    fmt::print(out, "  {:<36} {:>12.3f} {:>12.3f} {:>7.1f}%\n", p.name, p.mean_us, model,
               error * 100);
  }
  const double rms = std::sqrt(squares / static_cast<double>(fitted.size()));
  fmt::print(out,
             "  fitted: read_us = {:.3f}, program_us = {:.3f}, bus_ns_per_byte = {:.4f}{}\n"
             "  (base: {:.3f}, {:.3f}, {:.4f}); RMS relative error {:.1f}%\n",
             read_us, program_us, bus, fit_bus ? "" : " (kept: one transfer size only)",
             base.timing.read_ns / 1000.0, base.timing.program_ns / 1000.0, base_bus, rms * 100);

  // Ajwani et al.'s write penalty: random write over random read, per size.
  std::map<std::uint64_t, std::pair<double, double>> penalty;  // size -> (RR, RW)
  for (const auto& p : points) {
    if (p.pattern == "RR") penalty[p.size].first = p.mean_us;
    if (p.pattern == "RW") penalty[p.size].second = p.mean_us;
  }
  nlohmann::json factors = nlohmann::json::object();
  for (const auto& [size, costs] : penalty)
    if (costs.first > 0 && costs.second > 0) {
      factors[std::to_string(size)] = costs.second / costs.first;
      fmt::print(out,
                 "  write penalty c_W at {} B: {:.2f} (random write {:.1f} us / read {:.1f} us)\n",
                 size, costs.second / costs.first, costs.second, costs.first);
    }

  // The fitted config: the base with the timing replaced.
  toml::table root;
  try {
    root = toml::parse(read_toml_text(options.config), options.config);
  } catch (const toml::parse_error& error) {
    throw make_error("{}: {}", options.config, error.description());
  }
  if (!root.contains("timing")) root.insert("timing", toml::table{});
  toml::table& timing = *root["timing"].as_table();
  const auto rounded = [](double value, double scale) { return std::round(value * scale) / scale; };
  timing.insert_or_assign("read_us", rounded(read_us, 1000));
  timing.insert_or_assign("program_us", rounded(program_us, 1000));
  timing.insert_or_assign("bus_ns_per_byte", rounded(bus, 10000));
  std::ostringstream text;
  text << kFittedStart << " to " << measured.string() << " from " << options.config
       << ":\n# timing.read_us, program_us and bus_ns_per_byte; RMS relative error "
       << fmt::format("{:.1f}", rms * 100) << "% over " << fitted.size() << " experiments.\n\n"
       << root << "\n";
  write_file_atomically(options.output, text.str());
  try {
    load_config(options.output);  // what we wrote must load
  } catch (const Error& error) {
    std::error_code ignored;
    fs::remove(options.output, ignored);
    throw make_error("internal error: the fitted config does not load ({}); removed it",
                     error.what());
  }
  fmt::print(out, "  wrote {}\n", options.output);
}

}  // namespace ssdlab::sim
