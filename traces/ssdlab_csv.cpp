// ssdlab's own io.csv (DESIGN.md, "Outputs"), as `sim`, `probe` and a live
// session write it, read back as a trace: each row is a request at its
// submit time, with the process, io index and response time it was
// recorded with (for --mode dependent, sim/engine/dependent_replay.h).
// Rows are in completion order, so TraceFile sorts the selected ones by
// submit time (FormatInfo::sorted_on_read). One experiment and one run are
// replayed: chosen with experiment= and run= when the file holds several.
#include "traces/ssdlab_csv.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/io_csv_row.h"
#include "traces/fields.h"
#include "traces/input.h"
#include "traces/parsers.h"

namespace ssdlab::traces {
namespace {

class SsdlabCsvParser final : public LineParser {
 public:
  explicit SsdlabCsvParser(const ReadOptions& options)
      : experiment_(options.experiment), run_(options.run), process_(options.process) {}

  Result parse(std::string_view line, std::uint64_t, TraceRecord& record) override {
    if (!header_seen_) {
      if (trim(line) != kIoCsvHeader)
        return bad("expected the io.csv header '{}' as the first line", kIoCsvHeader);
      header_seen_ = true;
      return Result::kSkip;
    }
    const std::string wrong = parse_io_csv_row(line, row_);
    if (!wrong.empty()) return bad("{}", wrong);
    remember(experiments_, row_.experiment);
    if (!experiment_) {
      experiment_ = row_.experiment;
    } else if (row_.experiment != *experiment_) {
      if (chosen_experiment_) return Result::kSkip;
      return bad(
          "the io.csv holds experiments '{}' and '{}': choose one with experiment=NAME "
          "(--trace-experiment)",
          *experiment_, row_.experiment);
    }
    remember(runs_, row_.run);
    if (!run_) {
      run_ = row_.run;
    } else if (row_.run != *run_) {
      if (chosen_run_) return Result::kSkip;
      return bad("the io.csv holds runs {} and {} of '{}': choose one with run=N (--trace-run)",
                 *run_, row_.run, row_.experiment);
    }
    remember(processes_, row_.process);
    if (process_ && row_.process != *process_) return Result::kSkip;
    if (is_zone_action(row_.mode) || row_.mode == IoMode::kZoneAppend)
      return bad(
          "mode '{}' is a zone command: the ssdlab format replays reads, writes and trims "
          "(a zone workload runs in sim)",
          io_mode_letter(row_.mode));
    record = TraceRecord{};
    record.time_ns = row_.submit_ns;
    record.offset = row_.offset;
    record.size = row_.size;
    record.mode = row_.mode;
    record.process = row_.process;
    record.sequence = row_.io;
    record.response_ns = row_.response_ns;
    return Result::kRecord;
  }

  std::string seen() const override {
    const auto list = [](const auto& values) {
      return fmt::format("{}{}", fmt::join(values, ", "),
                         values.size() == kNamesSeen ? ", ..." : "");
    };
    if (experiments_.empty()) return {};
    std::string text = fmt::format("its experiments: {}", list(experiments_));
    if (!runs_.empty()) text += fmt::format("; runs of '{}': {}", *experiment_, list(runs_));
    if (!processes_.empty()) text += fmt::format("; processes: {}", list(processes_));
    return text;
  }

 private:
  static constexpr std::size_t kNamesSeen = 8;  // of each kind, for seen()
  // Keeps `value` for seen(), the first kNamesSeen distinct ones.
  template <typename T>
  static void remember(std::vector<T>& seen, const T& value) {
    if (seen.size() < kNamesSeen && std::find(seen.begin(), seen.end(), value) == seen.end())
      seen.push_back(value);
  }
  std::optional<std::string> experiment_;
  std::optional<std::uint32_t> run_, process_;
  const bool chosen_experiment_ = experiment_.has_value();
  const bool chosen_run_ = run_.has_value();
  bool header_seen_ = false;
  std::vector<std::string> experiments_;
  std::vector<std::uint32_t> runs_, processes_;
  IoRow row_;
};

}  // namespace

std::string first_io_csv_experiment(const std::string& path, const ReadOptions& options) {
  LineInput input(path, options.name);
  std::string_view line;
  bool header = true;
  IoRow row;
  while (input.next(line)) {
    if (trim(line).empty()) continue;
    if (std::exchange(header, false)) continue;
    return parse_io_csv_row(line, row).empty() ? row.experiment : std::string();
  }
  return {};
}

std::unique_ptr<LineParser> make_ssdlab_csv_parser(const ReadOptions& options) {
  return std::make_unique<SsdlabCsvParser>(options);
}

}  // namespace ssdlab::traces
