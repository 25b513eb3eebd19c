// What the device did, counted: the FTL's counters, the controller's
// cleaning time and write buffer, the flash buses and dies. A typed value
// with plain fields (summary.json is only its output format, written and
// read through its field list in device_counter_fields.h): a run's counters are the
// difference of two snapshots, a plan's the sum of its runs'. The simulator
// takes the snapshots (sim/report/device_snapshot.h); this library never
// sees the FTL or the controller.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/units.h"
#include "records/controller_counters.h"
#include "records/energy_counters.h"
#include "records/flin_counters.h"
#include "records/ftl_counters.h"
#include "records/part_record.h"
#include "records/read_error_counters.h"
#include "records/suspend_counters.h"
#include "records/write_buffer_counters.h"

namespace ssdlab::sim {

// Cells of several bits (flash::TimelineStats, whose comment says what each
// counts): page reads by page type name ("lower", "middle", "upper", "top":
// the types the cell has), SLC-mode reads and programs, and wordline programs.
struct CellCounters {
  std::map<std::string, std::uint64_t> reads_per_page_type;
  std::uint64_t slc_mode_reads = 0, slc_mode_programs = 0, wordline_programs = 0;
  bool operator==(const CellCounters&) const = default;
};

// A host log over a zoned device ([host.log]; records/host_log_counters.h
// holds the whole device's): the pages the host wrote through it and the
// pages its cleaning wrote, so that a run's write amplification reads end to
// end (issue 57 item 1: the device's is 1.00 on a zoned drive, which never
// cleans).
struct HostLogPages {
  std::uint64_t host_pages = 0, cleaning_pages = 0;
  bool operator==(const HostLogPages&) const = default;
};

struct DeviceCounters {
  records::FtlCounters ftl;  // the FTL's (ftl::Ftl::stats())
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
  std::uint64_t four_plane_commands = 0;    // four-plane dies only (flash::TimelineStats)
  TimeNs bus_busy_ns = 0, die_busy_ns = 0;  // summed over channels, dies
  std::optional<records::WriteBufferCounters> buffer;  // only with a write buffer
  std::optional<CellCounters> cell;         // only for cells of several bits (not SLC)
  std::optional<records::SuspendCounters> suspend;  // only with timing.suspend
  std::optional<records::FlinCounters> flin;        // only with dispatch_order "flin"
  // Only with [controller.firmware], and with [controller.data_path].
  std::optional<records::CoreCounters> cores;
  std::optional<records::DataPathCounters> data_path;
  std::optional<records::ThermalCounters> thermal;  // only with [controller.thermal]
  // The flash's energy by operation kind ([power]; every run has it: a
  // group only so that summaries of older versions, without it, read).
  std::optional<records::EnergyCounters> energy;
  std::optional<HostLogPages> host_log;  // only with [host.log]
  std::optional<records::ReadErrorCounters> read_errors;  // only with [errors]
  // The registered parts' counters (records/part_record.h), by part name
  // and key: none without a registered part on.
  std::map<std::string, records::PartRecord> parts;
  std::uint32_t pages_per_block = 0;        // data pages, for cleaning_efficiency()
  std::uint32_t page_size = 0;              // flash page bytes, for flash_bytes_written()

  // Page-based write amplification (summary.json `write_amplification`):
  // flash pages programmed per flash page the host's writes touched (a 512 B
  // write touches one whole page); 0 without host writes.
  double write_amplification() const { return ftl.write_amplification(); }
  // Both figures as summary.json writes them: none (null, `-` on the
  // console) when the host wrote nothing, where 0 would read as a figure.
  std::optional<double> write_amplification_if_written() const {
    if (ftl.host_pages_written == 0) return std::nullopt;
    return write_amplification();
  }
  // With a host log: its own write amplification ((host + cleaning pages)
  // over host pages) and the end-to-end one (flash pages over the pages the
  // host wrote through the log); none without a log or host writes.
  std::optional<double> host_log_write_amplification() const;
  std::optional<double> end_to_end_write_amplification() const;
  std::optional<double> write_amplification_bytes_if_written() const {
    if (host_bytes_written == 0) return std::nullopt;
    return write_amplification_bytes();
  }
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
// differences (per-pool counts element by element): every counter of
// device_counter_fields.h's list, combined.
DeviceCounters operator-(const DeviceCounters& after, const DeviceCounters& before);
DeviceCounters& operator+=(DeviceCounters& sum, const DeviceCounters& more);

// summary.json's form (device_counter_fields.h: counts, times in microseconds, and
// the ratios), and back: the ratios are derived and not read; page_size is
// flash_bytes_written over flash_pages_written; pages_per_block is left 0
// (the config has it). Counters a file of an older ssdlab lacks read as 0.
// Reading throws ssdlab::Error naming the key on another shape.
void to_json(nlohmann::json& json, const DeviceCounters& counters);
DeviceCounters device_counters_from_json(const nlohmann::json& json);

}  // namespace ssdlab::sim
