#include "sim/run/trace_info.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>

#include "common/error.h"
#include "common/file_kind.h"
#include "common/units.h"
#include "ftl/ftl.h"
#include "ftl/zones.h"
#include "sim/config/config.h"
#include "sim/results/output.h"
#include "sim/run/trace_settings.h"
#include "traces/formats.h"
#include "traces/profile.h"
#include "traces/trace_file.h"

namespace ssdlab::sim {
namespace {

// How --json's output starts (nlohmann::json orders keys, and bad_examples
// comes first): --json replaces only such a file (or an empty one).
constexpr std::string_view kJsonStart = "{\n  \"bad_examples\"";

struct Info {
  std::string format;
  std::optional<traces::Detection> detection;  // when detected
  std::string compression;
  traces::ReadCounts counts;
  std::vector<std::string> bad_examples;
  std::optional<std::uint32_t> device_filter;
  std::optional<std::uint64_t> device_bytes;
  traces::TraceProfile profile;
  std::vector<std::string> warnings;
};

std::string device_name(const Info& info, std::uint32_t device) {
  return traces::device_name(info.format, device);
}

// "reads 20 of the first 20 lines; next best: spc, 3"
std::string detection_reason(const traces::Detection& detection) {
  if (detection.by_header) return "detected: its header";
  std::string reason = "detected: ";
  const std::pair<std::string, std::size_t>* runner_up = nullptr;
  for (const auto& score : detection.scores) {
    if (score.first == detection.format) {
      reason +=
          fmt::format("its reader takes {} of the first {} lines", score.second, detection.sample);
    } else if (!runner_up || score.second > runner_up->second) {
      runner_up = &score;
    }
  }
  if (runner_up) reason += fmt::format("; next best {}, {}", runner_up->first, runner_up->second);
  return reason;
}

std::string percent(std::uint64_t part, std::uint64_t whole) {
  return fmt::format("{:.1f} %",
                     whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
}

nlohmann::json to_json(const Info& info, const std::string& path) {
  const auto& p = info.profile;
  nlohmann::json devices = nlohmann::json::array();
  for (const auto& [device, count] : p.devices)
    devices.push_back({{"device", device_name(info, device)}, {"requests", count}});
  nlohmann::json processes = nlohmann::json::object();  // an io.csv's
  for (const auto& [process, count] : p.processes) processes[std::to_string(process)] = count;
  nlohmann::json sizes = nlohmann::json::array();
  for (std::size_t k = 0; k < p.sizes.size(); ++k)
    if (p.sizes[k])
      sizes.push_back({{"from_bytes", std::uint64_t{1} << k},
                       {"below_bytes", std::uint64_t{1} << (k + 1)},
                       {"requests", p.sizes[k]}});
  nlohmann::json detection;
  if (info.detection) {
    detection = {{"sample_lines", info.detection->sample}, {"scores", nlohmann::json::object()}};
    for (const auto& [name, score] : info.detection->scores) detection["scores"][name] = score;
  }
  const std::uint64_t pages = p.footprint.pages();
  return {
      {"file", path},
      {"format", info.format},
      {"format_detected", info.detection.has_value()},
      {"detection", detection},
      {"compression", info.compression},
      {"lines", info.counts.lines},
      {"records", info.counts.records},
      {"skipped_lines", info.counts.skipped_lines},
      {"bad_lines", info.counts.bad_lines},
      {"bad_examples", info.bad_examples},
      {"zero_size", info.counts.zero_size},
      {"device_filter", info.device_filter ? nlohmann::json(device_name(info, *info.device_filter))
                                           : nlohmann::json()},
      {"other_device", p.other_device},
      {"devices", devices},
      {"devices_not_listed", p.devices_not_listed},
      {"processes", processes},
      {"requests", p.requests},
      {"first_ns", p.first_time_ns},
      {"last_ns", p.last_time_ns},
      {"span_ns", p.span_ns()},
      {"decreasing_timestamps", p.decreasing},
      {"requests_per_s", p.span_ns() == 0 && p.requests > 1 ? nlohmann::json()
                                                              : nlohmann::json(p.requests_per_second())},
      {"mb_per_s", p.bytes_per_second() / 1e6},
      {"reads", {{"requests", p.reads}, {"bytes", p.read_bytes}}},
      {"writes", {{"requests", p.writes}, {"bytes", p.write_bytes}}},
      {"trims", {{"requests", p.trims}}},
      {"size_histogram", sizes},
      {"min_offset", p.min_offset},
      {"max_end", p.max_end},
      {"footprint",
       {{"pages", pages},
        {"page_bytes", traces::PageFootprint::kPageBytes},
        {"bytes", pages * traces::PageFootprint::kPageBytes},
        {"method", p.footprint.exact() ? "exact bitmap" : "HyperLogLog estimate"},
        {"relative_error", p.footprint.exact() ? 0.0 : traces::PageFootprint::kEstimateError}}},
      {"unaligned_512", p.unaligned_512},
      {"unaligned_4096", p.unaligned_4096},
      {"sizes_not_512", p.sizes_not_512},
      {"device_bytes", info.device_bytes ? nlohmann::json(*info.device_bytes) : nlohmann::json()},
      {"warnings", info.warnings},
  };
}

std::string duration(std::int64_t ns) {
  return fmt::format("{:.6f} s", static_cast<double>(ns) / 1e9);
}

void print(std::ostream& out, const Info& info, const std::string& path) {
  const auto& p = info.profile;
  const auto& c = info.counts;
  fmt::print(out, "trace-info: {}\n", path);
  fmt::print(out, "  format        {} ({})\n", info.format,
             info.detection ? detection_reason(*info.detection) : "given");
  fmt::print(out, "  compression   {}\n", info.compression);
  fmt::print(out, "  lines         {}: {} requests, {} skipped, {} bad, {} zero-size\n", c.lines,
             c.records, c.skipped_lines, c.bad_lines, c.zero_size);
  for (const auto& example : info.bad_examples) fmt::print(out, "    bad: {}\n", example);
  std::string devices;
  for (const auto& [device, count] : p.devices)
    devices +=
        fmt::format("{}{}: {}", devices.empty() ? "" : ", ", device_name(info, device), count);
  if (p.devices_not_listed) devices += fmt::format(", more: {}", p.devices_not_listed);
  if (p.processes.empty()) {
    fmt::print(out, "  devices       {}\n", devices.empty() ? "none" : devices);
  } else {  // an io.csv: its processes (--mode dependent replays each as a closed loop)
    std::string processes;
    for (const auto& [process, count] : p.processes)
      processes += fmt::format("{}{}: {}", processes.empty() ? "" : ", ", process, count);
    fmt::print(out, "  processes     {}\n", processes);
  }
  if (info.device_filter)
    fmt::print(out, "  selected      device {}: {} requests ({} on other devices)\n",
               device_name(info, *info.device_filter), p.requests, p.other_device);
  fmt::print(
      out, "  time span     {} (first {}, last {}), {} timestamps earlier than the one before\n",
      duration(p.span_ns()), duration(p.first_time_ns), duration(p.last_time_ns), p.decreasing);
  if (p.span_ns() == 0 && p.requests > 1)
    fmt::print(out, "  arrival rate  - (all requests at one time: no timing in the trace)\n");
  else
    fmt::print(out, "  arrival rate  {:.1f} requests/s, {:.3f} MB/s\n", p.requests_per_second(),
               p.bytes_per_second() / 1e6);
  fmt::print(out, "  reads         {} ({}), {}\n", p.reads, percent(p.reads, p.requests),
             format_size(p.read_bytes));
  fmt::print(out, "  writes        {} ({}), {}\n", p.writes, percent(p.writes, p.requests),
             format_size(p.write_bytes));
  if (p.trims) fmt::print(out, "  trims         {} ({})\n", p.trims, percent(p.trims, p.requests));
  const char* label = "  sizes       ";
  for (std::size_t k = 0; k < p.sizes.size(); ++k) {
    if (!p.sizes[k]) continue;
    fmt::print(out, "{} {:>9} ..< {:<9} {:>10}  {:>7}\n", label, format_size(std::uint64_t{1} << k),
               format_size(std::uint64_t{1} << (k + 1)), p.sizes[k],
               percent(p.sizes[k], p.requests));
    label = "              ";
  }
  fmt::print(out, "  addresses     {} .. {} (lowest offset, highest offset + size: {})\n",
             p.min_offset, p.max_end, format_size(p.max_end));
  const std::uint64_t pages = p.footprint.pages();
  fmt::print(out, "  footprint     {} pages of 4 KiB ({}), {}\n", pages,
             format_size(pages * traces::PageFootprint::kPageBytes),
             p.footprint.exact() ? "exact (bitmap)"
                                 : fmt::format("estimated (HyperLogLog, +-{:.1f} %)",
                                               100 * traces::PageFootprint::kEstimateError));
  fmt::print(out, "  unaligned     {} not on 512 B, {} not on 4 KiB (offset or size)\n",
             p.unaligned_512, p.unaligned_4096);
  if (info.device_bytes)
    fmt::print(out, "  device        {} B ({}) logical\n", *info.device_bytes,
               format_size(*info.device_bytes));
  for (const auto& warning : info.warnings) fmt::print(out, "warning: {}\n", warning);
  if (info.warnings.empty()) fmt::print(out, "no warnings\n");
}

// What a zoned device without [host.log] refuses of a trace (docs/zns.md):
// a format string of two counts, the requests not on 4 KiB and the writes.
std::string zoned_warning(const ftl::ZonedDevice& zones, std::uint32_t page_size) {
  return fmt::format(
      "the device is zoned (ftl.type = \"zoned\": {} zones of {}, without [host.log]): it "
      "refuses requests that are not whole {}-byte pages ({{}} of these requests are not on "
      "4 KiB), and every write not at its zone's write pointer (a zone is written in order from "
      "its start, after a reset; {{}} writes here), so a replay serves few of them; trims are "
      "advisory. A [host.log] serves such a trace (docs/zns.md)",
      zones.zones(), format_size(zones.zone_pages() * page_size), page_size);
}

}  // namespace

void run_trace_info(const TraceInfoOptions& given, std::ostream& out) {
  TraceInfoOptions options = given;
  std::shared_ptr<const void> stdin_copy;  // "-": standard input, read once into a file
  if (options.path == "-") stdin_copy = copy_standard_input(options.path);
  if (const std::string problem = not_a_regular_file(options.path); !problem.empty())
    throw make_error("{}: {}", options.path,
                     problem == "no such file" ? "no such trace file" : problem);
  if (!options.json.empty()) {
    const NamedPath inputs[] = {command_input("the trace", options.path),
                                command_input("-c", options.config)};
    check_output_path(options.json, "output file", inputs);
    check_replaces_own_kind(options.json, "trace-info JSON", kJsonStart);
  }
  Info info;
  std::optional<std::string> zoned;  // the warning for a zoned device, less its count
  if (!options.config.empty()) {
    const DeviceConfig config = load_config(options.config);
    const auto ftl = ftl::make_ftl({config.geometry, config.ftl, 0});
    info.device_bytes = ftl->logical_pages() * ftl->logical_page_size();
    if (const ftl::ZonedDevice* zones = ftl->zoned(); zones && !config.controller.host_log.on())
      zoned = zoned_warning(*zones, ftl->logical_page_size());
  }
  traces::ReadOptions read = options.read;
  info.device_filter = read.device;
  read.skip_bad = true;  // a dry run counts bad lines rather than stopping at the first
  if (stdin_copy) read.name = "stdin";  // not the copy's temporary name
  if (read.format == "auto") {
    info.detection = traces::detect_format_scored(options.path, read);
    read.format = info.detection->format;
  }
  info.format = read.format;

  traces::TraceFile file(options.path, read);
  auto& profile = info.profile;
  while (auto record = file.next()) {
    profile.add_device(record->device);
    if (info.device_filter && record->device != *info.device_filter) {
      ++profile.other_device;
      continue;
    }
    profile.add(*record);
  }
  info.compression = file.compression();
  info.counts = file.counts();
  info.bad_examples = file.bad_examples();
  info.warnings = traces::profile_warnings(profile, info.format, info.device_bytes);
  if (profile.requests == 0) info.warnings.insert(info.warnings.begin(), "no requests");
  if (zoned)  // (issue 51, L16: "no warnings" for a trace the device refuses nearly whole)
    info.warnings.push_back(fmt::format(fmt::runtime(*zoned), profile.unaligned_4096,
                                        profile.writes));

  print(out, info, given.path);
  if (!options.json.empty()) {
    write_file_atomically(options.json, to_json(info, given.path).dump(2) + "\n");
    fmt::print(out, "json: {}\n", options.json);
  }
}

}  // namespace ssdlab::sim
