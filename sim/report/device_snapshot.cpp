// DeviceCounters::of: a snapshot of a simulated device's counters (the
// simulator's part of sim/results/device_counters.h; the rest, which
// summary.json's reader needs, is in ssdlab_results).
#include "sim/controller/ssd.h"
#include "sim/results/device_counters.h"

namespace ssdlab::sim {

DeviceCounters DeviceCounters::of(const Ssd& ssd) {
  DeviceCounters c;
  c.ftl = ssd.ftl().stats();
  c.cleaning_ns = ssd.cleaning_ns();
  c.background_cleaning_ns = ssd.background_cleaning_ns();
  const flash::TimelineStats& t = ssd.timeline().stats();
  c.two_plane_commands = t.two_plane_commands;
  c.cleaning_flash_ns = t.cleaning_flash_ns;
  const flash::HostFlash host = ssd.timeline().host_flash();
  c.host_read_flash_ns = host.read_ns;
  c.host_write_flash_ns = host.write_ns;
  c.host_read_accesses = host.read_pages;
  c.host_write_accesses = host.write_pages;
  c.queued_command_ns = ssd.scheduler().queued_command_ns();
  c.host_bytes_written = ssd.host_bytes_written();
  c.page_size = ssd.config().geometry.page_size;
  c.bus_busy_ns = t.bus_busy_ns;
  c.die_busy_ns = t.die_busy_ns;
  if (const WriteBuffer* buffer = ssd.write_buffer()) c.buffer = buffer->stats();
  // Cleaning efficiency is over a block's data pages: a summary page
  // (ftl.summary_page) is never data, so a wholly superseded block is 100%
  // efficient, as DiskSim reports it (Agrawal et al. Table 5: IOzone 100%).
  c.pages_per_block =
      ssd.config().geometry.pages_per_block - (ssd.config().ftl.summary_page ? 1 : 0);
  return c;
}

}  // namespace ssdlab::sim
