// What a loaded config means, for people and for summary.json: to_json()
// echoes every key as the run used it, describe() prints the derived
// geometry, organisation and FTL (`ssdlab config`).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "common/units.h"
#include "ftl/ftl_keys.h"
#include "sim/config/capacity.h"
#include "sim/config/config.h"
#include "sim/config/config_ftl_parts.h"
#include "sim/config/config_host.h"
#include "sim/config/config_part.h"
#include "sim/config/config_reader.h"

namespace ssdlab::sim {

namespace {

// As written: a synchronous gang's lockstep view is undone.
nlohmann::json geometry_json(const flash::Geometry& g) {
  const flash::Geometry written = flash::as_written(g);
  nlohmann::json pairs = nlohmann::json::array();
  for (const auto& [a, b] : g.two_plane_pairs) pairs.push_back({a, b});
  nlohmann::json json = {{"channels", written.channels},
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
          {"interleaving", flash::interleaving_name(g.interleaving)}};
  // (An SLC device's echo is as it was before cell types.)
  if (g.cell_type != flash::CellType::kSlc) json["cell_type"] = flash::cell_type_name(g.cell_type);
  if (g.multi_plane != 2) json["multi_plane"] = g.multi_plane;
  return json;
}

// [timing.cell] and [timing.slc_mode] of a cell of several bits.
void cell_json(const flash::Timing& t, std::uint32_t bits, nlohmann::json& json) {
  const flash::CellTiming& c = t.cell;
  nlohmann::json reads = nlohmann::json::array(), programs = nlohmann::json::array();
  for (std::uint32_t type = 0; type < bits; ++type) {
    reads.push_back(c.read_ns[type] / 1000.0);
    programs.push_back(c.program_ns[type] / 1000.0);
  }
  const bool one_shot = c.program == flash::ProgramScheme::kOneShot;
  json["cell"] = {{"read_us", reads},
                  {"program", flash::program_scheme_name(c.program)},
                  {"program_us", one_shot ? nlohmann::json(c.wordline_program_ns(bits) / 1000.0)
                                          : programs},
                  {"erase_us", c.erase_ns / 1000.0}};
  json["slc_mode"] = {{"read_us", c.slc_read_ns / 1000.0},
                      {"program_us", c.slc_program_ns / 1000.0},
                      {"erase_us", c.slc_erase_ns / 1000.0}};
}

nlohmann::json timing_json(const flash::Timing& t, const flash::Geometry& g,
                           const flash::SuspendTiming& s) {
  nlohmann::json json = {{"bus_ns_per_byte", t.bus_ps_per_byte / 1000.0},
                         {"command_ns", t.command_ns},
                         {"cache_register", t.cache_register}};
  if (g.cell_type == flash::CellType::kSlc) {
    json["read_us"] = t.read_ns / 1000.0;
    json["program_us"] = t.program_ns / 1000.0;
    json["erase_us"] = t.erase_ns / 1000.0;
  } else {
    cell_json(t, g.bits_per_cell(), json);
  }
  // Independent plane reads and codeword reads: echoed when on (a run
  // without them echoes as before).
  if (t.independent_plane_reads) json["independent_plane_reads"] = true;
  if (t.read_transfer != flash::ReadTransfer::kPage) {
    json["read_transfer"] = flash::read_transfer_name(t.read_transfer);
    json["codeword_bytes"] = t.codeword_bytes;
  }
  // Program/erase suspend: echoed when on (a run without it echoes as before).
  if (s.enabled) {
    json["suspend"] = true;
    json["suspend_program_us"] = s.program_suspend_ns / 1000.0;
    json["suspend_erase_us"] = s.erase_suspend_ns / 1000.0;
    json["resume_us"] = s.resume_ns / 1000.0;
    json["suspend_limit"] = s.limit;
    // The default follows each operation's suspend time: echoed only when given.
    if (s.min_interval_ns != flash::SuspendTiming::kFromSuspend)
      json["suspend_min_interval_us"] = s.min_interval_ns / 1000.0;
  }
  return json;
}

// The keys every FTL shares, then the chosen FTL's own (its echo hook,
// ftl/ftl_keys.h: the config loader refuses a key the FTL does not take, so
// the echo, which checkpoints and state-info load back, leaves it out too).
nlohmann::json ftl_json(const ftl::FtlConfig& f) {
  nlohmann::json json = {{"type", f.type},
                         {"logical_page_size", f.logical_page_size},
                         {"stripe_size", f.stripe_size},
                         {"allocation_pool", ftl::pool_scope_name(f.pool)},
                         {"overprovisioning", f.overprovisioning},
                         {"two_plane", f.two_plane},
                         {"copy_back", f.copy_back},
                         {"clean_low_water", f.clean_low_water},
                         {"clean_high_water", f.clean_high_water},
                         {"cleaning_blocks_writes", f.cleaning_blocks_writes},
                         {"wear_leveling", ftl::wear_mode_name(f.wear.mode)},
                         {"wear_age_variance", f.wear.age_variance},
                         {"wear_retirement_age", f.wear.retirement_age},
                         {"wear_cold_age", f.wear.cold_age},
                         {"wear_order", ftl::wear_order_name(f.wear.order)}};
  if (const auto echo = ftl::ftl_key_hooks(f.type).echo) echo(f, json);
  return json;
}

nlohmann::json controller_json(const ControllerConfig& k) {
  return {{"write_buffer", k.write_buffer_bytes},
          {"write_buffer_policy", k.write_through ? "write-through" : "write-back"},
          {"write_buffer_high_water", k.flush_high_water},
          {"write_buffer_low_water", k.flush_low_water},
          {"write_buffer_ns_per_byte", k.buffer_ps_per_byte / 1000.0},
          {"write_buffer_power_protected", k.buffer_power_protected},
          {"background_cleaning_preempt", k.preempt_background_cleaning},
          {"cleaning_wait", flash::host_wait_name(k.cleaning_wait)},
          {"dispatch_order", flash::dispatch_order_name(k.dispatch_order)}};
}

}  // namespace

nlohmann::json to_json(const DeviceConfig& c) {
  nlohmann::json json = {{"source", c.source},
          {"name", c.name},
          {"geometry", geometry_json(c.geometry)},
          {"timing", timing_json(c.timing, c.geometry, c.suspend)},
          {"ftl", ftl_json(c.ftl)},
          {"host",
           {{"sector_size", c.sector_size},
            {"queue_depth", c.controller.queue_depth},
            {"scheduling", scheduling_name(c.controller.scheduling)}}},
          {"controller", controller_json(c.controller)}};
  config_detail::echo_ftl_parts(c.ftl, json);
  // Only when given: other configs echo as before.
  if (!c.controller.host_queues.queues.empty())
    json["host"].update(config_detail::host_queues_json(c.controller.host_queues));
  if (!c.namespaces.empty()) json["host"]["namespaces"] = config_detail::namespaces_json(c.namespaces);
  for (const ConfigPart* part : config_parts())
    if (part->echo) part->echo(c, json);
  return json;
}

namespace {

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

// A cell of several bits: its array times by page type and in SLC mode.
template <typename Out>
void describe_cell(const flash::Geometry& g, const flash::Timing& t, std::uint32_t wordline_pages,
                   Out it) {
  const flash::CellTiming& c = t.cell;
  const std::uint32_t bits = g.bits_per_cell();
  std::vector<std::string> reads, programs;
  for (std::uint32_t type = 0; type < bits; ++type) {
    reads.push_back(format_us(c.read_ns[type]));
    programs.push_back(format_us(c.program_ns[type]));
  }
  const bool one_shot = c.program == flash::ProgramScheme::kOneShot;
  // One-shot: whether the FTL makes the wordline the unit of durability
  // (ftl::FtlConfig::wordline_pages, docs/model.md).
  const char* durability = !one_shot ? ""
                           : wordline_pages > 1
                               ? ": a write completes with its wordline's program, padded "
                                 "where the data runs out"
                               : " (this FTL takes a page as on flash when its transfer ends)";
  fmt::format_to(it, "  cell        {}, {} pages per wordline ({}), {}{}\n",
                 flash::cell_type_name(g.cell_type), bits, flash::page_type_list(g.cell_type),
                 flash::program_scheme_name(c.program), durability);
  fmt::format_to(
      it, "  timing      read {} us, program {}, erase {} us, bus {} ns/B, command {} ns\n",
      fmt::join(reads, "/"),
      one_shot ? format_us(c.wordline_program_ns(bits)) + " us (a wordline)"
               : fmt::format("{} us", fmt::join(programs, "/")),
      format_us(c.erase_ns), t.bus_ps_per_byte / 1000.0, t.command_ns);
  fmt::format_to(it, "  SLC mode    read {} us, program {} us, erase {} us\n",
                 format_us(c.slc_read_ns), format_us(c.slc_program_ns), format_us(c.slc_erase_ns));
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
  if (g.cell_type == flash::CellType::kSlc)
    fmt::format_to(
        it, "  timing      read {} us, program {} us, erase {} us, bus {} ns/B, command {} ns\n",
        format_us(t.read_ns), format_us(t.program_ns), format_us(t.erase_ns),
        t.bus_ps_per_byte / 1000.0, t.command_ns);
  else
    describe_cell(g, t, c.ftl.wordline_pages, it);
  if (c.suspend.enabled)
    fmt::format_to(it,
                   "  suspend     reads suspend programs and erases: suspend {} us (program), {} us "
                   "(erase), resume {} us, at most {} per operation, {} between\n",
                   format_us(c.suspend.program_suspend_ns), format_us(c.suspend.erase_suspend_ns),
                   format_us(c.suspend.resume_ns), c.suspend.limit,
                   c.suspend.min_interval_ns == flash::SuspendTiming::kFromSuspend
                       ? std::string("its suspend time")
                       : format_us(c.suspend.min_interval_ns) + " us");
  const ControllerConfig& k = c.controller;
  fmt::format_to(it, "  host queue  {}, {}\n",
                 k.queue_depth ? fmt::format("depth {}", k.queue_depth) : "unlimited depth",
                 scheduling_name(k.scheduling));
  std::string parts;
  for (const ConfigPart* part : config_parts())
    if (part->describe) part->describe(c, parts);
  fmt::format_to(it, "{}", parts);
  if (k.write_buffer_bytes)
    fmt::format_to(it,
                   "  buffer      {} {} DRAM write buffer, flush above {:.0f}% down to {:.0f}%, "
                   "{} ns/B to the host\n",
                   format_size(k.write_buffer_bytes),
                   k.write_through ? "write-through" : "write-back", k.flush_high_water * 100,
                   k.flush_low_water * 100, k.buffer_ps_per_byte / 1000.0);
  else
    fmt::format_to(it, "  buffer      none\n");
  fmt::format_to(it, "{}", config_detail::describe_ftl_parts(c.ftl));
  if (c.ftl.clean_high_water > 0)
    fmt::format_to(it, "  background  cleaning {} host requests\n",
                   k.preempt_background_cleaning ? "yields to" : "runs a whole round before");
  fmt::format_to(it, "  page        transfer {} us; unloaded read {} us, write {} us\n",
                 format_us(t.page_transfer_ns(g)), format_us(t.page_read_latency(g)),
                 format_us(t.page_program_latency(g)));
  if (t.read_transfer == flash::ReadTransfer::kCodeword)
    fmt::format_to(it,
                   "  codeword    {} of data, {} a page; a host read moves only its own: "
                   "transfer {} us each, unloaded read of one {} us\n",
                   format_size(t.codeword_bytes), t.read_units_per_page(g),
                   format_us(t.read_unit_transfer_ns(g)),
                   format_us(t.command_ns + t.read_ns + t.read_unit_transfer_ns(g)));
  if (g.gang == flash::Gang::kSharedBusSync)  // DiskSim's costs (ssd_gang.c:194-400)
    fmt::format_to(it,
                   "  member      transfer {} us; unloaded read of one member page {} us, "
                   "write of part of a gang page {} us (register read, gang page in, program)\n",
                   format_us(t.read_unit_transfer_ns(g)),
                   format_us(t.command_ns + t.read_ns + t.read_unit_transfer_ns(g)),
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

// The flash array, its organisation, capacity and scheduler.
template <typename Out>
void describe_flash(const DeviceConfig& c, const SpareCapacity& spare, Out it) {
  const auto& g = c.geometry;
  const flash::Geometry written = flash::as_written(g);
  const std::uint64_t logical_bytes = spare.logical_bytes;
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
      format_size(logical_bytes), logical_bytes, c.ftl.overprovisioning * 100,
      logical_bytes / c.ftl.logical_page_size, format_size(c.ftl.logical_page_size));
  describe_spare(spare, it);
  // The flash scheduler (flash/scheduler.h).
  fmt::format_to(it, "  scheduler   interleaving {}{}{}; cache register {}; dispatch {}\n",
                 flash::interleaving_name(g.interleaving),
                 g.multi_plane == 4 ? " (four-plane operations: both pairs of a die)" : "",
                 c.timing.independent_plane_reads ? " (independent plane reads)" : "",
                 c.timing.cache_register ? "on" : "off",
                 flash::dispatch_order_name(c.controller.dispatch_order));
}

}  // namespace

std::string describe(const DeviceConfig& c, const SpareCapacity& spare) {
  std::string out;
  describe_flash(c, spare, std::back_inserter(out));
  // The FTL's own lines (its describe hook, ftl/ftl_keys.h).
  const ftl::FtlDescription ftl{c.geometry, c.ftl, spare.logical_bytes / c.ftl.logical_page_size,
                                c.controller.cleaning_wait};
  ftl::ftl_key_hooks(c.ftl.type).describe(ftl, out);
  describe_wear_timing_controller(c, std::back_inserter(out));
  out += config_detail::describe_host_queues(c.controller);
  out += config_detail::describe_namespaces(c.namespaces, c.ftl.logical_page_size);
  return out;
}

}  // namespace ssdlab::sim
