// What the device did, counted: the FTL's counters (ftl::FtlStats), the
// controller's cleaning time and write buffer, the flash buses and dies. A
// typed value (summary.json is only its output format): a run's counters are
// the difference of two snapshots, a plan's the sum of its runs'.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>

#include "common/units.h"
#include "ftl/ftl.h"
#include "sim/controller/write_buffer.h"

namespace ssdlab::sim {

class Ssd;

struct DeviceCounters {
  ftl::FtlStats ftl;
  TimeNs cleaning_ns = 0;             // cleaning in progress, foreground and background
  TimeNs background_cleaning_ns = 0;  // of which started by idle pools
  // Serial flash time of the cleaning commands (moves and erases, each at its
  // unloaded duration, flash::FlashTimeline::unloaded_ns): what cleaning costs
  // the flash, where cleaning_ns is the wall time of overlapping batches.
  TimeNs cleaning_flash_ns = 0;
  // The host's flash accesses at their unloaded durations
  // (flash::TimelineStats): reads, and writes (programs, read-modify-writes).
  TimeNs host_read_flash_ns = 0, host_write_flash_ns = 0;
  std::uint64_t host_read_accesses = 0, host_write_accesses = 0;
  // Commands waiting in the flash scheduler's queues, integrated over time
  // (flash::FlashScheduler::queued_command_ns; Agrawal et al. Figure 6(b)).
  TimeNs queued_command_ns = 0;
  std::uint64_t host_bytes_written = 0;  // host write requests' bytes (Ssd)
  std::uint64_t two_plane_commands = 0;
  TimeNs bus_busy_ns = 0, die_busy_ns = 0;  // summed over channels, dies
  std::optional<WriteBufferStats> buffer;   // only with a write buffer
  std::uint32_t pages_per_block = 0;        // data pages, for cleaning_efficiency()
  std::uint32_t page_size = 0;              // flash page bytes, for flash_bytes_written()

  // A snapshot of `ssd`'s counters now.
  static DeviceCounters of(const Ssd& ssd);

  // Page-based write amplification (summary.json `write_amplification`):
  // flash pages programmed per flash page the host's writes touched (a 512 B
  // write touches one whole page); 0 without host writes.
  double write_amplification() const { return ftl.write_amplification(); }
  // Byte-based write amplification (`write_amplification_bytes`): flash bytes
  // programmed over host bytes written; 0 without host writes. Equals the
  // page-based one when every write covers whole pages.
  std::uint64_t flash_bytes_written() const {
    return ftl.flash_pages_written * std::uint64_t{page_size};
  }
  double write_amplification_bytes() const {
    return host_bytes_written == 0 ? 0.0
                                   : static_cast<double>(flash_bytes_written()) /
                                         static_cast<double>(host_bytes_written);
  }
  // Table 5's cleaning time per cleaned block, two ways: the wall time of the
  // cleaning batches (which overlap on different dies) and the serial flash
  // time, each over the blocks cleaned; 0 without cleaning.
  double cleaning_time_per_block_us() const { return per_block_us(cleaning_ns); }
  double cleaning_flash_time_per_block_us() const { return per_block_us(cleaning_flash_ns); }
  // DiskSim's "Access time average" (ssdmodel ssd.c:564, :591, :428), the
  // statistic of Agrawal et al.'s Table 3: the mean flash time of a page
  // access with nothing else on the flash (no queueing), where every page
  // access is one sample and every cleaned block (and wear migration) one
  // sample of its whole serial cost. `read_us` is over the host's page
  // reads, `write_us` over its page writes and the cleaning samples (cleaning
  // is what writes cost); `mean_us` over all. 0 where there is no sample.
  struct AccessTime {
    double mean_us = 0, read_us = 0, write_us = 0;
    std::uint64_t samples = 0;
  };
  AccessTime access_time() const;
  // Superseded pages over all pages of the cleaned blocks (Agrawal §3.2).
  double cleaning_efficiency() const { return ftl.cleaning_efficiency(pages_per_block); }

  bool operator==(const DeviceCounters&) const = default;

 private:
  double per_block_us(TimeNs ns) const {
    return ftl.blocks_cleaned == 0
               ? 0.0
               : static_cast<double>(ns) / 1000.0 / static_cast<double>(ftl.blocks_cleaned);
  }
};

// What happened between two snapshots of one device, and the sum of such
// differences (per-pool counts element by element). DeviceCounters::of is
// the simulator's (device_snapshot.cpp); the rest is in ssdlab_results.
DeviceCounters operator-(const DeviceCounters& after, const DeviceCounters& before);
DeviceCounters& operator+=(DeviceCounters& sum, const DeviceCounters& more);

// summary.json's form: counts, times in microseconds, and the ratios; and
// back (the ratios are derived, pages_per_block is left 0: the config has
// it). Throws nlohmann::json::exception on another shape.
void to_json(nlohmann::json& json, const DeviceCounters& counters);
DeviceCounters device_counters_from_json(const nlohmann::json& json);

}  // namespace ssdlab::sim
