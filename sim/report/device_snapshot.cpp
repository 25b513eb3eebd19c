#include "sim/report/device_snapshot.h"

#include "ftl/ftl.h"
#include "ftl/page_mapped/page_mapped_keys.h"
#include "sim/controller/ssd.h"
#include "sim/controller/write_buffer.h"

namespace ssdlab::sim {
namespace {

CellCounters cell_counters(const flash::Geometry& g, const flash::TimelineStats& t) {
  CellCounters k;
  for (std::uint32_t type = 0; type < g.bits_per_cell(); ++type)
    k.reads_per_page_type[flash::page_type_name(g.cell_type, type)] = t.page_type_reads[type];
  k.slc_mode_reads = t.slc_mode_reads;
  k.slc_mode_programs = t.slc_mode_programs;
  k.wordline_programs = t.wordline_programs;
  return k;
}

}  // namespace

DeviceCounters device_counters_of(const Ssd& ssd) {
  DeviceCounters c;
  c.ftl = ssd.ftl().stats();
  c.cleaning_ns = ssd.core().cleaning_time().total_ns;
  c.background_cleaning_ns = ssd.core().cleaning_time().background_ns;
  const flash::TimelineStats& t = ssd.core().timeline().stats();
  c.two_plane_commands = t.two_plane_commands;
  c.four_plane_commands = t.four_plane_commands;
  c.cleaning_flash_ns = t.cleaning_flash_ns;
  const flash::HostFlash host = ssd.core().timeline().host_flash();
  c.host_read_flash_ns = host.read_ns;
  c.host_write_flash_ns = host.write_ns;
  c.host_read_accesses = host.read_pages;
  c.host_write_accesses = host.write_pages;
  c.queued_command_ns = ssd.core().scheduler().queued_command_ns();
  c.host_bytes_written = ssd.core().host_bytes_written();
  // The FTL counts flash pages, or map units where a unit is a part of one
  // (ftl/page_mapped/page_mapped_units.h): its pages' bytes.
  const std::uint32_t units_per_page = ssd.core().map_units_per_page();
  c.page_size = ssd.config().geometry.page_size / units_per_page;
  c.bus_busy_ns = t.bus_busy_ns;
  c.die_busy_ns = t.die_busy_ns;
  if (const WriteBuffer* buffer = ssd.write_buffer()) c.buffer = buffer->stats();
  if (const flash::Geometry& g = ssd.config().geometry; g.cell_type != flash::CellType::kSlc)
    c.cell = cell_counters(g, t);
  if (ssd.config().suspend.enabled)
    c.suspend = t.suspend;
  if (ssd.config().controller.dispatch_order.flin) c.flin = ssd.core().scheduler().flin_counters();
  if (const HostLog* log = ssd.zoned() ? ssd.zoned()->log() : nullptr)
    c.host_log = HostLogPages{log->counters().host_pages_written,
                              log->counters().cleaning_pages_written};
  if (const ReadErrors* errors = ssd.core().read_errors()) c.read_errors = errors->counters();
  if (const ControllerLimits* limits = ssd.limits()) {
    c.cores = limits->core_counters();
    c.data_path = limits->data_path_counters();
    c.thermal = limits->thermal_counters();
  }
  c.energy = ssd.core().timeline().energy(ssd.config().power);
  for (const SsdCore::MadePart& made : ssd.core().made_parts())
    c.parts[made.name] = made.part->record();
  // Cleaning efficiency is over a block's data pages: a summary page
  // (ftl.summary_page) is never data, so a wholly superseded block is 100%
  // efficient, as DiskSim reports it (Agrawal et al. Table 5: IOzone 100%).
  c.pages_per_block = ssd.config().geometry.pages_per_block * units_per_page -
                      (ssd.config().ftl.keys.get<ftl::PageMappedKeys>().summary_page ? 1 : 0);
  return c;
}

}  // namespace ssdlab::sim
