// A config file read into TOML, and the --set overrides applied to it: the
// text the reader (config.cpp) then checks key by key.
#include <fmt/format.h>
#include <toml++/toml.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/file_kind.h"
#include "common/toml_text.h"
#include "sim/config/config_reader.h"

namespace ssdlab::sim::config_detail {

toml::table parse_config_file(const std::string& path) {
  // toml++ reads a directory, a device or an empty file as an empty table,
  // which would silently be the default device.
  if (const std::string problem = not_a_regular_file(path); !problem.empty())
    throw make_error("{}: {}", path, problem == "no such file" ? "no such config file" : problem);
  std::error_code error;
  if (std::filesystem::file_size(path, error) == 0 && !error)
    throw make_error("{}: empty config file", path);
  const std::string text = read_toml_text(path);
  try {
    return toml::parse(text, path);
  } catch (const toml::parse_error& error) {
    const std::size_t line = error.source().begin.line;
    if (line == 0) throw make_error("{}: {}", path, error.description());
    throw make_error("{}:{}: {}", path, line,
                     toml_error_description(error.description(), text, line));
  }
}

// Applies "table.key=value" overrides; returns where each came from.
std::map<std::string, std::string> apply_overrides(toml::table& root,
                                                   const std::vector<std::string>& overrides) {
  std::map<std::string, std::string> origins;
  for (const auto& text : overrides) {
    // A long value (a list of 3,000 tables) is shortened where it names an error.
    const std::string origin =
        fmt::format("--set {}", text.size() <= 72 ? text : text.substr(0, 69) + "...");
    const auto equals = text.find('=');
    const auto dot = text.find('.');
    if (equals == std::string::npos || dot == std::string::npos || dot > equals)
      throw make_error("{}: expected table.key=value, e.g. timing.read_us=30", origin);
    const std::string table = text.substr(0, dot), key = text.substr(dot + 1, equals - dot - 1);
    toml::table parsed;
    const std::string value = "value = " + text.substr(equals + 1);
    if (non_ascii_outside_strings(value) || non_ascii_outside_strings(table + key))
      throw make_error("{}: a non-ASCII character outside a string (quote a string value)",
                       origin);
    try {
      parsed = toml::parse(value);
    } catch (const toml::parse_error& error) {
      // A bare word is taken as a string: --set ftl.allocation_pool=die. A
      // list, a table or a quoted string is not a bare word: its error is
      // the real one (an integer beyond 64 bits), not a string's (L6).
      const std::string given = text.substr(equals + 1);
      if (!given.empty() && std::string_view("[{\"'").find(given.front()) != std::string::npos)
        throw make_error("{}: the value is not TOML: {}", origin, error.description());
      try {
        parsed = toml::parse("value = \"" + text.substr(equals + 1) + "\"");
      } catch (const toml::parse_error&) {
        throw make_error("{}: the value is not TOML: {}", origin, error.description());
      }
    }
    auto* target = root[table].as_table();
    if (!target) target = root.insert_or_assign(table, toml::table{}).first->second.as_table();
    target->insert_or_assign(key, *parsed.get("value"));
    origins[table + "." + key] = origin;
  }
  return origins;
}

void hoist_sub_table(toml::table& root, const std::string& parent, const std::string& name) {
  toml::table* outer = root[parent].as_table();
  if (!outer) return;
  const std::string hoisted = parent + "." + name;
  if (toml::node* sub = outer->get(name)) {
    root.insert_or_assign(hoisted, *sub);
    outer->erase(name);
  }
  // --set timing.cell.read_us=[...] arrives as key "cell.read_us" of [timing].
  const std::string prefix = name + ".";
  std::vector<std::string> dotted;
  for (const auto& [key, value] : *outer)
    if (key.str().starts_with(prefix)) dotted.emplace_back(key.str());
  for (const std::string& key : dotted) {
    toml::table* target = root[hoisted].as_table();
    if (!target) target = root.insert_or_assign(hoisted, toml::table{}).first->second.as_table();
    target->insert_or_assign(key.substr(prefix.size()), *outer->get(key));
    outer->erase(key);
  }
}

}  // namespace ssdlab::sim::config_detail
