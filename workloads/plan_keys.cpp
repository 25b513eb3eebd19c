#include "workloads/plan_keys.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "common/checked.h"
#include "common/error.h"
#include "common/host_io.h"
#include "common/suggest.h"
#include "common/units.h"
#include "workloads/synthetic.h"
#include "workloads/zone_stream.h"

namespace ssdlab::workloads {
namespace {

[[noreturn]] void fail(const KeyValue& kv, const std::string& what) {
  throw make_error("{}: {}: {}", kv.where, kv.key, what);
}

std::string show(const KeyValue& kv) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::string>)
          return "\"" + v + "\"";
        else if constexpr (std::is_same_v<T, bool>)
          return v ? "true" : "false";
        else
          return fmt::format("{}", v);
      },
      kv.value);
}

std::uint64_t as_size(const KeyValue& kv) {
  if (const auto* i = std::get_if<std::int64_t>(&kv.value)) {
    if (*i < 0) fail(kv, fmt::format("must not be negative (got {})", *i));
    return static_cast<std::uint64_t>(*i);
  }
  if (const auto* s = std::get_if<std::string>(&kv.value)) {
    if (auto bytes = parse_size(*s)) return *bytes;
  }
  fail(kv, fmt::format("expected a size in bytes such as 4096, \"32KiB\" or \"1GiB\" (got {})",
                       show(kv)));
}

std::uint64_t as_count(const KeyValue& kv, std::uint64_t min, std::uint64_t max) {
  const auto* i = std::get_if<std::int64_t>(&kv.value);
  if (!i) fail(kv, fmt::format("expected an integer (got {})", show(kv)));
  if (*i < 0 || static_cast<std::uint64_t>(*i) < min || static_cast<std::uint64_t>(*i) > max)
    fail(kv, fmt::format("must be between {} and {} (got {})", min, max, *i));
  return static_cast<std::uint64_t>(*i);
}

std::int64_t as_integer(const KeyValue& kv, std::int64_t min, std::int64_t max) {
  const auto* i = std::get_if<std::int64_t>(&kv.value);
  if (!i) fail(kv, fmt::format("expected an integer (got {})", show(kv)));
  if (*i < min || *i > max)
    fail(kv, fmt::format("must be between {} and {} (got {})", min, max, *i));
  return *i;
}

// A number: an integer, a float, or its text (the inline form); nullopt if
// the value is none of these.
std::optional<double> as_real(const KeyValue& kv) {
  if (const auto* i = std::get_if<std::int64_t>(&kv.value)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&kv.value)) return *d;
  if (const auto* s = std::get_if<std::string>(&kv.value)) {
    double value = 0;
    const auto [end, error] = std::from_chars(s->data(), s->data() + s->size(), value);
    if (error == std::errc() && end == s->data() + s->size()) return value;
  }
  return std::nullopt;
}

// Microseconds, integer or fractional, to nanoseconds.
TimeNs as_duration_us(const KeyValue& kv) {
  const double us = as_real(kv).value_or(-1);
  constexpr double kMaxUs = 1e12;  // 11.6 days: far beyond any pause
  if (!(us >= 0 && us <= kMaxUs))
    fail(kv, fmt::format("expected microseconds from 0 to {:.0f}, such as 100 or 0.5 (got {})",
                         kMaxUs, show(kv)));
  return *us_to_ns(us);  // within kClockLimitNs: 1e12 us is 1e15 ns
}

// A fraction from 0 to 1.
double as_fraction(const KeyValue& kv) {
  const double value = as_real(kv).value_or(-1);
  if (!(value >= 0 && value <= 1))
    fail(kv, fmt::format("expected a fraction from 0 to 1, such as 0.25 (got {})", show(kv)));
  return value;
}

// A real number in (min, max) (exclusive).
double as_real(const KeyValue& kv, double min, double max) {
  const double value = as_real(kv).value_or(std::numeric_limits<double>::quiet_NaN());
  if (!(value > min && value < max))
    fail(kv, fmt::format("expected a number above {} and below {} (got {})", min, max, show(kv)));
  return value;
}

Pattern as_pattern(const KeyValue& kv) {
  const auto* s = std::get_if<std::string>(&kv.value);
  if (auto pattern = s ? parse_pattern(*s) : std::nullopt) return *pattern;
  fail(kv, fmt::format("expected SR, RR, SW or RW (got {})", show(kv)));
}

}  // namespace

std::optional<Pattern> parse_pattern(std::string_view text) {
  std::string upper(text);
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  for (Pattern p : {Pattern::kSR, Pattern::kRR, Pattern::kSW, Pattern::kRW})
    if (upper == pattern_name(p)) return p;
  return std::nullopt;
}

std::uint64_t default_count(Pattern pattern) {
  return pattern == Pattern::kRW ? 5120 : 1024;
}

bool writes(const ExperimentSpec& spec) {
  return is_write(spec.pattern) || (spec.mix_pattern && is_write(*spec.mix_pattern));
}
bool reads(const ExperimentSpec& spec) {
  return !is_write(spec.pattern) || (spec.mix_pattern && !is_write(*spec.mix_pattern));
}
bool writes_sequentially(const ExperimentSpec& spec) {
  return spec.pattern == Pattern::kSW || spec.mix_pattern == Pattern::kSW;
}

const char* pattern_name(Pattern pattern) {
  switch (pattern) {
    case Pattern::kSR:
      return "SR";
    case Pattern::kRR:
      return "RR";
    case Pattern::kSW:
      return "SW";
    case Pattern::kRW:
      return "RW";
  }
  return "?";
}

namespace {

constexpr std::uint64_t kMaxCount = std::uint64_t{1} << 40;

void apply_name(ExperimentSpec& spec, const KeyValue& kv) {
  const auto* s = std::get_if<std::string>(&kv.value);
  if (!s || s->empty()) fail(kv, "expected a non-empty string");
  if (!std::all_of(s->begin(), s->end(), is_name_char))
    fail(kv, fmt::format("'{}' has characters io.csv cannot hold; use letters, digits and {}", *s,
                         kNamePunctuation));
  spec.name = *s;
}

void apply_io_ignore(ExperimentSpec& spec, const KeyValue& kv) {
  const auto* s = std::get_if<std::string>(&kv.value);
  spec.io_ignore_auto = s && *s == "auto";
  if (spec.io_ignore_auto)
    spec.io_ignore = 0;
  else if (s)
    fail(kv, fmt::format("expected a number of I/Os or \"auto\" (got {})", show(kv)));
  else
    spec.io_ignore = as_count(kv, 0, kMaxCount);
}

// The experiment's own keys, in the order an unknown key's error lists them
// (then the synthetic and the zone keys). A tenant's queue and namespace
// (sim/run/tenant_run.h) are 1-based, as NVMe numbers them.
constexpr PlanKey kExperimentKeys[] = {
    {"name", &apply_name},
    {"pattern", [](ExperimentSpec& spec, const KeyValue& kv) { spec.pattern = as_pattern(kv); }},
    {"io_size",
     [](ExperimentSpec& spec, const KeyValue& kv) {
       spec.io_size = as_size(kv);
       if (spec.io_size == 0) fail(kv, "must be greater than 0");
     }},
    {"count",
     [](ExperimentSpec& spec, const KeyValue& kv) {
       spec.count = as_count(kv, 1, kMaxCount);
       spec.count_given = true;
     }},
    {"target_offset",
     [](ExperimentSpec& spec, const KeyValue& kv) { spec.target_offset = as_size(kv); }},
    {"target_size",
     [](ExperimentSpec& spec, const KeyValue& kv) {
       spec.target_size = as_size(kv);
       if (spec.target_size == 0)
         fail(kv, "must be greater than 0 (leave it out for the whole device)");
     }},
    {"queue_depth",
     [](ExperimentSpec& spec, const KeyValue& kv) {
       spec.queue_depth = static_cast<std::uint32_t>(as_count(kv, 1, 65536));
     }},
    {"processes",
     [](ExperimentSpec& spec, const KeyValue& kv) {
       spec.processes = static_cast<std::uint32_t>(as_count(kv, 1, 4096));
     }},
    {"runs",
     [](ExperimentSpec& spec, const KeyValue& kv) {
       spec.runs = static_cast<std::uint32_t>(as_count(kv, 1, 100000));
     }},
    {"queue",
     [](ExperimentSpec& spec, const KeyValue& kv) {
       spec.queue = static_cast<std::uint32_t>(as_count(kv, 1, 65535));
     }},
    {"namespace",
     [](ExperimentSpec& spec, const KeyValue& kv) {
       spec.namespace_id = static_cast<std::uint32_t>(as_count(kv, 1, 1024));
     }},
    {"placement_id",
     [](ExperimentSpec& spec, const KeyValue& kv) {
       spec.placement_id = static_cast<std::uint32_t>(as_count(kv, 0, kPlacementIdMask));
     }},
    {"ruh_update_every",
     [](ExperimentSpec& spec, const KeyValue& kv) {
       spec.ruh_update_every = as_count(kv, 1, kMaxCount);
     }},
    {"io_ignore", &apply_io_ignore},
    {"seed",
     [](ExperimentSpec& spec, const KeyValue& kv) {
       spec.seed = as_count(kv, 0, std::numeric_limits<std::int64_t>::max());
     }},
    {"io_shift", [](ExperimentSpec& spec, const KeyValue& kv) { spec.io_shift = as_size(kv); }},
    {"increment",
     [](ExperimentSpec& spec, const KeyValue& kv) {
       spec.increment = as_integer(kv, -(std::int64_t{1} << 30), std::int64_t{1} << 30);
     }},
    {"partitions",
     [](ExperimentSpec& spec, const KeyValue& kv) {
       spec.partitions = static_cast<std::uint32_t>(as_count(kv, 1, 1 << 20));
     }},
    {"pause_us",
     [](ExperimentSpec& spec, const KeyValue& kv) { spec.pause_ns = as_duration_us(kv); }},
    {"burst",
     [](ExperimentSpec& spec, const KeyValue& kv) {
       spec.burst = static_cast<std::uint32_t>(as_count(kv, 1, 1 << 30));
     }},
    // A plan file's inline table (plan.cpp reads it as mix_pattern and mix_ratio).
    {"mix",
     [](ExperimentSpec&, const KeyValue& kv) {
       fail(kv,
            "is a plan file's table, mix = { pattern = \"SW\", ratio = 4 }; inline, give "
            "mix_pattern and mix_ratio");
     }},
    {"mix_pattern",
     [](ExperimentSpec& spec, const KeyValue& kv) { spec.mix_pattern = as_pattern(kv); }},
    {"mix_ratio",
     [](ExperimentSpec& spec, const KeyValue& kv) {
       spec.mix_ratio = static_cast<std::uint32_t>(as_count(kv, 1, 1 << 20));
     }},
    {"run_pause_us",
     [](ExperimentSpec& spec, const KeyValue& kv) { spec.run_pause_ns = as_duration_us(kv); }},
    {"trim_share",
     [](ExperimentSpec& spec, const KeyValue& kv) { spec.trim_share = as_fraction(kv); }},
    {"hot_fraction",
     [](ExperimentSpec& spec, const KeyValue& kv) { spec.hot_fraction = as_real(kv, 0.0, 1.0); }},
    {"hot_access",
     [](ExperimentSpec& spec, const KeyValue& kv) { spec.hot_access = as_real(kv, 0.0, 1.0); }},
    {"zipf", [](ExperimentSpec& spec, const KeyValue& kv) { spec.zipf = as_real(kv, 0.0, 100.0); }},
};

// Every table of keys, in the order their names are listed.
std::array<std::span<const PlanKey>, 3> key_tables() {
  return {kExperimentKeys, synthetic_keys(), zone_keys()};
}

}  // namespace

std::vector<std::string_view> plan_key_names() {
  std::vector<std::string_view> names;
  for (const std::span<const PlanKey> table : key_tables())
    for (const PlanKey& key : table) names.push_back(key.name);
  return names;
}

void apply_key(ExperimentSpec& spec, const KeyValue& kv) {
  for (const std::span<const PlanKey> table : key_tables())
    for (const PlanKey& key : table)
      if (key.name == kv.key) return key.apply(spec, kv);
  const std::vector<std::string_view> known = plan_key_names();
  fail(kv, fmt::format("unknown key{} (known: {})", did_you_mean(kv.key, known),
                       fmt::join(known, ", ")));
}

std::vector<KeyValue> parse_inline_keys(std::string_view text, const std::string& origin) {
  std::vector<KeyValue> keys;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    const std::string item(text.substr(start, comma - start));
    start = comma + 1;
    if (item.empty() && comma == text.size() && keys.empty() && text.empty()) break;
    const std::size_t equals = item.find('=');
    if (equals == std::string::npos || equals == 0)
      throw make_error("{}: '{}' is not key=value", origin, item);
    KeyValue kv{item.substr(0, equals), std::int64_t{0}, origin};
    for (const auto& earlier : keys)
      if (earlier.key == kv.key) throw make_error("{}: {}: given twice", origin, kv.key);
    const std::string value = item.substr(equals + 1);
    std::int64_t number = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
    if (!value.empty() && error == std::errc() && end == value.data() + value.size())
      kv.value = number;
    else if (value == "true" || value == "false")
      kv.value = value == "true";
    else
      kv.value = value;
    keys.push_back(std::move(kv));
  }
  return keys;
}

void finish_experiment(ExperimentSpec& spec, const std::string& default_name) {
  if (spec.name.empty()) spec.name = default_name;
  const auto& o = spec.origin;
  if (!spec.count_given) {
    // uFLIP §5.1 scales IOCount for mixes: the minority pattern gets its own.
    spec.count = spec.mix_pattern ? default_count(*spec.mix_pattern) * (spec.mix_ratio + 1)
                                  : default_count(spec.pattern);
  }
  const bool sequential =
      !is_random(spec.pattern) || (spec.mix_pattern && !is_random(*spec.mix_pattern));
  if (spec.increment != 1 && spec.partitions != 1)
    throw make_error("{}: increment and partitions are two LBA functions; give one of them", o);
  if ((spec.increment != 1 || spec.partitions != 1) && !sequential)
    throw make_error("{}: {} applies to sequential patterns (SR, SW), not {}", o,
                     spec.increment != 1 ? "increment" : "partitions", pattern_name(spec.pattern));
  if (spec.burst != 1 && spec.pause_ns == 0)
    throw make_error("{}: burst {} needs pause_us, the pause between bursts", o, spec.burst);
  if (spec.mix_ratio != 1 && !spec.mix_pattern)
    throw make_error("{}: mix_ratio needs mix_pattern, the pattern it is mixed with", o);
  if ((spec.hot_fraction > 0) != (spec.hot_access > 0))
    throw make_error(
        "{}: hot_fraction and hot_access go together (e.g. hot_fraction = 0.2, "
        "hot_access = 0.8)",
        o);
  if (spec.hot_fraction > 0 && spec.zipf > 0)
    throw make_error("{}: zipf and hot_fraction are two address distributions; give one of them",
                     o);
  const bool random = is_random(spec.pattern) || (spec.mix_pattern && is_random(*spec.mix_pattern));
  if ((spec.hot_fraction > 0 || spec.zipf > 0) && !random)
    throw make_error("{}: {} applies to random patterns (RR, RW), not {}", o,
                     spec.zipf > 0 ? "zipf" : "hot_fraction", pattern_name(spec.pattern));
  check_synthetic(spec);
  check_zone_keys(spec);
  if (spec.io_ignore >= spec.count)
    throw make_error("{}: io_ignore ({}) must be smaller than count ({})", spec.origin,
                     spec.io_ignore, spec.count);
}

}  // namespace ssdlab::workloads
