// The plan keys' reference: docs/reference/plan-keys.md has a row for every
// key of the keys' tables (workloads/plan_keys.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "workloads/plan_keys.h"

namespace {

// A row is a first cell naming the key in backticks (hot_fraction,
// hot_access and zipf had none).
TEST(PlanKeysReference, EveryKeyHasARow) {
  std::ifstream in(std::string(SSDLAB_SOURCE_DIR) + "/docs/reference/plan-keys.md");
  std::set<std::string> documented;
  const std::regex name("`([a-z_]+)`");
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("| `")) continue;
    const std::string first = line.substr(0, line.find(" |", 2));
    for (std::sregex_iterator it(first.begin(), first.end(), name), end; it != end; ++it)
      documented.insert((*it)[1]);
  }
  std::vector<std::string> missing;
  for (const std::string_view key : ssdlab::workloads::plan_key_names())
    if (!documented.count(std::string(key))) missing.emplace_back(key);
  EXPECT_THAT(missing, ::testing::IsEmpty()) << "plan keys without a row in plan-keys.md";
}

}  // namespace
