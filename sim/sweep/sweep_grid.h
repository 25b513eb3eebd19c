// The config overrides of a sweep file (docs: sweeps): `sets` crossed with
// each `[grid]` table (or each of several `[[grid]]` tables, their jobs one
// after another), less the combinations that `exclude` names. Each override
// keeps the line of the sweep file it comes from, so that a combination a
// config refuses is reported where the offending value is written.
// Internal to sim/run (sweep_file.cpp).
#pragma once

#include <toml++/toml.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ssdlab::sim {

struct Combination {
  std::vector<std::string> sets;   // "table.key=value", as --set takes them
  std::vector<std::size_t> lines;  // the sweep file's line of each
  std::size_t line = 1;            // its `sets` entry's line, else its grid's
  const char* source = "configs";  // "sets", "grid" or "configs" (no override)
  std::size_t from_sets = 0;       // the first overrides, from its `sets` entry
};

// "PATH:LINE" of a node of the sweep file.
std::string where(const std::string& path, const toml::node& node);

// Where the `index`th element of the list `key` is, or the file's first line.
std::string where_item(const std::string& path, const toml::table& root, const char* key,
                       std::size_t index);

// The key of a "table.key=value" override, as written before the '='.
std::string_view override_key(std::string_view text);

// Every combination of the sweep file `root` at `path`, in a fixed order: each
// `sets` entry (one empty set without `sets`) crossed with the axes of a grid
// (keys sorted by name, the first varying slowest), grid after grid; then
// `exclude` applied. Throws ssdlab::Error "PATH:LINE: key: what".
std::vector<Combination> read_combinations(const std::string& path, const toml::table& root);

}  // namespace ssdlab::sim
