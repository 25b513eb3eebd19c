#include "sim/sweep/sweep_grid.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>

#include "common/error.h"

namespace ssdlab::sim {

std::string where(const std::string& path, const toml::node& node) {
  return fmt::format("{}:{}", path, node.source().begin.line);
}

std::string where_item(const std::string& path, const toml::table& root, const char* key,
                       std::size_t index) {
  const toml::node* node = root.get(key);
  const toml::array* array = node ? node->as_array() : nullptr;
  if (array && index < array->size()) return where(path, *array->get(index));
  return node ? where(path, *node) : path + ":1";
}

std::string_view override_key(std::string_view text) {
  std::string_view key = text.substr(0, text.find('='));
  while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.remove_suffix(1);
  while (!key.empty() && (key.front() == ' ' || key.front() == '\t')) key.remove_prefix(1);
  return key;
}

namespace {

std::size_t line_of(const toml::node& node) {
  return node.source().begin.line;
}

// A grid or exclude value as --set writes it: strings as they are, numbers
// and booleans as TOML prints them.
std::optional<std::string> grid_value(const toml::node& item) {
  if (const auto text = item.value_exact<std::string>()) return *text;
  if (const auto integer = item.value_exact<std::int64_t>()) return fmt::format("{}", *integer);
  if (const auto number = item.value_exact<double>()) return fmt::format("{}", *number);
  if (const auto flag = item.value_exact<bool>()) return *flag ? "true" : "false";
  return std::nullopt;
}

// The value of `key` in a combination ("" if it does not set it).
std::string value_of(const Combination& combination, std::string_view key) {
  for (const std::string& text : combination.sets)
    if (override_key(text) == key) {
      std::string value = text.substr(text.find('=') + 1);
      while (!value.empty() && value.front() == ' ') value.erase(value.begin());
      return value;
    }
  return "";
}

// sets = [["table.key=value", ...], ...] (default: one empty set).
std::vector<Combination> read_sets(const std::string& path, const toml::table& root) {
  const toml::node* node = root.get("sets");
  if (!node) return {Combination{}};
  const toml::array* array = node->as_array();
  const char* expected = "expected a list of lists of \"table.key=value\"";
  if (!array || array->empty()) throw make_error("{}: sets: {}", where(path, *node), expected);
  std::vector<Combination> sets;
  for (const toml::node& item : *array) {
    const toml::array* group = item.as_array();
    if (!group) throw make_error("{}: sets: {}", where(path, item), expected);
    Combination& combination = sets.emplace_back();
    combination.line = line_of(item);
    combination.source = "sets";
    for (const toml::node& entry : *group) {
      const auto text = entry.value_exact<std::string>();
      if (!text || text->find('=') == std::string::npos)
        throw make_error("{}: sets: expected \"table.key=value\"", where(path, entry));
      // The last would win, while sweep.csv's column showed the first.
      for (const auto& earlier : combination.sets)
        if (override_key(earlier) == override_key(*text))
          throw make_error("{}: sets: '{}' is given twice in one set ('{}' and '{}')",
                           where(path, entry), override_key(*text), earlier, *text);
      combination.sets.push_back(*text);
      combination.lines.push_back(line_of(entry));
    }
    combination.from_sets = combination.sets.size();
  }
  return sets;
}

const char* const kTopLevel[] = {"configs", "workloads", "seeds", "sets", "exclude",
                                 "skip_refused", "precondition", "load_state", "io_log"};

// One grid table's axes, each "key=value" with its line, crossed with each
// of `sets` (an odometer over the axes, the last varying fastest).
std::vector<Combination> cross_grid(const std::string& path, const toml::node& node,
                                    const std::vector<Combination>& sets) {
  const toml::table* grid = node.as_table();
  if (!grid || grid->empty())
    throw make_error("{}: grid: expected a table of \"table.key\" = [values]", where(path, node));
  std::vector<std::vector<std::pair<std::string, std::size_t>>> axes;
  for (const auto& [key, values] : *grid) {
    if (std::find(std::begin(kTopLevel), std::end(kTopLevel), key.str()) != std::end(kTopLevel))
      throw make_error("{}: grid: '{}' is a key of the sweep file, not of the grid: write it "
                       "before the first [grid] line (TOML puts every key after a [table] "
                       "line into that table)",
                       where(path, values), key.str());
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
      for (const auto& text : set.sets)
        if (override_key(text) == key.str())
          throw make_error("{}: grid.\"{}\": also given in sets ('{}'); give each key in one place",
                           where(path, values), key.str(), text);
    auto& axis = axes.emplace_back();
    for (const toml::node& item : *array) {
      const auto value = grid_value(item);
      if (!value)
        throw make_error("{}: grid.\"{}\": expected strings, numbers or booleans",
                         where(path, item), key.str());
      axis.emplace_back(fmt::format("{}={}", key.str(), *value), line_of(item));
    }
  }
  std::vector<Combination> crossed;
  for (const auto& set : sets) {
    std::vector<std::size_t> at(axes.size(), 0);
    for (bool more = true; more;) {
      Combination combination = set;
      if (set.sets.empty()) {
        combination.line = line_of(node);
        combination.source = "grid";
      }
      for (std::size_t a = 0; a < axes.size(); ++a) {
        combination.sets.push_back(axes[a][at[a]].first);
        combination.lines.push_back(axes[a][at[a]].second);
      }
      crossed.push_back(std::move(combination));
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

// exclude = [{ "table.key" = value or [values], ... }, ...]: a combination
// whose value of every key of an entry is (one of) the entry's is left out.
// An entry that leaves nothing out is a mistake (a misspelt value).
void apply_exclude(const std::string& path, const toml::node& node,
                   std::vector<Combination>& combinations) {
  const toml::array* array = node.as_array();
  const char* expected =
      "expected a list of tables {\"table.key\" = value or [values], ...} of swept keys";
  if (!array || array->empty()) throw make_error("{}: exclude: {}", where(path, node), expected);
  std::set<std::string, std::less<>> swept;
  for (const auto& combination : combinations)
    for (const auto& text : combination.sets) swept.emplace(override_key(text));
  for (const toml::node& item : *array) {
    const toml::table* entry = item.as_table();
    if (!entry || entry->empty()) throw make_error("{}: exclude: {}", where(path, item), expected);
    std::vector<std::pair<std::string, std::vector<std::string>>> wanted;
    for (const auto& [key, values] : *entry) {
      if (!swept.contains(key.str()))
        throw make_error("{}: exclude: '{}' is not a key that sets or a grid sweep",
                         where(path, values), key.str());
      auto& [name, accepted] = wanted.emplace_back(std::string(key.str()), std::vector<std::string>{});
      if (const toml::array* list = values.as_array()) {
        for (const toml::node& value : *list)
          if (const auto text = grid_value(value)) accepted.push_back(*text);
        if (accepted.size() != list->size() || accepted.empty())
          throw make_error("{}: exclude: {}", where(path, values), expected);
      } else if (const auto text = grid_value(values)) {
        accepted.push_back(*text);
      } else {
        throw make_error("{}: exclude: {}", where(path, values), expected);
      }
    }
    const auto matches = [&wanted](const Combination& combination) {
      return std::all_of(wanted.begin(), wanted.end(), [&combination](const auto& key_values) {
        const std::string value = value_of(combination, key_values.first);
        const auto& accepted = key_values.second;
        return std::find(accepted.begin(), accepted.end(), value) != accepted.end();
      });
    };
    const auto removed = std::remove_if(combinations.begin(), combinations.end(), matches);
    if (removed == combinations.end())
      throw make_error("{}: exclude: this entry matches no combination (a misspelt value?)",
                       where(path, item));
    combinations.erase(removed, combinations.end());
  }
  if (combinations.empty())
    throw make_error("{}: exclude: every combination is excluded", where(path, node));
}

}  // namespace

std::vector<Combination> read_combinations(const std::string& path, const toml::table& root) {
  std::vector<Combination> sets = read_sets(path, root);
  if (const toml::node* node = root.get("grid")) {
    std::vector<Combination> crossed;
    if (const toml::array* grids = node->as_array()) {  // [[grid]]: one grid after another
      if (grids->empty()) throw make_error("{}: grid: expected [[grid]] tables", where(path, *node));
      for (const toml::node& grid : *grids) {
        auto more = cross_grid(path, grid, sets);
        crossed.insert(crossed.end(), more.begin(), more.end());
      }
    } else {
      crossed = cross_grid(path, *node, sets);
    }
    sets = std::move(crossed);
  }
  if (const toml::node* node = root.get("exclude")) apply_exclude(path, *node, sets);
  return sets;
}

}  // namespace ssdlab::sim
