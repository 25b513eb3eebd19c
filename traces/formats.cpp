#include "traces/formats.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/error.h"
#include "common/io_csv_row.h"
#include "traces/fields.h"
#include "traces/input.h"
#include "traces/parsers.h"

namespace ssdlab::traces {
namespace {

struct Entry {
  FormatInfo info;
  std::unique_ptr<LineParser> (*make)(const ReadOptions&);
};

const std::vector<Entry>& entries() {
  static const std::vector<Entry> kEntries = {
      {{"msr", "MSR Cambridge CSV (Windows filetime timestamps, bytes)",
        "Windows filetime ticks (100 ns)"},
       &make_msr_parser},
      {{"disksim", "DiskSim ASCII (ms, device, 512 B block, blocks, hex flags)", "milliseconds"},
       &make_disksim_parser},
      {{"mqsim", "MQSim ASCII (integer time, device, sector, sectors, 0=W 1=R)",
        "--time-unit (ns by default)"},
       &make_mqsim_parser},
      {{"spc", "SPC / UMass (ASU, 512 B LBA, bytes, R/W, seconds)", "seconds"}, &make_spc_parser},
      {{"blkparse", "blkparse default text output (D or Q events)", "seconds",
        &blkparse_device_name},
       &make_blkparse_parser},
      {{"fio", "fio iolog, version 2 or 3", "microseconds"}, &make_fio_parser},
      {{"ssdlab", "ssdlab's io.csv (of sim, probe or a live session), sorted by submit time",
        "microseconds", nullptr, true, kIoCsvHeader.data()},
       &make_ssdlab_csv_parser},
  };
  return kEntries;
}

}  // namespace

const std::vector<FormatInfo>& formats() {
  static const std::vector<FormatInfo> kFormats = [] {
    std::vector<FormatInfo> infos;
    for (const auto& entry : entries()) infos.push_back(entry.info);
    return infos;
  }();
  return kFormats;
}

std::string format_names() {
  std::vector<std::string_view> names;
  for (const auto& info : formats()) names.emplace_back(info.name);
  return fmt::format("{}", fmt::join(names, ", "));
}

const FormatInfo* find_format(std::string_view name) {
  for (const auto& info : formats())
    if (name == info.name) return &info;
  return nullptr;
}

std::string device_name(std::string_view format, std::uint32_t device) {
  const FormatInfo* info = find_format(format);
  return info && info->device_name ? info->device_name(device) : std::to_string(device);
}

std::unique_ptr<LineParser> make_parser(std::string_view name, const ReadOptions& options) {
  for (const auto& entry : entries())
    if (name == entry.info.name) return entry.make(options);
  throw make_error("--format: unknown trace format '{}' (known: auto, {})", name, format_names());
}

std::string detect_format(const std::string& path, const ReadOptions& options) {
  return detect_format_scored(path, options).format;
}

Detection detect_format_scored(const std::string& path, const ReadOptions& options) {
  Detection detection;
  struct Line {
    std::string text;
    std::uint64_t number;
  };
  std::vector<Line> sample;
  LineInput input(path, options.name);
  std::string_view line;
  while (sample.size() < kDetectionLines && input.next(line))
    if (!trim(line).empty()) sample.push_back({std::string(line), input.line_number()});
  if (sample.empty()) throw make_error("{}: the trace is empty", input.path());

  // A format's score is the number of sampled lines its parser accepts. The
  // best-scoring format wins if it reads at least half of them, so that a bad
  // line among the first ones is reported by the reader with its number.
  std::vector<std::string_view> candidates;
  std::size_t best = (sample.size() + 1) / 2;
  for (const auto& entry : entries()) {
    const auto parser = entry.make(options);
    TraceRecord record;
    std::size_t score = 0;
    for (const auto& [text, number] : sample)
      score += parser->parse(text, number, record) != LineParser::Result::kBad;
    detection.scores.emplace_back(entry.info.name, score);
    if (score < best) continue;
    if (score > best) candidates.clear();
    best = score;
    candidates.emplace_back(entry.info.name);
  }
  for (const auto& entry : entries())
    if (entry.info.header && trim(sample.front().text) == entry.info.header) {
      candidates.assign(1, entry.info.name);
      detection.by_header = true;
    }
  if (candidates.size() == 1) {
    detection.format = candidates.front();
    detection.sample = sample.size();
    return detection;
  }
  if (candidates.empty())
    throw FormatNotDetected(fmt::format(
        "{}: cannot tell the trace format: most of its first {} lines fit none of {}; give "
        "--format",
        input.path(), sample.size(), format_names()));
  throw FormatNotDetected(
      fmt::format("{}: the trace format is ambiguous: its first {} lines fit {}; give --format",
                  input.path(), sample.size(), fmt::join(candidates, " and ")));
}

}  // namespace ssdlab::traces
