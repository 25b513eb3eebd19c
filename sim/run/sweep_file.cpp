#include "sim/run/sweep_file.h"

#include <fmt/ranges.h>
#include <toml++/toml.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "common/error.h"
#include "common/file_kind.h"
#include "common/suggest.h"
#include "common/toml_text.h"
#include "sim/config/config.h"
#include "sim/state/checkpoint.h"
#include "sim/state/precondition.h"
#include "workloads/plan.h"

namespace ssdlab::sim {
namespace fs = std::filesystem;

namespace {


std::string where(const std::string& path, const toml::node& node) {
  return fmt::format("{}:{}", path, node.source().begin.line);
}

std::vector<std::string> strings(const std::string& path, const toml::table& root, const char* key,
                                 bool required) {
  std::vector<std::string> items;
  const toml::node* node = root.get(key);
  if (!node) {
    if (required) throw make_error("{}:1: {}: required (a list of strings)", path, key);
    return items;
  }
  const toml::array* array = node->as_array();
  if (!array || array->empty())
    throw make_error("{}: {}: expected a non-empty list of strings", where(path, *node), key);
  for (const toml::node& item : *array) {
    const auto text = item.value_exact<std::string>();
    if (!text || text->empty())
      throw make_error("{}: {}: expected a non-empty list of strings", where(path, item), key);
    items.push_back(*text);
  }
  return items;
}

// `workloads`: each entry a workload, or a list of workloads that run
// together as tenants (one job).
std::vector<std::vector<std::string>> workload_entries(const std::string& path,
                                                       const toml::table& root) {
  const toml::node* node = root.get("workloads");
  if (!node) throw make_error("{}:1: workloads: required (a list of strings)", path);
  const toml::array* array = node->as_array();
  const char* expected =
      "expected a non-empty list of workloads, each a string or a list of strings (tenants)";
  if (!array || array->empty()) throw make_error("{}: workloads: {}", where(path, *node), expected);
  std::vector<std::vector<std::string>> entries;
  for (const toml::node& item : *array) {
    std::vector<std::string>& entry = entries.emplace_back();
    if (const auto text = item.value_exact<std::string>()) entry.push_back(*text);
    if (const toml::array* tenants = item.as_array())
      for (const toml::node& tenant : *tenants)
        if (const auto text = tenant.value_exact<std::string>()) entry.push_back(*text);
    const bool sized = item.is_array() ? entry.size() == item.as_array()->size() : true;
    if (entry.empty() || !sized ||
        std::any_of(entry.begin(), entry.end(), [](const std::string& w) { return w.empty(); }))
      throw make_error("{}: workloads: {}", where(path, item), expected);
  }
  return entries;
}

// Where the `index`th element of the list `key` is, or the file's first line.
std::string where_item(const std::string& path, const toml::table& root, const char* key,
                       std::size_t index) {
  const toml::node* node = root.get(key);
  const toml::array* array = node ? node->as_array() : nullptr;
  if (array && index < array->size()) return where(path, *array->get(index));
  return node ? where(path, *node) : path + ":1";
}

// A grid value as --set writes it: strings as they are, numbers and
// booleans as TOML prints them.
std::optional<std::string> grid_value(const toml::node& item) {
  if (const auto text = item.value_exact<std::string>()) return *text;
  if (const auto integer = item.value_exact<std::int64_t>()) return fmt::format("{}", *integer);
  if (const auto number = item.value_exact<double>()) return fmt::format("{}", *number);
  if (const auto flag = item.value_exact<bool>()) return *flag ? "true" : "false";
  return std::nullopt;
}

// The number of value combinations of the [grid] axes (1 without a grid).
std::size_t grid_combinations(const toml::table& root) {
  std::size_t combinations = 1;
  if (const toml::node* node = root.get("grid"))
    for (const auto& [key, values] : *node->as_table()) combinations *= values.as_array()->size();
  return combinations;
}

// The key of a "table.key=value" override, as written before the '='.
std::string_view override_key(std::string_view text) {
  std::string_view key = text.substr(0, text.find('='));
  while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.remove_suffix(1);
  while (!key.empty() && (key.front() == ' ' || key.front() == '\t')) key.remove_prefix(1);
  return key;
}

// Every mistake a job would make on its own (a bad precondition, a missing
// checkpoint or config, a bad set or workload) found before the first job
// runs and anything is written, with the sweep file's line.
template <typename Resolve>
void validate(const std::string& path, const toml::table& root, const Resolve& resolve,
              const std::vector<std::string>& configs,
              const std::vector<std::vector<std::string>>& sets,
              const std::vector<std::vector<std::string>>& workload_list,
              const std::string& precondition,
              const std::string& load_state) {
  const auto wrap = [](const std::string& at, const char* key, auto&& check) {
    try {
      check();
    } catch (const Error& error) {
      throw make_error("{}: {}: {}", at, key, error.what());
    }
  };
  if (!precondition.empty())
    wrap(where(path, *root.get("precondition")), "precondition",
         [&] { (void)workloads::parse_precondition(precondition); });
  CheckpointFile checkpoint;
  if (!load_state.empty())
    wrap(where(path, *root.get("load_state")), "load_state",
         [&] { checkpoint = checkpoint_info(resolve(load_state)); });
  // Each [grid] value on its own first, so that a bad one is reported at its
  // line, as the grid's.
  const toml::table* grid = root.get("grid") ? root.get("grid")->as_table() : nullptr;
  if (grid)
    for (const auto& [key, values] : *grid)
      for (const toml::node& item : *values.as_array()) {
        const std::string set = fmt::format("{}={}", key.str(), *grid_value(item));
        const std::string label = fmt::format("grid.\"{}\"", key.str());
        for (const auto& config : configs)
          wrap(where(path, item), label.c_str(),
               [&] { (void)load_config(resolve(config), {set}); });
      }
  // sets[] crossed with the grid: `combinations` sets per entry of sets.
  const std::size_t combinations = grid_combinations(root);
  std::optional<DeviceConfig> first;
  for (std::size_t c = 0; c < configs.size(); ++c)
    for (std::size_t s = 0; s < sets.size(); ++s) {
      const bool listed = root.get("sets") != nullptr;
      const std::string at = sets[s].empty() ? where_item(path, root, "configs", c)
                             : listed        ? where_item(path, root, "sets", s / combinations)
                                             : where(path, *root.get("grid"));
      const char* what = sets[s].empty() ? "configs" : listed ? "sets" : "grid";
      std::optional<DeviceConfig> config;
      wrap(at, what, [&] { config = load_config(resolve(configs[c]), sets[s]); });
      // Every job's checkpoint against its device: a job of another
      // geometry or FTL would fail only when it runs (on a cluster, later).
      if (!load_state.empty())
        wrap(at, "load_state", [&] {
          try {
            check_checkpoint_fits(checkpoint.info, *config);
          } catch (const Error& error) {
            throw make_error(
                "{} does not load into {}{}: {}", load_state, configs[c],
                sets[s].empty() ? "" : fmt::format(" with {}", fmt::join(sets[s], ", ")),
                error.what());
          }
        });
      if (!first) first = std::move(config);
    }
  const auto& g = first->geometry;
  const workloads::DeviceInfo device{g.capacity_bytes(), first->sector_size,
                                     std::uint64_t{g.pages_per_block} * g.page_size};
  for (std::size_t w = 0; w < workload_list.size(); ++w)
    for (const std::string& workload : workload_list[w])
      wrap(where_item(path, root, "workloads", w), "workloads", [&] {
        if (workload.starts_with("trace:")) {
          const std::string file = workload.substr(6);
          if (const std::string problem = not_a_regular_file(file); !problem.empty())
            throw make_error("'{}': {}", file, problem);
          return;
        }
        (void)workloads::load_plan(workload.ends_with(".toml") ? resolve(workload) : workload,
                                   device);
      });
}

// [grid] "table.key" = [values] ...: every combination of the axes (the
// keys sorted by name, as toml++ keeps a table; the first varies slowest),
// each appended to each of `sets`.
std::vector<std::vector<std::string>> cross_grid(
    const std::string& path, const toml::node& node,
    const std::vector<std::vector<std::string>>& sets) {
  const toml::table* grid = node.as_table();
  if (!grid || grid->empty())
    throw make_error("{}: grid: expected a table of \"table.key\" = [values]", where(path, node));
  std::vector<std::vector<std::string>> axes;  // "key=value" per axis
  for (const auto& [key, values] : *grid) {
    const toml::array* array = values.as_array();
    if (!array || array->empty())
      throw make_error("{}: grid.\"{}\": expected a non-empty list of values", where(path, values),
                       key.str());
    if (key.str().find('.') == std::string_view::npos)
      throw make_error("{}: grid: '{}': expected a config key \"table.key\"", where(path, values),
                       key.str());
    // A key both swept and set: one would silently win over the other, and
    // sweep.csv's column would show the other.
    for (const auto& set : sets)
      for (const auto& text : set)
        if (override_key(text) == key.str())
          throw make_error("{}: grid.\"{}\": also given in sets ('{}'); give each key in one place",
                           where(path, values), key.str(), text);
    std::vector<std::string>& axis = axes.emplace_back();
    for (const toml::node& item : *array) {
      const auto value = grid_value(item);
      if (!value)
        throw make_error("{}: grid.\"{}\": expected strings, numbers or booleans",
                         where(path, item), key.str());
      axis.push_back(fmt::format("{}={}", key.str(), *value));
    }
  }
  std::vector<std::vector<std::string>> crossed;
  for (const auto& set : sets) {
    std::vector<std::size_t> at(axes.size(), 0);  // an odometer over the axes
    for (bool more = true; more;) {
      std::vector<std::string> overrides = set;
      for (std::size_t a = 0; a < axes.size(); ++a) overrides.push_back(axes[a][at[a]]);
      crossed.push_back(std::move(overrides));
      more = false;
      for (std::size_t a = axes.size(); a-- > 0;) {
        if (++at[a] < axes[a].size()) {
          more = true;
          break;
        }
        at[a] = 0;
      }
    }
  }
  return crossed;
}

// The grid, in a fixed order: configs, then sets (crossed with the [grid]
// axes), then workloads, then seeds.
// seeds = [...]: non-negative integers (default: 1).
std::vector<std::uint64_t> read_seeds(const std::string& path, const toml::table& root) {
  std::vector<std::uint64_t> seeds;
  if (const toml::node* node = root.get("seeds")) {
    const toml::array* array = node->as_array();
    if (!array || array->empty())
      throw make_error("{}: seeds: expected a non-empty list of integers", where(path, *node));
    for (const toml::node& item : *array) {
      const auto seed = item.value_exact<std::int64_t>();
      if (!seed || *seed < 0)
        throw make_error("{}: seeds: expected non-negative integers", where(path, item));
      seeds.push_back(static_cast<std::uint64_t>(*seed));
    }
  } else {
    seeds.push_back(1);
  }
  return seeds;
}

// sets = [["table.key=value", ...], ...] (default: one empty set).
std::vector<std::vector<std::string>> read_sets(const std::string& path, const toml::table& root) {
  std::vector<std::vector<std::string>> sets{{}};
  if (const toml::node* node = root.get("sets")) {
    const toml::array* array = node->as_array();
    if (!array || array->empty())
      throw make_error("{}: sets: expected a list of lists of \"table.key=value\"",
                       where(path, *node));
    sets.clear();
    for (const toml::node& item : *array) {
      const toml::array* group = item.as_array();
      if (!group)
        throw make_error("{}: sets: expected a list of lists of \"table.key=value\"",
                         where(path, item));
      std::vector<std::string> overrides;
      for (const toml::node& entry : *group) {
        const auto text = entry.value_exact<std::string>();
        if (!text || text->find('=') == std::string::npos)
          throw make_error("{}: sets: expected \"table.key=value\"", where(path, entry));
        // The last would win, while sweep.csv's column showed the first.
        for (const auto& earlier : overrides)
          if (override_key(earlier) == override_key(*text))
            throw make_error("{}: sets: '{}' is given twice in one set ('{}' and '{}')",
                             where(path, entry), override_key(*text), earlier, *text);
        overrides.push_back(*text);
      }
      sets.push_back(std::move(overrides));
    }
  }
  return sets;
}

}  // namespace

std::vector<Job> expand(const std::string& path) {
  toml::table root;
  const std::string text = read_toml_text(path);
  try {
    root = toml::parse(text, path);
  } catch (const toml::parse_error& error) {
    const std::size_t line = error.source().begin.line;
    throw make_error("{}:{}: {}", path, line,
                     toml_error_description(error.description(), text, line));
  }
  for (const auto& [key, node] : root) {
    static const std::vector<std::string_view> kKeys = {
        "configs", "workloads", "seeds",      "sets",  "grid",
        "precondition", "load_state", "io_log", "fairness"};
    if (std::find(kKeys.begin(), kKeys.end(), key.str()) == kKeys.end())
      throw make_error("{}: unknown key '{}'{} (known: {})", where(path, node), key.str(),
                       did_you_mean(key.str(), kKeys), fmt::join(kKeys, ", "));
  }
  const auto configs = strings(path, root, "configs", true);
  const auto workloads = workload_entries(path, root);
  const std::vector<std::uint64_t> seeds = read_seeds(path, root);
  std::vector<std::vector<std::string>> sets = read_sets(path, root);
  if (const toml::node* node = root.get("grid")) sets = cross_grid(path, *node, sets);
  std::string precondition;
  if (const toml::node* node = root.get("precondition")) {
    const auto text = node->value_exact<std::string>();
    if (!text) throw make_error("{}: precondition: expected a string", where(path, *node));
    precondition = *text;
  }
  std::string load_state;
  if (const toml::node* node = root.get("load_state")) {
    const auto text = node->value_exact<std::string>();
    if (!text || text->empty())
      throw make_error("{}: load_state: expected a checkpoint file name", where(path, *node));
    if (!precondition.empty())
      throw make_error(
          "{}: load_state: not with precondition (the checkpoint is the preconditioned state)",
          where(path, *node));
    load_state = *text;
  }
  bool io_log = false;
  if (const toml::node* node = root.get("io_log")) {
    const auto flag = node->value_exact<bool>();
    if (!flag) throw make_error("{}: io_log: expected true or false", where(path, *node));
    io_log = *flag;
  }
  bool fairness = false;
  if (const toml::node* node = root.get("fairness")) {
    const auto flag = node->value_exact<bool>();
    if (!flag) throw make_error("{}: fairness: expected true or false", where(path, *node));
    fairness = *flag;
  }
  // Relative config paths are relative to the sweep file, as a user expects
  // when the file sits beside its configs; workloads that are plan files too.
  const fs::path base = fs::path(path).parent_path();
  const auto resolve = [&base](const std::string& file) {
    const fs::path p(file);
    // (A name the OS refuses, too long say, is reported where it is read.)
    std::error_code error;
    if (p.is_absolute() || fs::exists(p, error)) return file;
    return (base / p).string();
  };
  validate(path, root, resolve, configs, sets, workloads, precondition, load_state);
  std::vector<Job> jobs;
  for (const auto& config : configs)
    for (const auto& set : sets)
      for (const auto& entry : workloads)
        for (const std::uint64_t seed : seeds) {
          std::vector<std::string> resolved;
          for (const std::string& workload : entry)
            resolved.push_back(workload.ends_with(".toml") ? resolve(workload) : workload);
          jobs.push_back({jobs.size(), resolve(config), set,
                          fmt::format("{}", fmt::join(resolved, " + ")), resolved, seed,
                          precondition, load_state.empty() ? "" : resolve(load_state), io_log,
                          fairness});
        }
  return jobs;
}

}  // namespace ssdlab::sim
