#include "sim/report/device_snapshot.h"

#include <map>
#include <stdexcept>
#include <string>

#include "ftl/ftl.h"
#include "sim/controller/ssd.h"
#include "sim/controller/write_buffer.h"
#include "sim/results/device_counter_fields.h"

namespace ssdlab::sim {
namespace {

// FtlCounters' scalar counters from ftl::FtlStats by their summary.json
// names (ftl::each_counter's list and device_counter_fields.h's name the same
// keys): neither list is repeated here, and a counter one has and the other
// lacks is a logic_error on the first snapshot.
class FromFtlStats {
 public:
  explicit FromFtlStats(const ftl::FtlStats& stats) {
    ftl::each_counter(stats, [this](const char* name, const std::uint64_t& value) {
      by_name_.emplace(name, value);
    });
  }
  void operator()(const char* key, std::uint64_t& value) {
    const auto found = by_name_.find(key);
    if (found == by_name_.end())
      throw std::logic_error(std::string("ftl::each_counter has no counter ") + key);
    value = found->second;
    ++visited_;
  }
  void operator()(const char*, std::vector<std::uint64_t>&) {}  // per pool: copied as such
  template <typename T>
  void derived(const char*, const T&) {}
  void check_all_visited() const {
    if (visited_ != by_name_.size())
      throw std::logic_error("FtlCounters lacks a counter of ftl::each_counter");
  }

 private:
  std::map<std::string, std::uint64_t, std::less<>> by_name_;
  std::size_t visited_ = 0;
};

FtlCounters ftl_counters(const ftl::FtlStats& stats) {
  FtlCounters counters;
  FromFtlStats from(stats);
  fields(from, counters);
  from.check_all_visited();
  counters.blocks_cleaned_per_pool = stats.blocks_cleaned_per_pool;
  counters.wear_migrations_per_pool = stats.wear_migrations_per_pool;
  return counters;
}

BufferCounters buffer_counters(const WriteBufferStats& s) {
  return {s.write_pages,   s.coalesced_pages, s.read_hit_pages, s.read_miss_pages,
          s.flushed_pages, s.flushes,         s.full_waits,     s.full_wait_ns};
}

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
  c.ftl = ftl_counters(ssd.ftl().stats());
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
  if (const WriteBuffer* buffer = ssd.write_buffer()) c.buffer = buffer_counters(buffer->stats());
  if (const flash::Geometry& g = ssd.config().geometry; g.cell_type != flash::CellType::kSlc)
    c.cell = cell_counters(g, t);
  if (ssd.config().suspend.enabled)
    c.suspend = SuspendCounters{t.suspensions[0], t.suspensions[1]};
  // Cleaning efficiency is over a block's data pages: a summary page
  // (ftl.summary_page) is never data, so a wholly superseded block is 100%
  // efficient, as DiskSim reports it (Agrawal et al. Table 5: IOzone 100%).
  c.pages_per_block =
      ssd.config().geometry.pages_per_block - (ssd.config().ftl.summary_page ? 1 : 0);
  return c;
}

}  // namespace ssdlab::sim
