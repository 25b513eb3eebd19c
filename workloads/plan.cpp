#include "workloads/plan.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <charconv>
#include <filesystem>
#include <sstream>

#include "common/error.h"
#include "common/units.h"
#include "workloads/plan_keys.h"

namespace ssdlab::workloads {
namespace {

std::string where(const std::string& path, const toml::node& node) {
  return fmt::format("{}:{}", path, node.source().begin.line);
}

KeyValue to_key_value(const std::string& path, const std::string& key, const toml::node& node) {
  KeyValue kv{key, std::int64_t{0}, where(path, node)};
  if (auto i = node.value_exact<std::int64_t>())
    kv.value = *i;
  else if (auto d = node.value_exact<double>())
    kv.value = *d;
  else if (auto b = node.value_exact<bool>())
    kv.value = *b;
  else if (auto s = node.value_exact<std::string>())
    kv.value = *s;
  else
    throw make_error("{}: {}: expected a number, string or boolean, not a table or array", kv.where,
                     key);
  return kv;
}

// "RW/io_size=4096/queue_depth=8": names an inline experiment by what was set.
std::string default_inline_name(std::string_view pattern, const std::vector<KeyValue>& keys) {
  std::string name(pattern);
  for (const auto& kv : keys) {
    if (kv.key == "count" || kv.key == "seed") continue;
    name += "/" + kv.key + "=";
    std::visit([&name](const auto& v) { name += fmt::format("{}", v); }, kv.value);
  }
  return name;
}

}  // namespace

Plan parse_plan_file(const std::string& path) {
  toml::table root;
  try {
    root = toml::parse_file(path);
  } catch (const toml::parse_error& error) {
    if (error.source().begin.line == 0) throw make_error("{}: {}", path, error.description());
    throw make_error("{}:{}: {}", path, error.source().begin.line, error.description());
  }
  Plan plan;
  plan.source = path;
  for (const auto& [key, node] : root) {
    if (key.str() != "experiment")
      throw make_error("{}: unknown top-level key '{}' (a plan holds [[experiment]] tables)",
                       where(path, node), key.str());
  }
  const toml::array* experiments = root["experiment"].as_array();
  if (!experiments || experiments->empty())
    throw make_error("{}:1: no [[experiment]] table: a plan needs at least one experiment", path);
  for (const toml::node& element : *experiments) {
    const toml::table* table = element.as_table();
    if (!table) throw make_error("{}: experiment must be a table", where(path, element));
    ExperimentSpec spec;
    spec.origin = where(path, element);
    bool has_pattern = false;
    for (const auto& [key, node] : *table) {
      apply_key(spec, to_key_value(path, std::string(key.str()), node));
      has_pattern = has_pattern || key.str() == "pattern";
    }
    if (!has_pattern)
      throw make_error("{}: experiment has no pattern (SR, RR, SW or RW)", spec.origin);
    finish_experiment(spec,
                      fmt::format("{}-{}", pattern_name(spec.pattern), plan.experiments.size()));
    plan.experiments.push_back(std::move(spec));
  }
  return plan;
}

Plan parse_inline(std::string_view text) {
  const std::string origin = fmt::format("-w '{}'", text);
  const std::size_t colon = text.find(':');
  const std::string_view pattern = text.substr(0, colon);
  ExperimentSpec spec;
  spec.origin = origin;
  apply_key(spec, KeyValue{"pattern", std::string(pattern), origin});
  std::vector<KeyValue> keys;
  if (colon != std::string_view::npos) {
    std::string rest(text.substr(colon + 1));
    std::stringstream stream(rest);
    std::string item;
    while (std::getline(stream, item, ',')) {
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
      apply_key(spec, kv);
      keys.push_back(std::move(kv));
    }
  }
  finish_experiment(spec, default_inline_name(pattern_name(spec.pattern), keys));
  return Plan{std::string(text), {std::move(spec)}};
}

Plan load_plan(std::string_view workload) {
  if (workload.empty()) throw make_error("-w: empty workload");
  const std::string text(workload);
  std::error_code ignored;
  if (std::filesystem::is_regular_file(text, ignored)) return parse_plan_file(text);
  if (workload.starts_with("uflip:"))
    throw make_error(
        "-w '{}': the built-in uFLIP plans are not available yet; give a plan file "
        "or an inline experiment such as 'RW:io_size=4096,count=1000'",
        text);
  if (workload.starts_with("trace:"))
    throw make_error("-w '{}': trace replay is not available yet", text);
  if (workload.ends_with(".toml")) throw make_error("-w '{}': no such plan file", text);
  return parse_inline(workload);
}

void validate_against_device(const ExperimentSpec& spec, std::uint64_t device_bytes,
                             std::uint32_t sector_size) {
  const auto& o = spec.origin;
  if (spec.io_size % sector_size != 0)
    throw make_error("{}: io_size {} is not a multiple of the {}-byte sector", o, spec.io_size,
                     sector_size);
  if (spec.target_offset % sector_size != 0)
    throw make_error("{}: target_offset {} is not a multiple of the {}-byte sector", o,
                     spec.target_offset, sector_size);
  if (spec.target_offset >= device_bytes)
    throw make_error("{}: target_offset {} lies beyond the device's {} ({} bytes)", o,
                     spec.target_offset, format_size(device_bytes), device_bytes);
  const std::uint64_t target =
      spec.target_size ? spec.target_size : device_bytes - spec.target_offset;
  if (spec.target_offset + target > device_bytes)
    throw make_error("{}: target {} + {} bytes ends beyond the device's {} ({} bytes)", o,
                     spec.target_offset, target, format_size(device_bytes), device_bytes);
  if (target / spec.processes < spec.io_size)
    throw make_error(
        "{}: each of the {} processes gets {} bytes of target, less than one "
        "io_size of {}",
        o, spec.processes, target / spec.processes, spec.io_size);
}

}  // namespace ssdlab::workloads
