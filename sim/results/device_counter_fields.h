// The one list of the device counters' summary.json keys (DeviceCounters,
// device_counters.h), in the form of summary_fields.h: fields(v, record)
// names every key and the member it holds, for the summary's writer and
// reader (summary_json.cpp) and for operator- and += (device_counters.cpp).
#pragma once

#include <type_traits>

#include "sim/results/device_counters.h"

namespace ssdlab::sim {

// The controller's and the flash's counters, each key once; the FTL's
// (records/ftl_counters.h), the write buffer's (write_buffer_counters.h),
// suspend's (suspend_counters.h) and the controller's limits'
// (controller_counters.h) have their lists next to their
// structs in records/, in the form of records/field_list.h.
// Beyond the ops of summary_fields.h (v(key, member) and v.optional):
//   v.time_us(key, ns)        a TimeNs member written in microseconds
//   v.derived(key, value)     a ratio or sum of the counters: written, not read
//   v.group(first_key, o)     a std::optional record whose keys sit in this
//                             object (present when `first_key` is)
//   v.unreported(key, member) a counter summary.json does not hold
//   v.nonzero(key, member)    a member written only when not empty
template <typename V, typename R>
void fields(V& v, R& k) requires std::is_same_v<std::remove_const_t<R>, CellCounters> {
  v("reads_per_page_type", k.reads_per_page_type);
  v("slc_mode_reads", k.slc_mode_reads);
  v("slc_mode_programs", k.slc_mode_programs);
  v("wordline_programs", k.wordline_programs);
}

template <typename V, typename R>
void fields(V& v, R& h) requires std::is_same_v<std::remove_const_t<R>, HostLogPages> {
  v("host_log_host_pages_written", h.host_pages);
  v("host_log_cleaning_pages_written", h.cleaning_pages);
}

template <typename V, typename R>
void fields(V& v, R& c) requires std::is_same_v<std::remove_const_t<R>, DeviceCounters> {
  fields(v, c.ftl);
  // Agrawal et al. Table 5 ("Avg. time" to clean a block), two ways: the
  // wall time of the (overlapping) cleaning batches per cleaned block, and
  // the serial flash time of the cleaning commands per cleaned block.
  v.time_us("cleaning_time_us", c.cleaning_ns);
  v.time_us("cleaning_flash_time_us", c.cleaning_flash_ns);
  v.derived("cleaning_time_per_block_us", c.cleaning_time_per_block_us());
  v.derived("cleaning_flash_time_per_block_us", c.cleaning_flash_time_per_block_us());
  // Agrawal et al. §3.3: what background cleaning takes off the host's
  // path. Foreground: started by host writes and flushes.
  v.time_us("background_cleaning_time_us", c.background_cleaning_ns);
  v.derived("foreground_blocks_cleaned", c.ftl.blocks_cleaned - c.ftl.background_blocks_cleaned);
  v.derived("foreground_cleaning_time_us",
            static_cast<double>(c.cleaning_ns - c.background_cleaning_ns) / 1000.0);
  // DiskSim's access time, the statistic of Agrawal et al.'s Table 3
  // (DeviceCounters::access_time), and the host's flash work it is made of.
  v.time_us("host_read_flash_time_us", c.host_read_flash_ns);
  v.time_us("host_write_flash_time_us", c.host_write_flash_ns);
  v("host_read_accesses", c.host_read_accesses);
  v("host_write_accesses", c.host_write_accesses);
  const DeviceCounters::AccessTime access = c.access_time();
  v.derived("access_time_us", access.mean_us);
  v.derived("read_access_time_us", access.read_us);
  v.derived("write_access_time_us", access.write_us);
  v.derived("access_time_samples", access.samples);
  // Figure 6(b)'s queue: over the run's span and the packages, the mean
  // number of commands waiting per package.
  v.time_us("queued_command_time_us", c.queued_command_ns);
  v("two_plane_commands", c.two_plane_commands);
  v.nonzero("four_plane_commands", c.four_plane_commands);  // (geometry.multi_plane 4)
  v.time_us("bus_busy_us", c.bus_busy_ns);
  v.time_us("die_busy_us", c.die_busy_ns);
  v.group("write_buffer_write_pages", c.buffer);
  // Cells of several bits only: an SLC device's summary has none of these.
  v.group("reads_per_page_type", c.cell);
  v.group("program_suspensions", c.suspend);
  v.group("flin_low_insertions", c.flin);  // FLIN's stage 1 (records/flin_counters.h)
  // The controller's limits (records/controller_counters.h), each only when on.
  v.group("controller_core_commands", c.cores);
  v.group("controller_data_path_transfers", c.data_path);
  v.group("thermal_throttles", c.thermal);
  // The flash's energy by operation kind (records/energy_counters.h).
  v.group("energy_read_uj", c.energy);
  // Flash read errors (records/read_error_counters.h), only with [errors].
  v.group("read_error_page_reads", c.read_errors);
  // A host log's pages, and its and the end-to-end write amplification.
  v.group("host_log_host_pages_written", c.host_log);
  // The registered parts' (sim/controller/device_parts.h), under "parts"
  // by part name: absent without one.
  v.nonzero("parts", c.parts);
  if (c.host_log) {
    v.derived("host_log_write_amplification", c.host_log_write_amplification());
    v.derived("end_to_end_write_amplification", c.end_to_end_write_amplification());
  }
  // Page-based (flash pages over host-touched pages: the field's meaning
  // since schema 1) and byte-based (flash bytes over host bytes). The
  // reader takes the page size from flash_bytes_written (summary_json.cpp).
  v.derived("write_amplification", c.write_amplification_if_written());
  v("host_bytes_written", c.host_bytes_written);
  v.derived("flash_bytes_written", c.flash_bytes_written());
  v.derived("write_amplification_bytes", c.write_amplification_bytes_if_written());
  v.derived("cleaning_efficiency", c.cleaning_efficiency());
}

}  // namespace ssdlab::sim
