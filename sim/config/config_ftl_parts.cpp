#include "sim/config/config_ftl_parts.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace ssdlab::sim::config_detail {

void add_ftl_part_tables(std::vector<std::string>& tables) {
  auto at = std::find(tables.begin(), tables.end(), "ftl");
  if (at != tables.end()) ++at;
  for (const ftl::FtlPartKeys* part : ftl::ftl_parts())
    at = tables.emplace(at, part->table->name) + 1;
}

void read_ftl_parts(KeyReader& r, const flash::Geometry& g, ftl::FtlConfig& f) {
  const auto taken = ftl::ftl_key_hooks(f.type).parts;
  for (const ftl::FtlPartKeys* part : ftl::ftl_parts()) {
    part->read(r, g, f);
    if (!part->on(f) || std::find(taken.begin(), taken.end(), part) != taken.end()) continue;
    const std::string table(part->table->name), key(part->table->keys.front().key);
    const auto [node, dotted] = r.find(table.c_str(), key.c_str());
    r.fail(dotted, node,
           fmt::format("the {} FTL has no {} (FTLs with one: {})", f.type, part->what,
                       fmt::join(ftl::ftls_taking(*part), ", ")));
  }
}

void echo_ftl_parts(const ftl::FtlConfig& f, nlohmann::json& echo) {
  for (const ftl::FtlPartKeys* part : ftl::ftl_parts())
    if (part->on(f)) part->echo(f, echo);
}

std::string describe_ftl_parts(const ftl::FtlConfig& f) {
  std::string text;
  for (const ftl::FtlPartKeys* part : ftl::ftl_parts())
    if (part->on(f)) part->describe(f, text);
  return text;
}

}  // namespace ssdlab::sim::config_detail
