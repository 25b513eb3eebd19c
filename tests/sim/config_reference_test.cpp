// The config reference from the code (issue 52 item 4): every key the config
// reader asks for has a row (KeyDoc) beside its reader, every row names a key
// the reader asks for, and docs/reference/config.md shows exactly what
// `ssdlab config --keys` prints.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <toml++/toml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "ftl/ftl.h"
#include "ftl/ftl_keys.h"
#include "sim/config/config_part.h"
#include "sim/config/config_reader.h"
#include "sim/controller/device_parts.h"

namespace {

namespace fs = std::filesystem;
using ssdlab::sim::config_reference;

const fs::path kSource = SSDLAB_SOURCE_DIR;

std::string slurp(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// "host.queues[2].depth" -> "host.queues.depth": an array's tables are
// documented once.
std::string without_index(const std::string& dotted) {
  return std::regex_replace(dotted, std::regex(R"(\[[0-9]+\])"), "");
}

// The keys the reader asks for on `toml` (a config file's text) with
// `overrides`, added to `keys`.
void add_keys_read(const std::string& toml, const std::vector<std::string>& overrides,
                   const std::string& name, std::set<std::string>& keys) {
  toml::table root = toml::parse(toml, name);
  std::set<std::string> read;
  ssdlab::sim::config_detail::read_config(root, name, overrides, &read);
  for (const std::string& key : read) keys.insert(without_index(key));
}

// Every row the reference holds, as "table.key" (with repeats, if a key is
// documented twice), and every table.
struct Documented {
  std::multiset<std::string> rows;
  std::set<std::string> tables;
};

bool registered(const ssdlab::sim::ConfigPart* keys) {
  const auto parts = ssdlab::sim::device_parts();
  return std::any_of(parts.begin(), parts.end(),
                     [keys](const ssdlab::sim::DevicePart* part) { return part->keys == keys; });
}

Documented documented() {
  Documented docs;
  const auto add = [&](const ssdlab::sim::TableDoc& table) {
    docs.tables.emplace(table.name);
    for (const ssdlab::KeyDoc& key : table.keys)
      docs.rows.insert(std::string(table.name) + "." + std::string(key.key));
  };
  for (const auto& table : ssdlab::sim::core_tables()) add(table);
  // (ssdlab's own parts: not those a test registers, registered_part_test.cpp.)
  for (const ssdlab::sim::ConfigPart* part : ssdlab::sim::config_parts())
    if (!registered(part))
      for (const auto& table : part->tables) add(table);
  for (const ssdlab::ftl::FtlPartKeys* part : ssdlab::ftl::ftl_parts()) add(*part->table);
  // (FTLs may share one table, as block-mapped, bast and fast do.)
  std::set<const ssdlab::KeyDoc*> ftl_rows;
  for (const std::string& type : ssdlab::ftl::ftl_names())
    for (const ssdlab::KeyDoc& key : ssdlab::ftl::ftl_key_hooks(type).keys)
      if (ftl_rows.insert(&key).second) docs.rows.insert("ftl." + std::string(key.key));
  return docs;
}

// What the reader asks for over every preset, every FTL on the tiny device,
// and configs that turn on what no preset does (arrays of tables, the parts).
std::set<std::string> keys_read() {
  std::set<std::string> keys;
  for (const auto& entry : fs::directory_iterator(kSource / "configs"))
    if (entry.path().extension() == ".toml")
      add_keys_read(slurp(entry.path()), {}, entry.path().string(), keys);
  const std::string tiny = slurp(kSource / "configs/tiny.toml");
  for (const std::string& type : ssdlab::ftl::ftl_names())
    add_keys_read(tiny, {"ftl.type=\"" + type + "\""}, "tiny.toml", keys);
  add_keys_read(tiny + R"(
[[namespace]]
size = "4MiB"
[[placement]]
size = "1MiB"
handle = 1
[[host.queues]]
depth = 4
)",
                {"ftl.placement=\"fdp\"", "ftl.fdp_handles=2"}, "tiny-arrays.toml", keys);
  add_keys_read(slurp(kSource / "configs/zns.toml") + "\n[host.log]\noverprovisioning = 0.1\n", {},
                "zns-log.toml", keys);
  return keys;
}

TEST(ConfigReference, EveryKeyTheReaderTakesHasARowAndEveryRowIsAKeyItTakes) {
  const Documented docs = documented();
  const std::set<std::string> read = keys_read();
  std::vector<std::string> undocumented, unread;
  for (const std::string& key : read)
    // (An array of tables, host.queues, is asked for as a key of its parent
    // and documented as a table of its own.)
    if (!docs.rows.count(key) && !docs.tables.count(key)) undocumented.push_back(key);
  for (const std::string& key : std::set<std::string>(docs.rows.begin(), docs.rows.end()))
    if (!read.count(key)) unread.push_back(key);
  EXPECT_THAT(undocumented, ::testing::IsEmpty())
      << "keys the config reader takes with no KeyDoc beside it";
  EXPECT_THAT(unread, ::testing::IsEmpty()) << "KeyDocs of keys the config reader never asks for";
}

TEST(ConfigReference, EachKeyIsDocumentedOnce) {
  const std::multiset<std::string> rows = documented().rows;
  std::vector<std::string> twice;
  for (const std::string& row : std::set<std::string>(rows.begin(), rows.end()))
    if (rows.count(row) > 1) twice.push_back(row);
  EXPECT_THAT(twice, ::testing::IsEmpty());
}

TEST(ConfigReference, ThePageShowsWhatTheCodeDocuments) {
  const std::string page = slurp(kSource / "docs/reference/config.md");
  const std::string begin = "<!-- keys: `ssdlab config --keys` -->\n";
  const std::string end = "<!-- end of keys -->";
  const auto from = page.find(begin), to = page.find(end);
  ASSERT_NE(from, std::string::npos) << "docs/reference/config.md lacks the marker " << begin;
  ASSERT_NE(to, std::string::npos) << "docs/reference/config.md lacks the marker " << end;
  EXPECT_EQ(page.substr(from + begin.size(), to - from - begin.size()), config_reference())
      << "docs/reference/config.md's key tables differ from the code's: put the output of "
         "`ssdlab config --keys` between its markers";
}

TEST(ConfigReference, ARowPerKeyUnderItsTable) {
  const std::string text = config_reference();
  EXPECT_THAT(text, ::testing::HasSubstr("#### `[controller.firmware]`\n"));
  EXPECT_THAT(text, ::testing::HasSubstr("| `cores` | 1–256"));
  // An FTL's own key names the FTLs that read it, asked of their hooks.
  EXPECT_THAT(text, ::testing::HasSubstr("| `victim_policy` (page-mapped, dftl) |"));
}

}  // namespace
