// The device config's registered parts (config_part.h) and the reference's
// key tables. Adding a part with keys: its own file in sim/config with its
// tables (TableDoc, KeyDoc) and hooks, defining `const ConfigPart NAME`, and
// one line in SSDLAB_CONFIG_PARTS below, which declares and lists it; an
// explicit list (rather than static self-registration) cannot be dropped
// silently by the linker.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cctype>
#include <iterator>
#include <set>
#include <vector>

#include "ftl/ftl.h"
#include "ftl/ftl_keys.h"
#include "sim/config/config_part.h"

// X(name): one line per part, in the order the parts are read and
// described (`ssdlab config` prints their lines after the host queue's).
#define SSDLAB_CONFIG_PARTS(X)                                                  \
  X(host_link_part)         /* [host.link], host.firmware_us */                 \
  X(host_log_part)          /* [host.log] (docs/zns.md) */                      \
  X(controller_limits_part) /* [controller.firmware], [controller.data_path] */ \
  X(thermal_part)           /* [controller.thermal] */                          \
  X(flin_part)              /* [controller.flin] */                             \
  X(read_errors_part)       /* [errors] (docs/errors.md) */                     \
  X(power_part)             /* [power] (flash/nand_power.h) */                  \
  /* new parts above this line */

namespace ssdlab::sim {

#define SSDLAB_DECLARE_PART(name) extern const ConfigPart name;
SSDLAB_CONFIG_PARTS(SSDLAB_DECLARE_PART)
#undef SSDLAB_DECLARE_PART

namespace {

#define SSDLAB_PART_ENTRY(name) &name,
constexpr const ConfigPart* kParts[] = {SSDLAB_CONFIG_PARTS(SSDLAB_PART_ENTRY)};
#undef SSDLAB_PART_ENTRY

using Out = std::back_insert_iterator<std::string>;

void key_rows(std::span<const KeyDoc> keys, Out out) {
  for (const KeyDoc& key : keys) fmt::format_to(out, "| `{}` | {} |\n", key.key, key.what);
}

// [ftl]'s rows of the FTLs' own keys: each key with the FTLs that read it,
// from their hooks (ftl::ftls_reading), in the order the FTLs list them.
// (FTLs may share a table of keys: block-mapped, bast and fast.)
void ftl_key_rows(Out out) {
  std::set<const KeyDoc*> done;
  for (const std::string& type : ftl::ftl_names()) {
    for (const KeyDoc& key : ftl::ftl_key_hooks(type).keys) {
      if (!done.insert(&key).second) continue;
      const std::vector<std::string> readers =
          ftl::ftls_reading(fmt::format("ftl.{}", key.key), flash::Geometry{});
      fmt::format_to(out, "| `{}` ({}) | {} |\n", key.key, fmt::join(readers, ", "), key.what);
    }
  }
}

void table_section(const TableDoc& table, Out out) {
  fmt::format_to(out, "#### `{}`\n\n", table.heading);
  // (An intro reads as the table's first sentence.)
  if (!table.intro.empty())
    fmt::format_to(out, "{:c}{}.\n\n", std::toupper(static_cast<unsigned char>(table.intro[0])),
                   table.intro.substr(1));
  fmt::format_to(out, "| key | what |\n|---|---|\n");
  key_rows(table.keys, out);
  if (table.name == "ftl") ftl_key_rows(out);
  fmt::format_to(out, "\n");
}

// The built-in parts, then the registered ones.
std::vector<const ConfigPart*>& parts() {
  static std::vector<const ConfigPart*> list(std::begin(kParts), std::end(kParts));
  return list;
}

}  // namespace

std::span<const ConfigPart* const> config_parts() {
  return parts();
}

void register_config_part(const ConfigPart& part) {
  parts().push_back(&part);
}

std::string config_reference() {
  std::string text;
  const auto out = std::back_inserter(text);
  // Each core table, then the parts' sub-tables of it ([host.link] after
  // [host]'s own), in the parts' order; after [ftl]'s tables, the FTL
  // parts' ([slc_cache]).
  const auto core = core_tables();
  for (std::size_t i = 0; i < core.size(); ++i) {
    const auto of_ftl = [](const TableDoc& table) {
      return table.name == "ftl" || KeyReader::inside(std::string(table.name), "ftl");
    };
    if (i > 0 && of_ftl(core[i - 1]) && !of_ftl(core[i]))
      for (const ftl::FtlPartKeys* part : ftl::ftl_parts()) table_section(*part->table, out);
    table_section(core[i], out);
    if (core[i].name.find('.') != std::string_view::npos) continue;
    for (const ConfigPart* part : kParts)
      for (const TableDoc& table : part->tables)
        if (KeyReader::inside(std::string(table.name), std::string(core[i].name)))
          table_section(table, out);
  }
  // Then the parts' tables of their own ([errors]), in the parts' order.
  for (const ConfigPart* part : kParts)
    for (const TableDoc& table : part->tables)
      if (table.name.find('.') == std::string_view::npos) table_section(table, out);
  return text;
}

}  // namespace ssdlab::sim
