#include "traces/read_options.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include "common/error.h"
#include "traces/fields.h"
#include "traces/formats.h"
#include "traces/parsers.h"

namespace ssdlab::traces {
namespace {

using Kind = ReadOptionKey::Kind;

void set_format(ReadOptions& options, std::string_view value) {
  if (value != "auto") make_parser(value, options);  // throws naming the known formats
  options.format = value;
}

// "N", or "MAJ,MIN" for blkparse.
void set_device(ReadOptions& options, std::string_view text) {
  const std::size_t comma = text.find(',');
  std::uint32_t number = 0, minor = 0;
  const bool ok = comma == std::string_view::npos ? parse_uint(text, number)
                                                  : parse_uint(text.substr(0, comma), number) &&
                                                        parse_uint(text.substr(comma + 1), minor);
  if (!ok) throw make_error("--trace-device '{}': expected a number or MAJ,MIN", text);
  options.device = comma == std::string_view::npos ? number : blkparse_device(number, minor);
}

void set_time_unit(ReadOptions& options, std::string_view text) {
  static constexpr std::pair<std::string_view, std::int64_t> kUnits[] = {
      {"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}};
  const auto* unit = std::find_if(std::begin(kUnits), std::end(kUnits),
                                  [&](const auto& u) { return u.first == text; });
  if (unit == std::end(kUnits))
    throw make_error("--time-unit '{}': expected ns, us, ms or s", text);
  options.time_unit_ns = unit->second;
}

void set_blk_event(ReadOptions& options, std::string_view text) {
  if (text != "D" && text != "Q")
    throw make_error("--blk-event '{}': expected D (issue) or Q (queue)", text);
  options.blk_event = text[0];
}

void set_zero_size(ReadOptions& options, std::string_view text) {
  if (text != "skip" && text != "error")
    throw make_error("--zero-size '{}': expected skip or error", text);
  options.zero_size_is_bad = text == "error";
}

void set_skip_bad(ReadOptions& options, std::string_view) {
  options.skip_bad = true;
}

// "10s", "1.5s", "500ms", "20us", "100ns": a trace time; else a request count.
void set_start(ReadOptions& options, std::string_view text) {
  struct Unit {
    std::string_view suffix;
    int digits;  // the unit is 10^digits ns
  };
  static constexpr Unit kUnits[] = {{"ms", 6}, {"us", 3}, {"ns", 0}, {"s", 9}};
  const auto bad = [text] {
    return make_error("--start '{}': expected a request count or a time such as 10s, 500ms", text);
  };
  for (const auto& unit : kUnits) {
    if (!text.ends_with(unit.suffix)) continue;
    std::int64_t value = 0;
    if (!parse_fixed(text.substr(0, text.size() - unit.suffix.size()), unit.digits, value))
      throw bad();
    options.start_ns = value;
    options.start_requests = 0;
    return;
  }
  if (!parse_uint(text, options.start_requests)) throw bad();
  options.start_ns.reset();
}

void set_limit(ReadOptions& options, std::string_view text) {
  if (!parse_uint(text, options.limit) || options.limit == 0)
    throw make_error("--limit '{}': expected a positive request count", text);
}

void set_map(ReadOptions& options, std::string_view text) {
  const auto map = parse_address_map(text);
  if (!map) throw make_error("--map '{}': expected modulo or scale", text);
  options.map = *map;
}

void set_experiment(ReadOptions& options, std::string_view text) {
  if (text.empty()) throw make_error("--trace-experiment: expected an io.csv experiment name");
  options.experiment = std::string(text);
}

void set_run(ReadOptions& options, std::string_view text) {
  std::uint32_t run = 0;
  if (!parse_uint(text, run)) throw make_error("--trace-run '{}': expected a run number", text);
  options.run = run;
}

void set_process(ReadOptions& options, std::string_view text) {
  std::uint32_t process = 0;
  if (!parse_uint(text, process))
    throw make_error("--trace-process '{}': expected a process number", text);
  options.process = process;
}

}  // namespace

const char* address_map_name(AddressMap map) {
  return map == AddressMap::kModulo ? "modulo" : "scale";
}

std::optional<AddressMap> parse_address_map(std::string_view name) {
  if (name == "modulo") return AddressMap::kModulo;
  if (name == "scale") return AddressMap::kScale;
  return std::nullopt;
}

const std::vector<ReadOptionKey>& read_option_keys() {
  static const std::vector<ReadOptionKey> kKeys = {
      {"format", "--format",
       "Trace format: auto (default: from the first lines), " + format_names(), Kind::kText,
       &set_format},
      {"time_unit", "--time-unit", "MQSim: time unit, ns (default), us, ms or s", Kind::kText,
       &set_time_unit},
      {"device", "--trace-device", "Only this disk number, ASU, fio file index or blkparse MAJ,MIN",
       Kind::kText, &set_device},
      {"map", "--map",
       "Addresses beyond the device: modulo (default) or scale (by the trace's span)", Kind::kText,
       &set_map},
      {"blk_event", "--blk-event", "blkparse: replay D (issue, default) or Q events", Kind::kText,
       &set_blk_event},
      {"start", "--start",
       "Skip the first N requests, or those before a trace time such as 10s, 500ms", Kind::kText,
       &set_start},
      {"zero_size", "--zero-size",
       "Zero-size requests: skip (default, counted) or error (a bad line)", Kind::kText,
       &set_zero_size},
      {"experiment", "--trace-experiment",
       "ssdlab io.csv: replay this experiment's rows (needed if it has several)", Kind::kText,
       &set_experiment},
      {"run", "--trace-run", "ssdlab io.csv: replay this run's rows (needed if it has several)",
       Kind::kText, &set_run},
      {"process", "--trace-process", "ssdlab io.csv: replay only this process's rows", Kind::kText,
       &set_process},
      {"limit", "--limit", "Replay at most N requests", Kind::kCount, &set_limit},
      {"", "--skip-bad", "Count and skip bad lines instead of stopping", Kind::kFlag,
       &set_skip_bad},
  };
  return kKeys;
}

const ReadOptionKey* find_read_option(std::string_view key) {
  const auto& keys = read_option_keys();
  const auto found = std::find_if(keys.begin(), keys.end(), [key](const ReadOptionKey& option) {
    return !option.key.empty() && option.key == key;
  });
  return found == keys.end() ? nullptr : &*found;
}

void set_read_option(ReadOptions& options, const ReadOptionKey& option, std::string_view value) {
  option.set(options, value);
  const std::string flag(option.flag);
  if (std::find(options.given.begin(), options.given.end(), flag) == options.given.end())
    options.given.push_back(flag);
}

}  // namespace ssdlab::traces
