#include "sim/config.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "common/error.h"
#include "common/units.h"
#include "ftl/pools.h"

namespace ssdlab::sim {
namespace {

// Reads keys of a parsed TOML document, remembering which were read so that
// anything left over is reported as unknown.
class Reader {
 public:
  Reader(const toml::table& root, std::string path, std::map<std::string, std::string> set_origins)
      : root_(root), path_(std::move(path)), set_origins_(std::move(set_origins)) {}

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

  // Returns the node and marks it read; nullptr if absent.
  std::pair<const toml::node*, std::string> find(const char* table, const char* key) {
    const std::string dotted = fmt::format("{}.{}", table, key);
    read_.insert(dotted);
    const toml::table* t = root_[table].as_table();
    return {t ? t->get(key) : nullptr, dotted};
  }

  std::string where(const std::string& dotted, const toml::node* node) const {
    if (auto it = set_origins_.find(dotted); it != set_origins_.end()) return it->second;
    const int line = node ? static_cast<int>(node->source().begin.line) : 0;
    if (line == 0) {  // a key that is missing or has no position: point at its table
      const auto dot = dotted.find('.');
      const toml::node* table = root_.get(dotted.substr(0, dot));
      if (table && table->source().begin.line)
        return fmt::format("{}:{}", path_, table->source().begin.line);
      return path_;
    }
    return fmt::format("{}:{}", path_, line);
  }

  // Every table and key present must have been read.
  void reject_unknown() const {
    static const std::set<std::string> kTables = {"device", "geometry", "timing",
                                                  "ftl",    "host",     "controller"};
    for (const auto& [table_key, table_node] : root_) {
      const std::string table(table_key.str());
      if (!kTables.count(table)) {
        // A table that only a --set override created has no line in the file.
        std::string origin = fmt::format("{}:{}", path_, table_node.source().begin.line);
        for (const auto& [dotted, set] : set_origins_)
          if (dotted.starts_with(table + ".")) origin = set;
        throw make_error(
            "{}: unknown table '{}' (known: device, geometry, timing, ftl, host, "
            "controller)",
            origin, table);
      }
      if (!table_node.is_table())
        throw make_error("{}:{}: '{}' must be a table ([{}]), not a value or an array", path_,
                         table_node.source().begin.line, table, table);
      for (const auto& [key, node] : *table_node.as_table()) {
        const std::string dotted = fmt::format("{}.{}", table, key.str());
        if (!read_.count(dotted)) {
          std::string known;
          for (const auto& name : read_)
            if (name.starts_with(table + "."))
              known += (known.empty() ? "" : ", ") + name.substr(table.size() + 1);
          throw make_error("{}: unknown key '{}' (known in [{}]: {})", where(dotted, &node), dotted,
                           table, known);
        }
      }
    }
  }

 private:
  const toml::table& root_;
  std::string path_;
  std::map<std::string, std::string> set_origins_;
  std::set<std::string> read_;
};

toml::table parse(const std::string& path) {
  try {
    return toml::parse_file(path);
  } catch (const toml::parse_error& error) {
    if (error.source().begin.line == 0) throw make_error("{}: {}", path, error.description());
    throw make_error("{}:{}: {}", path, error.source().begin.line, error.description());
  }
}

// Applies "table.key=value" overrides; returns where each came from.
std::map<std::string, std::string> apply_overrides(toml::table& root,
                                                   const std::vector<std::string>& overrides) {
  std::map<std::string, std::string> origins;
  for (const auto& text : overrides) {
    const std::string origin = fmt::format("--set {}", text);
    const auto equals = text.find('=');
    const auto dot = text.find('.');
    if (equals == std::string::npos || dot == std::string::npos || dot > equals)
      throw make_error("{}: expected table.key=value, e.g. timing.read_us=30", origin);
    const std::string table = text.substr(0, dot), key = text.substr(dot + 1, equals - dot - 1);
    toml::table parsed;
    try {
      parsed = toml::parse("value = " + text.substr(equals + 1));
    } catch (const toml::parse_error& error) {
      // A bare word is taken as a string: --set ftl.allocation_pool=die
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

// Ganging (Agrawal et al. §3.3, Figures 4 and 5): checks that the gang fits
// the channels and, for a synchronous gang, turns the geometry into its
// lockstep view (flash/geometry.h, Gang::kSharedControlSync).
void read_gang(Reader& r, flash::Geometry& g) {
  std::string name = flash::gang_name(g.gang);
  r.string("geometry", "gang", name);
  if (!flash::parse_gang(name, g.gang)) {
    const auto [node, dotted] = r.find("geometry", "gang");
    r.fail(dotted, node,
           fmt::format("'{}' is not a gang organisation (none, shared-bus, shared-control-async, "
                       "shared-control-sync)",
                       name));
  }
  const toml::node* size_node = r.find("geometry", "gang_size").first;
  if (g.gang == flash::Gang::kSharedBus && !size_node) g.gang_size = g.packages_per_channel;
  r.integer("geometry", "gang_size", g.gang_size, 1, 1024);
  // Points at gang_size, or at gang where the size was left out.
  const auto fail_size = [&r, size_node](const std::string& what) {
    if (size_node) r.fail("geometry.gang_size", size_node, what);
    r.fail("geometry.gang", r.find("geometry", "gang").first, what);
  };
  switch (g.gang) {
    case flash::Gang::kNone:
      if (g.gang_size != 1)
        fail_size(
            fmt::format("{} packages per gang need a gang organisation: set geometry.gang "
                        "(shared-bus, shared-control-async or shared-control-sync)",
                        g.gang_size));
      return;
    case flash::Gang::kSharedBus:
      // The model's channel is a shared bus: the gang is its packages.
      if (g.gang_size < 2 || g.gang_size != g.packages_per_channel)
        fail_size(
            fmt::format("a shared-bus gang is the packages of one bus: gang_size {} must "
                        "equal packages_per_channel {} and be at least 2 (for {} packages "
                        "in gangs of N: channels = {} / N, packages_per_channel = N)",
                        g.gang_size, g.packages_per_channel, g.packages(), g.packages()));
      return;
    case flash::Gang::kSharedControlAsync:
    case flash::Gang::kSharedControlSync:
      if (!size_node)
        fail_size("a shared-control gang needs geometry.gang_size (packages per gang)");
      if (g.packages_per_channel != 1)
        fail_size(
            fmt::format("a shared-control gang's packages each have their own data path: "
                        "packages_per_channel must be 1 (got {})",
                        g.packages_per_channel));
      if (g.gang_size < 2 || g.channels % g.gang_size != 0)
        fail_size(fmt::format("gang_size {} must be at least 2 and divide the {} channels",
                              g.gang_size, g.channels));
      break;
  }
  if (g.gang != flash::Gang::kSharedControlSync) return;
  if (std::uint64_t{g.page_size} * g.gang_size > (1u << 24))
    fail_size(fmt::format("a gang page of {} x {} bytes is over the 16 MiB ssdlab supports",
                          g.gang_size, g.page_size));
  // Lockstep: one unit per gang, its page the members' pages side by side.
  g.channels /= g.gang_size;
  g.page_size *= g.gang_size;
  g.oob_size *= g.gang_size;
}

void read_geometry(Reader& r, flash::Geometry& g) {
  r.integer("geometry", "channels", g.channels, 1, 1024);
  r.integer("geometry", "packages_per_channel", g.packages_per_channel, 1, 64);
  r.integer("geometry", "dies_per_package", g.dies_per_package, 1, 16);
  r.integer("geometry", "planes_per_die", g.planes_per_die, 1, 16);
  r.integer("geometry", "blocks_per_plane", g.blocks_per_plane, 1, 1 << 20);
  r.integer("geometry", "pages_per_block", g.pages_per_block, 1, 4096);
  r.size("geometry", "page_size", g.page_size, 512, 1 << 16);
  r.size("geometry", "oob_size", g.oob_size, 0, 1 << 13);
  r.integer("geometry", "pe_cycles", g.pe_cycles, 1, 1'000'000'000);
  if (g.page_size % 512 != 0) {
    const auto [node, dotted] = r.find("geometry", "page_size");
    r.fail(dotted, node, fmt::format("{} is not a multiple of 512", g.page_size));
  }
  const auto [pairs_node, pairs_key] = r.find("geometry", "two_plane_pairs");
  if (pairs_node) {
    const toml::array* pairs = pairs_node->as_array();
    if (!pairs)
      r.fail(pairs_key, pairs_node, "expected an array of plane pairs, e.g. [[0, 1], [2, 3]]");
    g.two_plane_pairs.clear();
    for (const toml::node& pair : *pairs) {
      const toml::array* two = pair.as_array();
      std::optional<std::int64_t> a, b;
      if (two && two->size() == 2)
        a = (*two)[0].value_exact<std::int64_t>(), b = (*two)[1].value_exact<std::int64_t>();
      if (!a || !b || *a < 0 || *b < 0 || *a >= g.planes_per_die || *b >= g.planes_per_die ||
          *a == *b)
        r.fail(pairs_key, pairs_node,
               fmt::format("each pair is two different planes of a die, 0 to {}",
                           g.planes_per_die - 1));
      g.two_plane_pairs.emplace_back(static_cast<std::uint32_t>(*a),
                                     static_cast<std::uint32_t>(*b));
    }
  } else if (g.planes_per_die < 4) {
    // The Samsung default pairs 0&1, 2&3 only where those planes exist.
    std::erase_if(g.two_plane_pairs, [&g](const auto& p) { return p.second >= g.planes_per_die; });
  }
  read_gang(r, g);
  // In 64 bits: the 32-bit unit counts of Geometry would wrap first.
  const std::uint64_t pages = std::uint64_t{g.channels} * g.packages_per_channel *
                              g.dies_per_package * g.planes_per_die * g.blocks_per_plane *
                              g.pages_per_block;
  if (pages >= flash::kNoPage) {
    const auto [node, dotted] = r.find("geometry", "blocks_per_plane");
    r.fail(dotted, node,
           fmt::format("the device has {} pages; ssdlab addresses fewer than 2^32 "
                       "(use larger pages or fewer blocks)",
                       pages));
  }
}

void read_timing(Reader& r, flash::Timing& t) {
  r.scaled("timing", "read_us", t.read_ns, 1000.0, 0.0, 1e6, false);
  r.scaled("timing", "program_us", t.program_ns, 1000.0, 0.0, 1e6, false);
  r.scaled("timing", "erase_us", t.erase_ns, 1000.0, 0.0, 1e7, false);
  r.scaled("timing", "bus_ns_per_byte", t.bus_ps_per_byte, 1000.0, 0.0, 1e6, false);
  r.scaled("timing", "command_ns", t.command_ns, 1.0, 0.0, 1e6);
}

// Keys of the block-mapped and hybrid FTLs (block-mapped, bast, fast).
void read_block_ftl(Reader& r, const flash::Geometry& g, ftl::FtlConfig& f) {
  const std::uint32_t flash_block = g.pages_per_block * g.page_size;
  r.size("ftl", "virtual_block_size", f.virtual_block_size, 0, 1u << 31);
  if (f.virtual_block_size == 0) f.virtual_block_size = flash_block;
  const std::uint32_t width = f.virtual_block_size / flash_block;
  if (f.virtual_block_size % flash_block != 0 || g.planes() % width != 0) {
    const auto [node, dotted] = r.find("ftl", "virtual_block_size");
    r.fail(dotted, node,
           fmt::format("{} must be a whole number of {}-byte flash blocks, and that number must "
                       "divide the {} planes",
                       f.virtual_block_size, flash_block, g.planes()));
  }
  r.integer("ftl", "log_blocks", f.log_blocks, 1, 1 << 20);
  if (!ftl::is_block_based(f.type)) return;
  if (f.logical_page_size != g.page_size) {
    const auto [node, dotted] = r.find("ftl", "logical_page_size");
    r.fail(dotted, node,
           fmt::format("{} FTL maps whole flash pages: logical_page_size must be {} (got {})",
                       f.type, g.page_size, f.logical_page_size));
  }
  // Log blocks and the blocks merges need must leave room for data.
  // (The same reserves as the FTLs hold back: block-mapped 2, BAST the logs
  // plus 1, FAST the logs plus 2.)
  const std::uint64_t virtual_blocks = std::uint64_t{g.planes() / width} * g.blocks_per_plane;
  if (f.type == "block-mapped" && virtual_blocks <= 2) {
    const auto [node, dotted] = r.find("ftl", "virtual_block_size");
    r.fail(dotted, node,
           fmt::format("{} bytes leaves {} virtual blocks: block-mapped needs at least 3 (one "
                       "for data, one open, one spare)",
                       f.virtual_block_size, virtual_blocks));
  }
  if (f.type != "block-mapped" && f.log_blocks + 2 >= virtual_blocks) {
    const auto [node, dotted] = r.find("ftl", "log_blocks");
    r.fail(dotted, node,
           fmt::format("{} log blocks leave no room for data: the device has {} virtual blocks "
                       "of {} bytes",
                       f.log_blocks, virtual_blocks, f.virtual_block_size));
  }
}

// Wear leveling (Agrawal et al. §5): the mode and its thresholds.
void read_wear(Reader& r, ftl::WearConfig& w) {
  std::string mode = ftl::wear_mode_name(w.mode);
  r.string("ftl", "wear_leveling", mode);
  if (!ftl::parse_wear_mode(mode, w.mode)) {
    const auto [node, dotted] = r.find("ftl", "wear_leveling");
    r.fail(dotted, node,
           fmt::format("'{}' is not a wear-leveling mode (none, rate-limit, migration)", mode));
  }
  r.real("ftl", "wear_age_variance", w.age_variance, 0.0, 1.0, false);
  r.real("ftl", "wear_retirement_age", w.retirement_age, 0.0, 1.0, false);
  r.real("ftl", "wear_cold_age", w.cold_age, 0.0, 1e6);
  // §5: "retirementAge should be less than ageVariance of average remaining
  // lifetime so that cold data can be migrated into a worn out block before
  // rate-limiting kicks in".
  if (w.migration() && w.retirement_age <= 1.0 - w.age_variance) {
    const auto [node, dotted] = r.find("ftl", "wear_retirement_age");
    r.fail(dotted, node,
           fmt::format("{} must be above 1 - wear_age_variance = {}: migration must start before "
                       "rate-limiting (Agrawal et al. §5)",
                       w.retirement_age, 1.0 - w.age_variance));
  }
}

void read_ftl(Reader& r, const flash::Geometry& g, ftl::FtlConfig& f) {
  r.string("ftl", "type", f.type);
  {
    const auto names = ftl::ftl_names();
    if (std::find(names.begin(), names.end(), f.type) == names.end()) {
      const auto [node, dotted] = r.find("ftl", "type");
      r.fail(dotted, node,
             fmt::format("unknown FTL '{}' (known: {})", f.type, fmt::join(names, ", ")));
    }
  }
  r.size("ftl", "logical_page_size", f.logical_page_size, 512, 1u << 30);
  r.size("ftl", "stripe_size", f.stripe_size, 512, 1u << 30);
  std::string pool = ftl::pool_scope_name(f.pool);
  r.string("ftl", "allocation_pool", pool);
  bool known_pool = false;
  for (auto scope : {ftl::PoolScope::kSsd, ftl::PoolScope::kChannel, ftl::PoolScope::kPackage,
                     ftl::PoolScope::kDie, ftl::PoolScope::kPlane}) {
    if (pool == ftl::pool_scope_name(scope)) f.pool = scope, known_pool = true;
  }
  if (!known_pool) {
    const auto [node, dotted] = r.find("ftl", "allocation_pool");
    r.fail(dotted, node,
           fmt::format("'{}' is not a pool scope (ssd, channel, package, die, plane)", pool));
  }
  r.real("ftl", "overprovisioning", f.overprovisioning, 0.0, 0.9);
  r.boolean("ftl", "two_plane", f.two_plane);
  r.boolean("ftl", "copy_back", f.copy_back);
  r.real("ftl", "clean_low_water", f.clean_low_water, 0.0, 0.5, false);
  r.boolean("ftl", "cleaning_blocks_writes", f.cleaning_blocks_writes);
  if (r.real("ftl", "clean_high_water", f.clean_high_water, 0.0, 0.9) && f.clean_high_water > 0 &&
      f.clean_high_water <= f.clean_low_water) {
    const auto [node, dotted] = r.find("ftl", "clean_high_water");
    r.fail(dotted, node,
           fmt::format("{} must be 0 (off) or above clean_low_water {}", f.clean_high_water,
                       f.clean_low_water));
  }

  if (g.lanes() > 1 && f.logical_page_size % g.page_size != 0) {
    // Agrawal et al. §4: "a 8-wide gang would have a page size of 32KB".
    const auto [node, dotted] = r.find("ftl", "logical_page_size");
    r.fail(dotted, node,
           fmt::format("{} is not a multiple of the {}-byte gang page: a shared-control-sync "
                       "gang moves {} pages of {} bytes in lockstep",
                       f.logical_page_size, g.page_size, g.lanes(), g.page_size / g.lanes()));
  }
  if (f.logical_page_size % g.page_size != 0 ||
      g.pages_per_block % (f.logical_page_size / g.page_size) != 0) {
    const auto [node, dotted] = r.find("ftl", "logical_page_size");
    r.fail(dotted, node,
           fmt::format("{} must be a whole number of {}-byte pages that divides the "
                       "{}-page block",
                       f.logical_page_size, g.page_size, g.pages_per_block));
  }
  if (f.stripe_size % f.logical_page_size != 0) {
    const auto [node, dotted] = r.find("ftl", "stripe_size");
    r.fail(dotted, node,
           fmt::format("{} is not a multiple of logical_page_size {}", f.stripe_size,
                       f.logical_page_size));
  }
  read_wear(r, f.wear);
  read_block_ftl(r, g, f);
}

// Host queue ([host]) and controller ([controller]): Agrawal et al. §3.3.
void read_controller(Reader& r, const ftl::FtlConfig& f, ControllerConfig& c) {
  r.integer("host", "queue_depth", c.queue_depth, 0, 65536);
  std::string scheduling = scheduling_name(c.scheduling);
  r.string("host", "scheduling", scheduling);
  if (scheduling == "fifo")
    c.scheduling = Scheduling::kFifo;
  else if (scheduling == "reads-first")
    c.scheduling = Scheduling::kReadsFirst;
  else {
    const auto [node, dotted] = r.find("host", "scheduling");
    r.fail(dotted, node, fmt::format("'{}' is not a policy (fifo, reads-first)", scheduling));
  }
  r.size("controller", "write_buffer", c.write_buffer_bytes, 0, std::uint64_t{1} << 40);
  if (c.write_buffer_bytes % f.logical_page_size != 0) {
    const auto [node, dotted] = r.find("controller", "write_buffer");
    r.fail(dotted, node,
           fmt::format("{} is not a whole number of {}-byte logical pages (0: off)",
                       c.write_buffer_bytes, f.logical_page_size));
  }
  std::string policy = c.write_through ? "write-through" : "write-back";
  r.string("controller", "write_buffer_policy", policy);
  if (policy != "write-back" && policy != "write-through") {
    const auto [node, dotted] = r.find("controller", "write_buffer_policy");
    r.fail(dotted, node, fmt::format("'{}' is not a policy (write-back, write-through)", policy));
  }
  c.write_through = policy == "write-through";
  r.real("controller", "write_buffer_high_water", c.flush_high_water, 0.0, 1.0, false);
  r.real("controller", "write_buffer_low_water", c.flush_low_water, 0.0, 1.0);
  if (c.flush_low_water >= c.flush_high_water) {
    const auto [node, dotted] = r.find("controller", "write_buffer_low_water");
    r.fail(dotted, node,
           fmt::format("{} must be below write_buffer_high_water {}", c.flush_low_water,
                       c.flush_high_water));
  }
  r.scaled("controller", "write_buffer_ns_per_byte", c.buffer_ps_per_byte, 1000.0, 0.0, 1e6);
  r.boolean("controller", "write_buffer_power_protected", c.buffer_power_protected);
  r.boolean("controller", "background_cleaning_preempt", c.preempt_background_cleaning);
}

}  // namespace

const char* scheduling_name(Scheduling scheduling) {
  return scheduling == Scheduling::kReadsFirst ? "reads-first" : "fifo";
}

DeviceConfig load_config(const std::string& path, const std::vector<std::string>& overrides) {
  toml::table root = parse(path);
  Reader r(root, path, apply_overrides(root, overrides));
  DeviceConfig config;
  config.source = path;
  r.string("device", "name", config.name);
  read_geometry(r, config.geometry);
  read_timing(r, config.timing);
  read_ftl(r, config.geometry, config.ftl);
  r.integer("host", "sector_size", config.sector_size, 512, 65536);
  if (config.sector_size & (config.sector_size - 1) ||
      config.ftl.logical_page_size % config.sector_size) {
    const auto [node, dotted] = r.find("host", "sector_size");
    r.fail(dotted, node,
           fmt::format("{} must be a power of two dividing the logical page size",
                       config.sector_size));
  }
  read_controller(r, config.ftl, config.controller);
  r.reject_unknown();
  return config;
}

nlohmann::json to_json(const DeviceConfig& c) {
  const auto& g = c.geometry;
  const auto& t = c.timing;
  const auto& f = c.ftl;
  nlohmann::json pairs = nlohmann::json::array();
  for (const auto& [a, b] : g.two_plane_pairs) pairs.push_back({a, b});
  return {
      {"source", c.source},
      {"name", c.name},
      // As written: a synchronous gang's lockstep view is undone.
      {"geometry",
       {{"channels", g.channels * g.lanes()},
        {"packages_per_channel", g.packages_per_channel},
        {"dies_per_package", g.dies_per_package},
        {"planes_per_die", g.planes_per_die},
        {"blocks_per_plane", g.blocks_per_plane},
        {"pages_per_block", g.pages_per_block},
        {"page_size", g.page_size / g.lanes()},
        {"oob_size", g.oob_size / g.lanes()},
        {"two_plane_pairs", pairs},
        {"pe_cycles", g.pe_cycles},
        {"gang", flash::gang_name(g.gang)},
        {"gang_size", g.gang_size}}},
      {"timing",
       {{"read_us", t.read_ns / 1000.0},
        {"program_us", t.program_ns / 1000.0},
        {"erase_us", t.erase_ns / 1000.0},
        {"bus_ns_per_byte", t.bus_ps_per_byte / 1000.0},
        {"command_ns", t.command_ns}}},
      {"ftl",
       {{"type", f.type},
        {"logical_page_size", f.logical_page_size},
        {"stripe_size", f.stripe_size},
        {"allocation_pool", ftl::pool_scope_name(f.pool)},
        {"overprovisioning", f.overprovisioning},
        {"two_plane", f.two_plane},
        {"copy_back", f.copy_back},
        {"clean_low_water", f.clean_low_water},
        {"clean_high_water", f.clean_high_water},
        {"cleaning_blocks_writes", f.cleaning_blocks_writes},
        {"virtual_block_size", f.virtual_block_size},
        {"log_blocks", f.log_blocks},
        {"wear_leveling", ftl::wear_mode_name(f.wear.mode)},
        {"wear_age_variance", f.wear.age_variance},
        {"wear_retirement_age", f.wear.retirement_age},
        {"wear_cold_age", f.wear.cold_age}}},
      {"host",
       {{"sector_size", c.sector_size},
        {"queue_depth", c.controller.queue_depth},
        {"scheduling", scheduling_name(c.controller.scheduling)}}},
      {"controller",
       {{"write_buffer", c.controller.write_buffer_bytes},
        {"write_buffer_policy", c.controller.write_through ? "write-through" : "write-back"},
        {"write_buffer_high_water", c.controller.flush_high_water},
        {"write_buffer_low_water", c.controller.flush_low_water},
        {"write_buffer_ns_per_byte", c.controller.buffer_ps_per_byte / 1000.0},
        {"write_buffer_power_protected", c.controller.buffer_power_protected},
        {"background_cleaning_preempt", c.controller.preempt_background_cleaning}}},
  };
}

namespace {

void describe_block_ftl(const DeviceConfig& c, std::back_insert_iterator<std::string> it) {
  const auto& g = c.geometry;
  const std::uint32_t flash_block = g.pages_per_block * g.page_size;
  const std::uint32_t width = c.ftl.virtual_block_size / flash_block;
  fmt::format_to(it,
                 "  ftl         {}, virtual block {} ({} flash block{} striped over {} plane{}, "
                 "{} plane group{})\n",
                 c.ftl.type, format_size(c.ftl.virtual_block_size), width, width > 1 ? "s" : "",
                 width, width > 1 ? "s" : "", g.planes() / width,
                 g.planes() / width > 1 ? "s" : "");
  if (c.ftl.type == "block-mapped")
    fmt::format_to(it,
                   "  merges      one open block (read-modify-write of a whole virtual block)\n");
  else
    fmt::format_to(it, "  merges      {} {}log blocks{}; switch, partial and full merges\n",
                   c.ftl.log_blocks, c.ftl.type == "fast" ? "random-write " : "",
                   c.ftl.type == "fast" ? " plus one sequential log block" : "");
  fmt::format_to(it, "  two-plane   {}; copy-back {}\n", c.ftl.two_plane ? "on" : "off",
                 c.ftl.copy_back ? "on" : "off");
}

// How packages reach the controller (Agrawal et al. §3.3).
void describe_gang(const flash::Geometry& g, std::back_insert_iterator<std::string> it) {
  const std::uint32_t packages = g.physical_packages();
  switch (g.gang) {
    case flash::Gang::kNone:
      fmt::format_to(it, "  gangs       none: {} bus{} for {} package{} ({} per bus)\n", g.channels,
                     g.channels > 1 ? "es" : "", packages, packages > 1 ? "s" : "",
                     g.packages_per_channel);
      return;
    case flash::Gang::kSharedBus:
      fmt::format_to(it,
                     "  gangs       shared-bus: {} gang{} of {} packages, each on one data and "
                     "control bus (chip enables pick the target): {} bus{} for {} packages\n",
                     g.channels, g.channels > 1 ? "s" : "", g.gang_size, g.channels,
                     g.channels > 1 ? "es" : "", packages);
      return;
    case flash::Gang::kSharedControlAsync:
      fmt::format_to(it,
                     "  gangs       shared-control-async: {} gang{} of {} packages: {} data "
                     "buses, {} shared control bus{} (command cycles); members work "
                     "independently\n",
                     g.control_buses(), g.control_buses() > 1 ? "s" : "", g.gang_size, g.channels,
                     g.control_buses(), g.control_buses() > 1 ? "es" : "");
      return;
    case flash::Gang::kSharedControlSync:
      fmt::format_to(it,
                     "  gangs       shared-control-sync: {} gang{} of {} packages in lockstep: "
                     "gang page {} = {} x {}, moved over {} data paths at once\n",
                     g.channels, g.channels > 1 ? "s" : "", g.gang_size, format_size(g.page_size),
                     g.gang_size, format_size(g.page_size / g.lanes()), g.lanes());
      return;
  }
}

}  // namespace

std::string describe(const DeviceConfig& c, std::uint64_t logical_pages) {
  const auto& g = c.geometry;
  const auto& t = c.timing;
  const std::uint32_t pools = ftl::PoolLayout::pool_count(g, c.ftl.pool);
  const std::uint64_t logical_bytes = logical_pages * c.ftl.logical_page_size;
  std::string out;
  auto it = std::back_inserter(out);
  fmt::format_to(it, "{}{}\n", c.source, c.name.empty() ? "" : " — " + c.name);
  fmt::format_to(it,
                 "  flash       {} channels x {} packages x {} dies x {} planes x {} blocks x {} "
                 "pages of {} + {} B\n",
                 g.channels * g.lanes(), g.packages_per_channel, g.dies_per_package,
                 g.planes_per_die, g.blocks_per_plane, g.pages_per_block, g.page_size / g.lanes(),
                 g.oob_size / g.lanes());
  describe_gang(g, it);
  fmt::format_to(it, "  units       {} {}, {} dies, {} planes, {} blocks, {} pages{}\n",
                 g.packages(),
                 g.lanes() == 1     ? "packages"
                 : g.packages() > 1 ? "gang units"
                                    : "gang unit",
                 g.dies(), g.planes(), g.blocks(), g.pages(),
                 g.lanes() > 1 ? fmt::format(" of {} (lockstep view)", format_size(g.page_size))
                               : std::string());
  fmt::format_to(it, "  physical    {} ({} bytes); block {}\n", format_size(g.capacity_bytes()),
                 g.capacity_bytes(), format_size(std::uint64_t{g.pages_per_block} * g.page_size));
  fmt::format_to(
      it, "  logical     {} ({} bytes) after {:.1f}% over-provisioning; {} logical pages of {}\n",
      format_size(logical_bytes), logical_bytes, c.ftl.overprovisioning * 100, logical_pages,
      format_size(c.ftl.logical_page_size));
  if (ftl::is_block_based(c.ftl.type)) {
    describe_block_ftl(c, it);
  } else {
    fmt::format_to(
        it, "  ftl         {}, {} allocation pools ({} each: {} planes, {} blocks), stripe {}\n",
        c.ftl.type, pools, ftl::pool_scope_name(c.ftl.pool), g.planes() / pools, g.blocks() / pools,
        format_size(c.ftl.stripe_size));
    fmt::format_to(it, "  two-plane   {}; copy-back {}\n", c.ftl.two_plane ? "on" : "off",
                   c.ftl.copy_back ? "on" : "off");
  }
  if (!ftl::is_block_based(c.ftl.type))
    fmt::format_to(
        it,
        "  cleaning    greedy; foreground below {:.1f}% free blocks per pool ({}); background {}\n",
        c.ftl.clean_low_water * 100,
        c.ftl.cleaning_blocks_writes ? "writes wait for it" : "in parallel with writes",
        c.ftl.clean_high_water > 0
            ? fmt::format("up to {:.1f}% while a pool is idle", c.ftl.clean_high_water * 100)
            : std::string("off"));
  const auto& w = c.ftl.wear;
  fmt::format_to(it, "  wear        {} P/E cycles rated; leveling {}", g.pe_cycles,
                 ftl::wear_mode_name(w.mode));
  if (w.rate_limit())
    fmt::format_to(it, " (rate-limit below {:.0f}% of mean remaining life",
                   (1 - w.age_variance) * 100);
  if (w.migration())
    fmt::format_to(it, ", migration below {:.0f}%, cold after {} x pool blocks erases",
                   w.retirement_age * 100, w.cold_age);
  fmt::format_to(it, "{}\n", w.rate_limit() ? ")" : "");
  fmt::format_to(
      it, "  timing      read {} us, program {} us, erase {} us, bus {} ns/B, command {} ns\n",
      format_us(t.read_ns), format_us(t.program_ns), format_us(t.erase_ns),
      t.bus_ps_per_byte / 1000.0, t.command_ns);
  const ControllerConfig& k = c.controller;
  fmt::format_to(it, "  host queue  {}, {}\n",
                 k.queue_depth ? fmt::format("depth {}", k.queue_depth) : "unlimited depth",
                 scheduling_name(k.scheduling));
  if (k.write_buffer_bytes)
    fmt::format_to(it,
                   "  buffer      {} {} DRAM write buffer, flush above {:.0f}% down to {:.0f}%, "
                   "{} ns/B to the host\n",
                   format_size(k.write_buffer_bytes),
                   k.write_through ? "write-through" : "write-back", k.flush_high_water * 100,
                   k.flush_low_water * 100, k.buffer_ps_per_byte / 1000.0);
  else
    fmt::format_to(it, "  buffer      none\n");
  if (c.ftl.clean_high_water > 0)
    fmt::format_to(it, "  background  cleaning {} host requests\n",
                   k.preempt_background_cleaning ? "yields to" : "runs a whole round before");
  fmt::format_to(it, "  page        transfer {} us; unloaded read {} us, write {} us\n",
                 format_us(t.page_transfer_ns(g)), format_us(t.page_read_latency(g)),
                 format_us(t.page_program_latency(g)));
  return out;
}

}  // namespace ssdlab::sim
