#include "analysis/calibrate.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <toml++/toml.h>

#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>

#include "common/script_text.h"
#include "common/error.h"
#include "common/toml_text.h"
#include "sim/results/output.h"
#include "sim/results/summary.h"

namespace ssdlab::analysis {
using sim::check_output_path;
using sim::check_replaces_own_kind;
using sim::command_input;
using sim::ExperimentRecord;
using sim::NamedPath;
using sim::read_summary;
using sim::RunRecord;
using sim::SummaryRecord;
using sim::write_file_atomically;
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

// The timing a fit starts from and is checked against: the base config's
// geometry and timing, in the units of the fit.
struct TimingBase {
  std::uint32_t page_size, channels, dies_per_channel;
  double transfer_bytes;  // page plus OOB, per channel round
  double command_us, bus_ns_per_byte, read_us, program_us;

  explicit TimingBase(const CalibrationBase& base)
      : page_size(base.page_size),
        channels(base.channels),
        dies_per_channel(std::max<std::uint32_t>(1, base.dies_per_channel)),
        transfer_bytes(base.page_size + base.oob_size),
        command_us(static_cast<double>(base.command_ns) / 1000.0),
        bus_ns_per_byte(static_cast<double>(base.bus_ps_per_byte) / 1000.0),
        read_us(base.read_ns / 1000.0),
        program_us(base.program_ns / 1000.0) {}

  // Channel rounds of an I/O of `size` bytes striped over the channels.
  double rounds(std::uint64_t size) const {
    const std::uint64_t pages = (size + page_size - 1) / page_size;
    return static_cast<double>((pages + channels - 1) / channels);
  }
  // Microseconds on the bus per ns/B of bus speed.
  double bus_term(const Point& p) const { return rounds(p.size) * transfer_bytes / 1000.0; }
};

struct Fit {
  double read_us = 0, program_us = 0, bus = 0;
  bool fit_bus = false;  // false: the reads have one transfer size, the bus is the base's
  double predict(const Point& p, const TimingBase& t) const {
    return t.command_us + (p.read() ? read_us : program_us) +
           t.rounds(p.size) * t.transfer_bytes * bus / 1000.0;
  }
};

// The experiments that enter the fit (calibrate.h): of the reads (SR, RR)
// and writes (SW, RW) whole-page ones of at most `dies_per_channel` channel
// rounds, per direction and round count the fastest. Throws if reads or
// writes are missing; `left_out` counts the others.
std::vector<Point> load_points(const std::vector<Point>& usable, const TimingBase& t,
                               const fs::path& measured, std::size_t& left_out) {
  std::map<std::pair<bool, double>, const Point*> fastest;  // (read, rounds) -> point
  std::size_t considered = 0;
  for (const auto& p : usable) {
    if (!p.read() && p.pattern != "SW" && p.pattern != "RW") continue;
    ++considered;
    if (p.size % t.page_size != 0 || t.rounds(p.size) > t.dies_per_channel) continue;
    const Point*& best = fastest[{p.read(), t.rounds(p.size)}];
    if (!best || p.mean_us < best->mean_us) best = &p;
  }
  std::vector<Point> fitted;
  for (const auto& [key, point] : fastest) fitted.push_back(*point);
  left_out = considered - fitted.size();
  const bool reads = std::any_of(fitted.begin(), fitted.end(), [](auto& p) { return p.read(); });
  const bool writes = std::any_of(fitted.begin(), fitted.end(), [](auto& p) { return !p.read(); });
  if (!reads || !writes)
    throw make_error(
        "{}: calibration needs queue-depth-1 reads (SR or RR) and writes (SW or RW) of one "
        "process, of whole pages ({} B) and at most {} per channel; found {} usable experiments "
        "(try -w uflip:granularity with probe)",
        measured.string(), t.page_size, t.dies_per_channel, fitted.size());
  return fitted;
}

// A fit outside what a config may hold is a measurement the model cannot
// explain (wrong units, a cache answering faster than any flash): said so,
// never clamped into range with a fitted config written anyway.
void check_range(double value, const char* name, const char* unit, const Fit& fit,
                 const TimingBase& t, const fs::path& measured) {
  constexpr double low = 0.001, high = 1e6;
  if (value >= low && value <= high) return;
  throw make_error(
      "{}: the timing model cannot fit these measurements: {} would be {:.6g} {}, outside "
      "its range [{}, {:g}] {} ({}{}); nothing written",
      measured.string(), name, value, unit, low, high, unit,
      value < low ? "the response times are shorter than the model's fixed costs, command "
                    "and transfers, allow"
                  : "the response times are far longer than any flash operation takes: "
                    "check their unit",
      fit.fit_bus || value >= low
          ? ""
          : fmt::format("; the bus is the base config's {} ns/B, as the reads have one "
                        "transfer size only: measure several sizes, or lower "
                        "timing.bus_ns_per_byte in the base config",
                        t.bus_ns_per_byte));
}

// Two least-squares fits, both on relative errors. Reads give read_us and
// the bus (an unloaded read is array time plus transfers, nothing else);
// with one transfer count only, the bus cannot be told from the array time:
// keep the base's. Writes then give program_us at that bus. Throws if the
// fit is not finite or out of a config's range.
Fit fit_timing(const std::vector<Point>& fitted, const TimingBase& t, const fs::path& measured) {
  std::vector<const Point*> read_points, write_points;
  std::map<double, int> read_rounds;
  for (const auto& p : fitted) {
    (p.read() ? read_points : write_points).push_back(&p);
    if (p.read()) read_rounds[t.rounds(p.size)]++;
  }
  Fit fit;
  fit.fit_bus = read_rounds.size() >= 2;
  fit.bus = t.bus_ns_per_byte;
  {
    Eigen::MatrixXd a(static_cast<Eigen::Index>(read_points.size()), fit.fit_bus ? 2 : 1);
    Eigen::VectorXd b(a.rows());
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
      const Point& p = *read_points[static_cast<std::size_t>(i)];
      a(i, 0) = 1 / p.mean_us;
      if (fit.fit_bus) a(i, 1) = t.bus_term(p) / p.mean_us;
      b(i) = (p.mean_us - t.command_us - (fit.fit_bus ? 0 : t.bus_term(p) * t.bus_ns_per_byte)) /
             p.mean_us;
    }
    const Eigen::VectorXd theta = a.colPivHouseholderQr().solve(b);
    fit.read_us = theta(0);
    if (fit.fit_bus) fit.bus = theta(1);
  }
  {
    Eigen::MatrixXd a(static_cast<Eigen::Index>(write_points.size()), 1);
    Eigen::VectorXd b(a.rows());
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
      const Point& p = *write_points[static_cast<std::size_t>(i)];
      a(i, 0) = 1 / p.mean_us;
      b(i) = (p.mean_us - t.command_us - t.bus_term(p) * std::max(fit.bus, 0.001)) / p.mean_us;
    }
    fit.program_us = a.colPivHouseholderQr().solve(b)(0);
  }
  if (!std::isfinite(fit.read_us) || !std::isfinite(fit.program_us) || !std::isfinite(fit.bus))
    throw make_error(
        "{}: the measurements give no finite fit (read_us {}, program_us {}, "
        "bus_ns_per_byte {}); nothing written",
        measured.string(), fit.read_us, fit.program_us, fit.bus);
  check_range(fit.read_us, "read_us", "us", fit, t, measured);
  check_range(fit.program_us, "program_us", "us", fit, t, measured);
  check_range(fit.bus, "bus_ns_per_byte", "ns/B", fit, t, measured);
  return fit;
}

// The fit against each fitted experiment, the fitted and base timing, and
// Ajwani et al.'s write penalty (random write over random read, per size,
// over all `usable` experiments). Returns the RMS relative error.
double print_fit(std::ostream& out, const std::vector<Point>& fitted,
                 const std::vector<Point>& usable, const Fit& fit, const TimingBase& t) {
  out << fmt::format("  {:<36} {:>12} {:>12} {:>8}\n", "experiment", "measured_us", "model_us",
                     "error");
  double squares = 0;
  for (const auto& p : fitted) {
    const double model = fit.predict(p, t);
    const double error = (model - p.mean_us) / p.mean_us;
    squares += error * error;
    fmt::print(out, "  {:<36} {:>12.3f} {:>12.3f} {:>7.1f}%\n", p.name, p.mean_us, model,
               error * 100);
  }
  const double rms = std::sqrt(squares / static_cast<double>(fitted.size()));
  fmt::print(out,
             "  fitted: read_us = {:.3f}, program_us = {:.3f}, bus_ns_per_byte = {:.4f}{}\n"
             "  (base: {:.3f}, {:.3f}, {:.4f}); RMS relative error {:.1f}%\n",
             fit.read_us, fit.program_us, fit.bus,
             fit.fit_bus ? "" : " (kept: one transfer size only)", t.read_us, t.program_us,
             t.bus_ns_per_byte, rms * 100);
  std::map<std::uint64_t, std::pair<double, double>> penalty;  // size -> (RR, RW)
  for (const auto& p : usable) {
    if (p.pattern == "RR") penalty[p.size].first = p.mean_us;
    if (p.pattern == "RW") penalty[p.size].second = p.mean_us;
  }
  for (const auto& [size, costs] : penalty)
    if (costs.first > 0 && costs.second > 0)
      fmt::print(out,
                 "  write penalty c_W at {} B: {:.2f} (random write {:.1f} us / read {:.1f} us)\n",
                 size, costs.second / costs.first, costs.second, costs.first);
  return rms;
}

// The fitted config: the base config's text with the timing replaced,
// written atomically to options.output and loaded back (what we wrote must
// load; if not, it is removed).
void write_fitted_config(const CalibrateOptions& options, const ConfigAccess& configs,
                         const fs::path& measured, const Fit& fit, double rms,
                         std::size_t experiments) {
  toml::table root;
  try {
    root = toml::parse(read_toml_text(options.config), options.config);
  } catch (const toml::parse_error& error) {
    throw make_error("{}: {}", options.config, error.description());
  }
  if (!root.contains("timing")) root.insert("timing", toml::table{});
  toml::table& timing = *root["timing"].as_table();
  const auto rounded = [](double value, double scale) { return std::round(value * scale) / scale; };
  timing.insert_or_assign("read_us", rounded(fit.read_us, 1000));
  timing.insert_or_assign("program_us", rounded(fit.program_us, 1000));
  timing.insert_or_assign("bus_ns_per_byte", rounded(fit.bus, 10000));
  std::ostringstream text;
  // The paths in a comment line: a control character in them (a newline)
  // written as \n, so that none starts a TOML line of its own.
  text << kFittedStart << " to " << escaped_controls(measured.string()) << " from "
       << escaped_controls(options.config) << ":\n# timing.read_us, program_us and bus_ns_per_byte; RMS relative error "
       << fmt::format("{:.1f}", rms * 100) << "% over " << experiments << " experiments.\n\n"
       << root << "\n";
  write_file_atomically(options.output, text.str());
  try {
    configs.check_loads(options.output);
  } catch (const Error& error) {
    std::error_code ignored;
    fs::remove(options.output, ignored);
    throw make_error("internal error: the fitted config does not load ({}); removed it",
                     error.what());
  }
}

}  // namespace

void run_calibrate(const CalibrateOptions& options, const ConfigAccess& configs,
                   std::ostream& out) {
  const fs::path measured(options.measured);
  const NamedPath inputs[] = {command_input("-c", options.config),
                              command_input("the measurement", measured / "summary.json"),
                              command_input("the measurement", measured / "io.csv")};
  check_output_path(options.output, "calibrated config", inputs);  // before any work
  check_replaces_own_kind(options.output, "calibrated config", kFittedStart);
  const SummaryRecord summary = measured_summary(measured);
  const CalibrationBase base = configs.load_base(options.config, options.overrides);
  const TimingBase timing(base);
  const std::vector<Point> usable = usable_points(summary, measured);
  std::size_t left_out = 0;
  const std::vector<Point> fitted = load_points(usable, timing, measured, left_out);
  const Fit fit = fit_timing(fitted, timing, measured);
  fmt::print(out,
             "calibrating {} against {} ({} experiments fitted, {} channels; {} left out: "
             "partial pages, more than {} pages per channel, or slower than another of the "
             "same direction and rounds)\n",
             options.config, measured.string(), fitted.size(), base.channels, left_out,
             timing.dies_per_channel);
  const double rms = print_fit(out, fitted, usable, fit, timing);
  write_fitted_config(options, configs, measured, fit, rms, fitted.size());
  fmt::print(out, "  wrote {}\n", options.output);
}

}  // namespace ssdlab::analysis
