// What a loaded config means, for people and for summary.json: to_json()
// echoes every key as the run used it, describe() prints the derived
// geometry, organisation and FTL (`ssdlab config`).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "common/units.h"
#include "ftl/pools.h"
#include "sim/config/capacity.h"
#include "sim/config/config.h"

namespace ssdlab::sim {

nlohmann::json to_json(const DeviceConfig& c) {
  const auto& g = c.geometry;
  const flash::Geometry written = flash::as_written(g);
  const auto& t = c.timing;
  const auto& f = c.ftl;
  nlohmann::json pairs = nlohmann::json::array();
  for (const auto& [a, b] : g.two_plane_pairs) pairs.push_back({a, b});
  nlohmann::json json = {
      {"source", c.source},
      {"name", c.name},
      // As written: a synchronous gang's lockstep view is undone.
      {"geometry",
       {{"channels", written.channels},
        {"packages_per_channel", written.packages_per_channel},
        {"dies_per_package", g.dies_per_package},
        {"planes_per_die", g.planes_per_die},
        {"blocks_per_plane", g.blocks_per_plane},
        {"pages_per_block", g.pages_per_block},
        {"page_size", written.page_size},
        {"oob_size", written.oob_size},
        {"two_plane_pairs", pairs},
        {"pe_cycles", g.pe_cycles},
        {"gang", flash::gang_name(g.gang)},
        {"gang_size", g.gang_size},
        {"interleaving", flash::interleaving_name(g.interleaving)}}},
      {"timing",
       {{"read_us", t.read_ns / 1000.0},
        {"program_us", t.program_ns / 1000.0},
        {"erase_us", t.erase_ns / 1000.0},
        {"bus_ns_per_byte", t.bus_ps_per_byte / 1000.0},
        {"command_ns", t.command_ns},
        {"cache_register", t.cache_register}}},
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
        {"wear_cold_age", f.wear.cold_age},
        {"wear_order", ftl::wear_order_name(f.wear.order)}}},
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
        {"background_cleaning_preempt", c.controller.preempt_background_cleaning},
        {"cleaning_wait", flash::host_wait_name(c.controller.cleaning_wait)},
        {"dispatch_order", flash::dispatch_order_name(c.controller.dispatch_order)}}},
  };
  // Keys only some FTLs read (the config loader refuses them elsewhere, so the
  // echo, which checkpoints and state-info load back, leaves them out too).
  if (f.type == "page-mapped" || f.type == "dftl") {
    json["ftl"]["victim_policy"] = ftl::victim_policy_name(f.victim.kind);
    json["ftl"]["victim_choices"] = f.victim.choices;
    json["ftl"]["clean_scope"] = ftl::clean_scope_name(f.clean_scope);
    json["ftl"]["plane_choice"] = ftl::plane_choice_name(f.plane_choice);
    // (Only when on: an echo from before the key loads back the same.)
    if (f.summary_page) json["ftl"]["summary_page"] = true;
  }
  if (f.type == "page-mapped" || f.type == "dftl" || ftl::is_block_based(f.type))
    json["ftl"]["clean_granularity"] = ftl::clean_granularity_name(f.clean_granularity);
  if (f.clean_granularity == ftl::CleanGranularity::kIncremental)
    json["ftl"]["clean_incremental_pages"] = f.clean_incremental_pages;
  if (f.type == "dftl") {
    json["ftl"]["map_cache_entries"] = f.map_cache_entries;
    json["ftl"]["map_cache_prefetch"] = f.map_cache_prefetch;
  }
  return json;
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
    case flash::Gang::kSharedBusSync:
      fmt::format_to(it,
                     "  gangs       shared-bus-sync: {} gang{} of {} packages in lockstep on one "
                     "bus each: gang page {} = {} x {}, moved one member page after another; "
                     "one queued unit per gang\n",
                     g.channels, g.channels > 1 ? "s" : "", g.gang_size, format_size(g.page_size),
                     g.gang_size, format_size(g.page_size / g.members()));
      return;
  }
}

// Wear leveling, timing and the controller (host queue, write buffer,
// background cleaning), and the unloaded page costs.
template <typename Out>
void describe_wear_timing_controller(const DeviceConfig& c, Out it) {
  const auto& g = c.geometry;
  const auto& t = c.timing;
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
  if (g.gang == flash::Gang::kSharedBusSync)  // DiskSim's costs (ssd_gang.c:194-400)
    fmt::format_to(it,
                   "  member      transfer {} us; unloaded read of one member page {} us, "
                   "write of part of a gang page {} us (register read, gang page in, program)\n",
                   format_us(t.member_transfer_ns(g)),
                   format_us(t.command_ns + t.read_ns + t.member_transfer_ns(g)),
                   format_us(t.command_ns + t.read_ns + t.page_transfer_ns(g) + t.program_ns));
}

// Nominal over-provisioning beside the spare the device has in fact.
template <typename Out>
void describe_spare(const SpareCapacity& spare, Out it) {
  fmt::format_to(it,
                 "  spare       {:.1f}% nominal (ftl.overprovisioning); {:.1f}% in fact beyond "
                 "the exported capacity",
                 spare.nominal * 100, spare.effective() * 100);
  if (spare.open_blocks > 0)
    fmt::format_to(it, ", {:.1f}% less the {} open blocks", spare.less_open_blocks() * 100,
                   spare.open_blocks);
  if (spare.kept_free_blocks > 0)
    fmt::format_to(it, ", {:.1f}% less also the {} free blocks cleaning keeps",
                   spare.less_open_and_free_blocks() * 100, spare.kept_free_blocks);
  fmt::format_to(it, "\n");
}

}  // namespace

std::string describe(const DeviceConfig& c, const SpareCapacity& spare) {
  const auto& g = c.geometry;
  const flash::Geometry written = flash::as_written(g);
  const std::uint32_t pools = ftl::PoolLayout::pool_count(g, c.ftl.pool);
  const std::uint64_t logical_bytes = spare.logical_bytes;
  const std::uint64_t logical_pages = logical_bytes / c.ftl.logical_page_size;
  std::string out;
  auto it = std::back_inserter(out);
  fmt::format_to(it, "{}{}\n", c.source, c.name.empty() ? "" : " — " + c.name);
  fmt::format_to(it,
                 "  flash       {} channels x {} packages x {} dies x {} planes x {} blocks x {} "
                 "pages of {} + {} B\n",
                 written.channels, written.packages_per_channel, g.dies_per_package,
                 g.planes_per_die, g.blocks_per_plane, g.pages_per_block, written.page_size,
                 written.oob_size);
  describe_gang(g, it);
  fmt::format_to(it, "  units       {} {}, {} dies, {} planes, {} blocks, {} pages{}\n",
                 g.packages(),
                 !g.lockstep()      ? "packages"
                 : g.packages() > 1 ? "gang units"
                                    : "gang unit",
                 g.dies(), g.planes(), g.blocks(), g.pages(),
                 g.lockstep() ? fmt::format(" of {} (lockstep view)", format_size(g.page_size))
                              : std::string());
  fmt::format_to(it, "  physical    {} ({} bytes); block {}\n", format_size(g.capacity_bytes()),
                 g.capacity_bytes(), format_size(std::uint64_t{g.pages_per_block} * g.page_size));
  fmt::format_to(
      it, "  logical     {} ({} bytes) after {:.1f}% over-provisioning; {} logical pages of {}\n",
      format_size(logical_bytes), logical_bytes, c.ftl.overprovisioning * 100, logical_pages,
      format_size(c.ftl.logical_page_size));
  describe_spare(spare, it);
  // The flash scheduler (flash/scheduler.h).
  fmt::format_to(it, "  scheduler   interleaving {}; cache register {}; dispatch {}\n",
                 flash::interleaving_name(g.interleaving), c.timing.cache_register ? "on" : "off",
                 flash::dispatch_order_name(c.controller.dispatch_order));
  if (ftl::is_block_based(c.ftl.type)) {
    describe_block_ftl(c, it);
  } else {
    fmt::format_to(
        it, "  ftl         {}, {} allocation pools ({} each: {} planes, {} blocks), stripe {}\n",
        c.ftl.type, pools, ftl::pool_scope_name(c.ftl.pool), g.planes() / pools, g.blocks() / pools,
        format_size(c.ftl.stripe_size));
    fmt::format_to(it, "  two-plane   {}; copy-back {}\n", c.ftl.two_plane ? "on" : "off",
                   c.ftl.copy_back ? "on" : "off");
    if (c.ftl.summary_page)
      fmt::format_to(it,
                     "  summary     {} data pages and a summary page per block ({} bytes "
                     "over the bus); the mount reads it for a closed block\n",
                     g.pages_per_block - 1, ftl::summary_page_bytes(g, c.sector_size));
  }
  // --- victim policy and DFTL (ftl/victim_policy.h, ftl/dftl.cpp) ---
  const std::string policy = c.ftl.victim.kind == ftl::VictimPolicyKind::kDChoices
                                 ? fmt::format("d-choices (d = {})", c.ftl.victim.choices)
                                 : std::string(ftl::victim_policy_name(c.ftl.victim.kind));
  if (c.ftl.type == "dftl") {
    const std::uint64_t entries = c.ftl.map_cache_entries
                                      ? c.ftl.map_cache_entries
                                      : std::max<std::uint64_t>(1, logical_pages / 50);
    fmt::format_to(it, "  map cache   {} entries ({} of DRAM, {:.2f}% of the map); prefetch {}\n",
                   entries, format_size(entries * ftl::kDftlCacheEntryBytes),
                   100.0 * static_cast<double>(entries) / static_cast<double>(logical_pages),
                   c.ftl.map_cache_prefetch);
  }
  // --- end victim policy and DFTL ---
  if (!ftl::is_block_based(c.ftl.type)) {
    fmt::format_to(
        it, "  cleaning    {}; foreground below {:.1f}% free blocks per {} ({}); background {}\n",
        policy, c.ftl.clean_low_water * 100, ftl::clean_scope_name(c.ftl.clean_scope),
        c.ftl.cleaning_blocks_writes
            ? (c.controller.cleaning_wait == flash::HostWait::kPackage
                   ? "the part of a write on a cleaning package waits for it"
                   : "writes wait for it")
            : "in parallel with writes",
        c.ftl.clean_high_water > 0
            ? fmt::format("up to {:.1f}% while a pool is idle", c.ftl.clean_high_water * 100)
            : std::string("off"));
    const ftl::CleanGranularity g = c.ftl.clean_granularity;
    fmt::format_to(it, "  granularity {}\n",
                   g == ftl::CleanGranularity::kUntilMark ? "until-mark: each trigger cleans "
                                                            "until back at the mark"
                   : g == ftl::CleanGranularity::kOneVictim
                       ? "one-victim: one block per trigger"
                       : fmt::format("incremental: at most {} page moves per host page write "
                                     "(whole blocks below the emergency floor)",
                                     c.ftl.clean_incremental_pages));
    fmt::format_to(it, "  host pages  {}\n",
                   c.ftl.plane_choice == ftl::PlaneChoice::kMostFree
                       ? "to the pool's plane with the most free pages"
                       : "round-robin over the pool's planes");
  }
  describe_wear_timing_controller(c, it);
  return out;
}

}  // namespace ssdlab::sim
