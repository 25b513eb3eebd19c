// Typed, range-checked reading of the keys of a parsed TOML document, with
// errors as "file:line: table.key: what is wrong (allowed range)". The device
// config (sim/config) reads its tables with it, and hands it to the chosen
// FTL for the FTL's own [ftl] keys (ftl/ftl_keys.h). It remembers every key
// asked for, so that reject_unknown() can refuse the rest with a "did you
// mean".
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "common/suggest.h"
#include "common/units.h"

namespace ssdlab {

// One key of a table as the reference documents it (docs/reference/config.md,
// generated from these: sim/config/config_part.h): its name and, in
// Markdown, its range, default and meaning. Declared beside the code that
// reads the key; a test fails when the keys read and the keys documented
// differ.
struct KeyDoc {
  std::string_view key;
  std::string_view what;
};

// One table of the config and its keys. `name` is the table as keys are
// named in errors and --set ("host.link"); `heading` as a file writes it
// ("[host.link]", "[[host.queues]]"); `intro` (Markdown, may be empty) what
// the table is and what its absence means.
struct TableDoc {
  std::string_view name;
  std::string_view heading;
  std::string_view intro;
  std::span<const KeyDoc> keys;
};

// Reads keys of a parsed TOML document, remembering which were read so that
// anything left over is reported as unknown.
class KeyReader {
 public:
  // `tables`: the tables a document may hold, in the order errors list them;
  // `set_origins`: where each --set key came from ("--set table.key=value").
  KeyReader(const toml::table& root, std::string path, std::vector<std::string> tables,
            std::map<std::string, std::string> set_origins)
      : root_(root),
        path_(std::move(path)),
        tables_(std::move(tables)),
        set_origins_(std::move(set_origins)) {}

  [[noreturn]] void fail(const std::string& dotted, const toml::node* node,
                         const std::string& what) const {
    throw make_error("{}: {}: {}", where(dotted, node), dotted, what);
  }

  template <typename T>
  void integer(const char* table, const char* key, T& out, std::int64_t min, std::int64_t max) {
    const auto [node, dotted] = find(table, key);
    if (!node) return;
    const auto value = node->template value_exact<std::int64_t>();
    if (!value) fail(dotted, node, fmt::format("expected an integer between {} and {}", min, max));
    if (*value < min || *value > max)
      fail(dotted, node, fmt::format("{} is out of range: allowed {} to {}", *value, min, max));
    out = static_cast<T>(*value);
  }

  // A byte size: an integer or a string such as "4KiB".
  template <typename T>
  void size(const char* table, const char* key, T& out, std::uint64_t min, std::uint64_t max) {
    const auto [node, dotted] = find(table, key);
    if (!node) return;
    std::optional<std::uint64_t> bytes;
    if (auto i = node->value_exact<std::int64_t>(); i && *i >= 0) bytes = *i;
    if (auto s = node->value_exact<std::string>()) bytes = parse_size(*s);
    if (!bytes)
      fail(dotted, node,
           fmt::format("expected a size such as 4096 or \"4KiB\" between {} and {}", min, max));
    if (*bytes < min || *bytes > max)
      fail(dotted, node, fmt::format("{} is out of range: allowed {} to {}", *bytes, min, max));
    out = static_cast<T>(*bytes);
  }

  // A real number, stored scaled (e.g. microseconds to nanoseconds) and rounded.
  void scaled(const char* table, const char* key, std::int64_t& out, double scale, double min,
              double max, bool min_inclusive = true) {
    double value = 0;
    if (!real(table, key, value, min, max, min_inclusive)) return;
    out = std::llround(value * scale);
    if (!min_inclusive && out <= 0) {
      const auto [node, dotted] = find(table, key);
      fail(dotted, node,
           fmt::format("{} is too small: it rounds to 0 in the model's resolution "
                       "(1 ns, or 1 ps per byte on the bus)",
                       value));
    }
  }

  bool real(const char* table, const char* key, double& out, double min, double max,
            bool min_inclusive = true) {
    const auto [node, dotted] = find(table, key);
    if (!node) return false;
    const auto value = node->value<double>();  // integers convert too
    const bool below = min_inclusive ? (value && *value < min) : (value && *value <= min);
    const std::string range =
        fmt::format("{} {} to {}", min_inclusive ? "from" : "above", min, max);
    if (!value || !std::isfinite(*value)) fail(dotted, node, "expected a number " + range);
    if (below || *value > max)
      fail(dotted, node, fmt::format("{} is out of range: allowed {}", *value, range));
    out = *value;
    return true;
  }

  void boolean(const char* table, const char* key, bool& out) {
    const auto [node, dotted] = find(table, key);
    if (!node) return;
    const auto value = node->value_exact<bool>();
    if (!value) fail(dotted, node, "expected true or false");
    out = *value;
  }

  void string(const char* table, const char* key, std::string& out) {
    const auto [node, dotted] = find(table, key);
    if (!node) return;
    const auto value = node->value_exact<std::string>();
    if (!value) fail(dotted, node, "expected a string");
    out = *value;
  }

  // A string key whose value `parse(value, out)` accepts; `current` is its
  // default. Else one error: "'VALUE' is not WHAT".
  template <typename T, typename Parse>
  void named(const char* table, const char* key, T& out, std::string current, Parse parse,
             std::string_view what) {
    string(table, key, current);
    if (parse(current, out)) return;
    const auto [node, dotted] = find(table, key);
    fail(dotted, node, fmt::format("'{}' is not {}", current, what));
  }

  // Returns the node and marks it read; nullptr if absent.
  std::pair<const toml::node*, std::string> find(const char* table, const char* key) {
    const std::string dotted = fmt::format("{}.{}", table, key);
    read_.insert(dotted);
    const toml::table* t = root_[table].as_table();
    return {t ? t->get(key) : nullptr, dotted};
  }

  const std::string& path() const { return path_; }
  // Whether the document holds `table` (a part's table, whose presence
  // switches the part on).
  bool has_table(const char* table) const { return root_[table].as_table() != nullptr; }

  // True if `key` names something inside `table`: a key of it or an item
  // of it (table.key, table[2]).
  static bool inside(const std::string& key, const std::string& table) {
    return key.size() > table.size() && key.starts_with(table) &&
           (key[table.size()] == '.' || key[table.size()] == '[');
  }

  // Where `dotted` (at `node`, if any) was given: its --set argument, the
  // --set argument it is part of (an item of a list: ftl.placement_map[0].size),
  // or its line. A key that is missing or has no position is blamed on its
  // innermost table that the file gives, or, for a table that only --set
  // overrides created ([host.link] by --set host.link.generation=3), on
  // such an override, never on a line that holds no such key (issue 51, L3).
  std::string where(const std::string& dotted, const toml::node* node) const {
    if (auto it = set_origins_.find(dotted); it != set_origins_.end()) return it->second;
    for (const auto& [key, origin] : set_origins_)
      if (inside(dotted, key)) return origin;
    const int line = node ? static_cast<int>(node->source().begin.line) : 0;
    if (line != 0) return fmt::format("{}:{}", path_, line);
    // A table the file does not place, made by a --set of a key inside it
    // (--set timing.cell.read_us=..., host.namespaces[1] hoisted from one).
    for (const auto& [key, origin] : set_origins_)
      if (inside(key, dotted)) return origin;
    for (std::string table = dotted; table.find('.') != std::string::npos;) {
      table.erase(table.rfind('.'));
      // A sub-table may be hoisted to a key of its own ("host.link").
      const toml::node* node_of_table = root_.get(table);
      if (!node_of_table) node_of_table = root_.at_path(table).node();
      if (node_of_table && node_of_table->source().begin.line)
        return fmt::format("{}:{}", path_, node_of_table->source().begin.line);
      for (const auto& [key, origin] : set_origins_)
        if (key.starts_with(table + ".")) return origin;
    }
    return path_;
  }

  // True if `table.key` was asked for (present or not).
  bool was_read(const std::string& dotted) const { return read_.count(dotted) > 0; }
  // Every "table.key" asked for (present or not).
  const std::set<std::string>& keys_read() const { return read_; }

  // Why this document's reader does not take `table.key` (e.g. "merges one
  // logical block at a time"), for `elsewhere` in reject_unknown(); it does
  // not mark the key read.
  void why_not(const char* table, const char* key, std::string reason) {
    reasons_[fmt::format("{}.{}", table, key)] = std::move(reason);
  }
  // The reason given through why_not(), or "".
  std::string reason(const std::string& dotted) const {
    const auto it = reasons_.find(dotted);
    return it == reasons_.end() ? std::string() : it->second;
  }

  // Every table and key present must have been read. `elsewhere(dotted)`,
  // if given, explains a key that other readers take (e.g. "only the dftl
  // FTL uses it ('page-mapped' does not)"); "" for a key nobody takes, which
  // is reported as unknown with a "did you mean".
  void reject_unknown(
      const std::function<std::string(const std::string&)>& elsewhere = {}) const {
    for (const auto& [table_key, table_node] : root_) {
      const std::string table(table_key.str());
      if (std::find(tables_.begin(), tables_.end(), table) == tables_.end()) {
        // A table that only a --set override created has no line in the file.
        std::string origin = fmt::format("{}:{}", path_, table_node.source().begin.line);
        for (const auto& [dotted, set] : set_origins_)
          if (dotted.starts_with(table + ".")) origin = set;
        std::vector<std::string> sorted = tables_;
        std::sort(sorted.begin(), sorted.end());
        // `x = 1` at the top level is a key, not a table.
        throw make_error("{}: unknown {} '{}'{} (known: {})", origin,
                         table_node.is_table() ? "table" : "key", table,
                         did_you_mean(table, sorted), fmt::join(tables_, ", "));
      }
      if (!table_node.is_table())
        throw make_error("{}:{}: '{}' must be a table ([{}]), not a value or an array", path_,
                         table_node.source().begin.line, table, table);
      for (const auto& [key, node] : *table_node.as_table()) {
        const std::string dotted = fmt::format("{}.{}", table, key.str());
        if (read_.count(dotted)) continue;
        if (const std::string what = elsewhere ? elsewhere(dotted) : std::string(); !what.empty())
          throw make_error("{}: {}: {}", where(dotted, &node), dotted, what);
        std::string known;
        std::vector<std::string> names;
        for (const auto& name : read_)
          if (name.starts_with(table + ".")) {
            known += (known.empty() ? "" : ", ") + name.substr(table.size() + 1);
            names.push_back(name);
          }
        throw make_error("{}: unknown key '{}'{} (known in [{}]: {})", where(dotted, &node),
                         dotted, did_you_mean(dotted, names), table, known);
      }
    }
  }

 private:
  const toml::table& root_;
  std::string path_;
  std::vector<std::string> tables_;
  std::map<std::string, std::string> set_origins_;
  std::set<std::string> read_;
  std::map<std::string, std::string> reasons_;
};

}  // namespace ssdlab
