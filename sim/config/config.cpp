#include "sim/config/config.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "common/error.h"
#include "common/file_kind.h"
#include "common/toml_keys.h"
#include "common/toml_text.h"
#include "common/units.h"
#include "ftl/ftl_keys.h"
#include "ftl/pools.h"
#include "sim/config/config_ftl_parts.h"
#include "sim/config/config_host.h"
#include "sim/config/config_part.h"
#include "sim/config/config_reader.h"

namespace ssdlab::sim {
namespace {

using config_detail::apply_overrides;
using config_detail::refuse_slc_time;

void read_geometry(KeyReader& r, flash::Geometry& g) {
  r.integer("geometry", "channels", g.channels, 1, 1024);
  r.integer("geometry", "packages_per_channel", g.packages_per_channel, 1, 64);
  r.integer("geometry", "dies_per_package", g.dies_per_package, 1, 16);
  r.integer("geometry", "planes_per_die", g.planes_per_die, 1, 16);
  r.integer("geometry", "blocks_per_plane", g.blocks_per_plane, 1, 1 << 20);
  r.integer("geometry", "pages_per_block", g.pages_per_block, 1, 4096);
  config_detail::read_cell_type(r, g);  // (its pe_cycles default, below)
  config_detail::check_cell_geometry(r, g);
  r.size("geometry", "page_size", g.page_size, 512, 1 << 16);
  r.size("geometry", "oob_size", g.oob_size, 0, 1 << 13);
  r.integer("geometry", "pe_cycles", g.pe_cycles, 1, 1'000'000'000);
  if (g.page_size % 512 != 0) {
    const auto [node, dotted] = r.find("geometry", "page_size");
    r.fail(dotted, node, fmt::format("{} is not a multiple of 512", g.page_size));
  }
  config_detail::read_two_plane_pairs(r, g);
  config_detail::read_gang(r, g);
  // DiskSim's synchronous gang is one queued element served one request at a time
  // (ssd_gang.c:247-260): the gang unit's dies do not interleave unless the config says so.
  if (g.gang == flash::Gang::kSharedBusSync) g.interleaving = flash::Interleaving::kNone;
  std::string interleaving = flash::interleaving_name(g.interleaving);
  r.string("geometry", "interleaving", interleaving);
  if (!flash::parse_interleaving(interleaving, g.interleaving)) {
    const auto [node, dotted] = r.find("geometry", "interleaving");
    r.fail(dotted, node,
           fmt::format("'{}' is not an interleaving (none, dies, planes)", interleaving));
  }
  config_detail::read_multi_plane(r, g);
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

// What a host read moves over the bus (flash::ReadTransfer): whole pages, or
// the ECC codewords that hold its bytes. A codeword's data bytes divide the
// page; a synchronous gang moves member pages instead (Command::read_units).
void read_read_transfer(KeyReader& r, const flash::Geometry& g, flash::Timing& t) {
  std::string name = flash::read_transfer_name(t.read_transfer);
  r.string("timing", "read_transfer", name);
  if (!flash::parse_read_transfer(name, t.read_transfer)) {
    const auto [node, dotted] = r.find("timing", "read_transfer");
    r.fail(dotted, node, fmt::format("'{}' is not a read transfer (page, codeword)", name));
  }
  r.size("timing", "codeword_bytes", t.codeword_bytes, 512, 1u << 20);
  if (t.read_transfer != flash::ReadTransfer::kCodeword) return;
  if (g.lockstep()) {
    const auto [node, dotted] = r.find("timing", "read_transfer");
    r.fail(dotted, node,
           fmt::format("'codeword' needs a page of one package: a {} gang moves its member "
                       "pages (gang = \"none\" or an asynchronous gang)",
                       flash::gang_name(g.gang)));
  }
  if (g.page_size % t.codeword_bytes != 0) {
    const auto [node, dotted] = r.find("timing", "codeword_bytes");
    r.fail(dotted, node,
           fmt::format("{} does not divide the {}-byte page", t.codeword_bytes, g.page_size));
  }
}

void read_timing(KeyReader& r, const flash::Geometry& g, flash::Timing& t) {
  if (!refuse_slc_time(r, g, "read_us"))
    r.scaled("timing", "read_us", t.read_ns, 1000.0, 0.0, 1e6, false);
  if (!refuse_slc_time(r, g, "program_us"))
    r.scaled("timing", "program_us", t.program_ns, 1000.0, 0.0, 1e6, false);
  if (!refuse_slc_time(r, g, "erase_us"))
    r.scaled("timing", "erase_us", t.erase_ns, 1000.0, 0.0, 1e7, false);
  r.scaled("timing", "bus_ns_per_byte", t.bus_ps_per_byte, 1000.0, 0.0, 1e6, false);
  r.scaled("timing", "command_ns", t.command_ns, 1.0, 0.0, 1e6);
  r.boolean("timing", "cache_register", t.cache_register);
  read_read_transfer(r, g, t);
  r.boolean("timing", "independent_plane_reads", t.independent_plane_reads);
  if (t.independent_plane_reads && g.interleaving != flash::Interleaving::kPlanes) {
    const auto [node, dotted] = r.find("timing", "independent_plane_reads");
    r.fail(dotted, node,
           fmt::format("joins the reads of a die's planes, which needs geometry.interleaving = "
                       "\"planes\" (it is \"{}\")",
                       flash::interleaving_name(g.interleaving)));
  }
}

// Codeword reads select the codewords of a logical page that is one flash
// page (sim/controller/read_units.h), or of the map units a read reads
// (sim/controller/map_units.h): then a codeword is a part of the unit.
void check_read_transfer(KeyReader& r, const DeviceConfig& c) {
  if (c.timing.read_transfer != flash::ReadTransfer::kCodeword ||
      c.ftl.logical_page_size == c.geometry.page_size)
    return;
  const auto [node, dotted] = r.find("timing", "read_transfer");
  if (c.ftl.logical_page_size > c.geometry.page_size)
    r.fail(dotted, node,
           fmt::format("'codeword' needs ftl.logical_page_size equal to the {}-byte page (it is "
                       "{}): a logical page of several flash pages reads them whole",
                       c.geometry.page_size, c.ftl.logical_page_size));
  if (c.ftl.logical_page_size % c.timing.codeword_bytes != 0)  // a map unit's codewords
    r.fail(dotted, node,
           fmt::format("'codeword' with map units needs timing.codeword_bytes {} to divide the "
                       "{}-byte map unit (ftl.logical_page_size)",
                       c.timing.codeword_bytes, c.ftl.logical_page_size));
}

// Program/erase suspend (flash/suspend.h: the defaults and their sources).
void read_suspend(KeyReader& r, flash::SuspendTiming& s) {
  r.boolean("timing", "suspend", s.enabled);
  // suspend_us: both suspend times at once (the key before they were two).
  if (double both = 0; r.real("timing", "suspend_us", both, 0.0, 1e6))
    s.program_suspend_ns = s.erase_suspend_ns = std::llround(both * 1000.0);
  r.scaled("timing", "suspend_program_us", s.program_suspend_ns, 1000.0, 0.0, 1e6);
  r.scaled("timing", "suspend_erase_us", s.erase_suspend_ns, 1000.0, 0.0, 1e6);
  r.scaled("timing", "resume_us", s.resume_ns, 1000.0, 0.0, 1e6);
  r.integer("timing", "suspend_limit", s.limit, 0, 1'000'000);
  r.scaled("timing", "suspend_min_interval_us", s.min_interval_ns, 1000.0, 0.0, 1e7);
}

// Wear leveling (Agrawal et al. §5): the mode and its thresholds.
void read_wear(KeyReader& r, ftl::WearConfig& w) {
  r.named("ftl", "wear_leveling", w.mode, ftl::wear_mode_name(w.mode), ftl::parse_wear_mode,
          "a wear-leveling mode (none, rate-limit, migration)");
  r.named("ftl", "wear_order", w.order, ftl::wear_order_name(w.order), ftl::parse_wear_order,
          "a wear-leveling order (migration-first, rate-limit-first)");
  r.real("ftl", "wear_age_variance", w.age_variance, 0.0, 1.0, false);
  r.real("ftl", "wear_retirement_age", w.retirement_age, 0.0, 1.0, false);
  r.real("ftl", "wear_cold_age", w.cold_age, 0.0, 1e6);
  // §5: "retirementAge should be less than ageVariance of average remaining lifetime so
  // that cold data can be migrated into a worn out block before rate-limiting kicks in".
  if (w.migration() && w.retirement_age <= 1.0 - w.age_variance) {
    const auto [node, dotted] = r.find("ftl", "wear_retirement_age");
    r.fail(dotted, node,
           fmt::format("{} must be above 1 - wear_age_variance = {}: migration must start before "
                       "rate-limiting (Agrawal et al. §5)",
                       w.retirement_age, 1.0 - w.age_variance));
  }
}

void read_ftl(KeyReader& r, const flash::Geometry& g, ftl::FtlConfig& f) {
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
  // Default: Agrawal et al.'s copy-back (§3.2) on SLC; multi-bit cells move
  // through the controller's ECC (docs/reference/config.md, `copy_back`).
  if (g.cell_type != flash::CellType::kSlc) f.copy_back = false;
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

  if (g.lockstep() && f.logical_page_size % g.page_size != 0) {
    // Agrawal et al. §4: "a 8-wide gang would have a page size of 32KB".
    const auto [node, dotted] = r.find("ftl", "logical_page_size");
    r.fail(dotted, node,
           fmt::format("{} is not a multiple of the {}-byte gang page: a {} gang moves {} pages "
                       "of {} bytes in lockstep",
                       f.logical_page_size, g.page_size, flash::gang_name(g.gang), g.members(),
                       g.page_size / g.members()));
  }
  // Below the flash page: a map unit (page_mapped_units.h; page-mapped and DFTL: their keys check).
  const bool maps_units = f.type == "page-mapped" || f.type == "dftl";
  const bool map_unit = f.logical_page_size < g.page_size && maps_units;
  if (!map_unit && (f.logical_page_size % g.page_size != 0 ||
                    g.pages_per_block % (f.logical_page_size / g.page_size) != 0)) {
    const auto [node, dotted] = r.find("ftl", "logical_page_size");
    r.fail(dotted, node,
           fmt::format("{} must be a whole number of {}-byte pages that divides the {}-page block "
                       "(map units smaller than a page are the page-mapped FTL's and DFTL's)",
                       f.logical_page_size, g.page_size, g.pages_per_block));
  }
  if (f.stripe_size % f.logical_page_size != 0) {
    const auto [node, dotted] = r.find("ftl", "stripe_size");
    r.fail(dotted, node,
           fmt::format("{} is not a multiple of logical_page_size {}", f.stripe_size,
                       f.logical_page_size));
  }
  read_wear(r, f.wear);
  // The rest of [ftl] is the chosen FTL's own keys (ftl/ftl_keys.h).
  if (const auto read_own_keys = ftl::ftl_key_hooks(f.type).read) read_own_keys(r, g, f);
}

// The reason a key of [ftl] that the chosen FTL does not take is refused,
// when other FTLs take it: "only the dftl FTL uses it ('page-mapped' does
// not)"; "" for a key no FTL takes (reported as unknown).
std::string other_ftls_key(const KeyReader& r, const DeviceConfig& config,
                           const std::string& dotted) {
  if (!dotted.starts_with("ftl.")) return "";
  const std::vector<std::string> names = ftl::ftls_reading(dotted, config.geometry);
  if (names.empty()) return "";
  std::string list = names.front();
  for (std::size_t i = 1; i < names.size(); ++i)
    list += (i + 1 == names.size() ? " and " : ", ") + names[i];
  const std::string reason = r.reason(dotted);
  return fmt::format("only the {} FTL{} it ('{}' {})", list,
                     names.size() > 1 ? "s use" : " uses", config.ftl.type,
                     reason.empty() ? "does not" : reason);
}

// Host queue ([host]) and controller ([controller]): Agrawal et al. §3.3.
void read_controller(KeyReader& r, const ftl::FtlConfig& f, ControllerConfig& c) {
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
  r.named(
      "controller", "cleaning_wait", c.cleaning_wait, flash::host_wait_name(c.cleaning_wait),
      [](std::string_view name, flash::HostWait& out) {
        return flash::parse_host_wait(name, out) && out != flash::HostWait::kNone;
      },
      "a cleaning wait (package, request; ftl.cleaning_blocks_writes = false for none)");
  r.named("controller", "dispatch_order", c.dispatch_order,
          flash::dispatch_order_name(c.dispatch_order), flash::parse_dispatch_order,
          "a dispatch order: fifo, fewest-queued, flin, or read, write and cleaning in priority "
          "order joined by '>' (e.g. read>write>cleaning)");
}

}  // namespace

const char* scheduling_name(Scheduling scheduling) {
  return scheduling == Scheduling::kReadsFirst ? "reads-first" : "fifo";
}

DeviceConfig load_config(const std::string& path, const std::vector<std::string>& overrides) {
  toml::table root = config_detail::parse_config_file(path);
  return config_detail::read_config(root, path, overrides);
}

namespace config_detail {

DeviceConfig read_config(toml::table& root, const std::string& path,
                         const std::vector<std::string>& overrides,
                         std::set<std::string>* keys_read) {
  std::map<std::string, std::string> origins = apply_overrides(root, overrides);
  hoist_cell_tables(root);
  std::vector<std::string> tables;  // (an array's tables are named by hoist_table_arrays)
  for (const TableDoc& table : core_tables())
    if (!table.heading.starts_with("[[")) tables.emplace_back(table.name);
  add_ftl_part_tables(tables);                   // ([slc_cache], after [ftl])
  for (const ConfigPart* part : config_parts())  // (a sub-table is read as a top-level one)
    for (const TableDoc& table : part->tables) {
      const std::string name(table.name);
      if (const auto dot = name.find('.'); dot != std::string::npos)
        hoist_sub_table(root, name.substr(0, dot), name.substr(dot + 1));
      tables.push_back(name);
    }
  const HoistedArrays arrays = hoist_table_arrays(root, origins);
  tables.insert(tables.end(), arrays.tables.begin(), arrays.tables.end());
  KeyReader r(root, path, std::move(tables), std::move(origins));
  DeviceConfig config;
  config.source = path;
  r.string("device", "name", config.name);
  read_geometry(r, config.geometry);
  read_timing(r, config.geometry, config.timing);
  config_detail::read_cell_timing(r, root, config.geometry, config.timing);
  read_suspend(r, config.suspend);
  read_ftl(r, config.geometry, config.ftl);
  check_read_transfer(r, config);
  read_ftl_parts(r, config.geometry, config.ftl);
  read_placement_map(r, arrays.placement_ranges, config.ftl);
  r.integer("host", "sector_size", config.sector_size, 512, 65536);
  if (config.sector_size & (config.sector_size - 1) ||
      config.ftl.logical_page_size % config.sector_size) {
    const auto [node, dotted] = r.find("host", "sector_size");
    r.fail(dotted, node,
           fmt::format("{} must be a power of two dividing the logical page size",
                       config.sector_size));
  }
  config.ftl.sector_size = config.sector_size;  // the summary page's unit
  if (config.timing.cell.program == flash::ProgramScheme::kOneShot &&  // (SLC: 1 bit, 1 page)
      ftl::ftl_key_hooks(config.ftl.type).one_shot_wordlines)
    config.ftl.wordline_pages = config.geometry.bits_per_cell();
  read_controller(r, config.ftl, config.controller);
  read_host_queues(r, arrays.queues, config.controller.host_queues);
  read_namespaces(r, arrays.namespaces, config.ftl.logical_page_size, config.namespaces);
  for (const ConfigPart* part : config_parts())
    if (part->read) part->read(r, config);
  if (keys_read) *keys_read = r.keys_read();
  r.reject_unknown(
      [&](const std::string& dotted) { return other_ftls_key(r, config, dotted); });
  return config;
}

}  // namespace config_detail

}  // namespace ssdlab::sim
