#include "workloads/plan_keys.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <limits>

#include "common/error.h"
#include "common/units.h"

namespace ssdlab::workloads {
namespace {

constexpr const char* kKnownKeys =
    "name, pattern, io_size, count, target_offset, target_size, queue_depth, processes, runs, "
    "io_ignore, seed";

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

}  // namespace

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

void apply_key(ExperimentSpec& spec, const KeyValue& kv) {
  constexpr std::uint64_t kMaxCount = std::uint64_t{1} << 40;
  const std::string& key = kv.key;
  if (key == "name") {
    const auto* s = std::get_if<std::string>(&kv.value);
    if (!s || s->empty()) fail(kv, "expected a non-empty string");
    const bool ok = std::all_of(s->begin(), s->end(), [](unsigned char c) {
      return std::isalnum(c) ||
             std::string_view("_-./=:+@").find(static_cast<char>(c)) != std::string_view::npos;
    });
    if (!ok)
      fail(kv, fmt::format("'{}' has characters io.csv cannot hold; use letters, digits and "
                           "_-./=:+@",
                           *s));
    spec.name = *s;
  } else if (key == "pattern") {
    const auto* s = std::get_if<std::string>(&kv.value);
    std::string upper = s ? *s : "";
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    if (upper == "SR")
      spec.pattern = Pattern::kSR;
    else if (upper == "RR")
      spec.pattern = Pattern::kRR;
    else if (upper == "SW")
      spec.pattern = Pattern::kSW;
    else if (upper == "RW")
      spec.pattern = Pattern::kRW;
    else
      fail(kv, fmt::format("expected SR, RR, SW or RW (got {})", show(kv)));
  } else if (key == "io_size") {
    spec.io_size = as_size(kv);
    if (spec.io_size == 0) fail(kv, "must be greater than 0");
  } else if (key == "count") {
    spec.count = as_count(kv, 1, kMaxCount);
  } else if (key == "target_offset") {
    spec.target_offset = as_size(kv);
  } else if (key == "target_size") {
    spec.target_size = as_size(kv);
    if (spec.target_size == 0)
      fail(kv, "must be greater than 0 (leave it out for the whole device)");
  } else if (key == "queue_depth") {
    spec.queue_depth = static_cast<std::uint32_t>(as_count(kv, 1, 65536));
  } else if (key == "processes") {
    spec.processes = static_cast<std::uint32_t>(as_count(kv, 1, 4096));
  } else if (key == "runs") {
    spec.runs = static_cast<std::uint32_t>(as_count(kv, 1, 100000));
  } else if (key == "io_ignore") {
    if (const auto* s = std::get_if<std::string>(&kv.value); s && *s == "auto")
      fail(kv,
           "\"auto\" (start-up detection from the response times) is part of the uFLIP "
           "methodology and not available yet; give a number of I/Os");
    spec.io_ignore = as_count(kv, 0, kMaxCount);
  } else if (key == "seed") {
    spec.seed = as_count(kv, 0, std::numeric_limits<std::int64_t>::max());
  } else {
    fail(kv, fmt::format("unknown key (known: {})", kKnownKeys));
  }
}

void finish_experiment(ExperimentSpec& spec, const std::string& default_name) {
  if (spec.name.empty()) spec.name = default_name;
  if (spec.io_ignore >= spec.count)
    throw make_error("{}: io_ignore ({}) must be smaller than count ({})", spec.origin,
                     spec.io_ignore, spec.count);
}

}  // namespace ssdlab::workloads
