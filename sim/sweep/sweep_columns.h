// The typed columns of sweep.csv beyond the run statistics: each workload
// parameter that a job's workload text gives ("workload.speed" of
// trace:FILE,speed=200; "workload.io_size" of RW:io_size=4096; the sweep
// file's mode, qd and speed for a trace), and each experiment's pattern and
// uFLIP cell (benchmark, parameter, value). Values are typed as the swept
// keys' are: numbers as numbers, sizes in bytes, other text as is.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/results/summary.h"

namespace ssdlab::sim {

// A CSV field, quoted if it needs it.
std::string csv_field(const std::string& text);

// A value as a typed CSV field: numbers as numbers, sizes ("128MiB") in
// bytes, anything else as quoted-if-needed text; so that the column sorts
// and loads (pandas) as numbers.
std::string typed_field(std::string text);

using Settings = std::vector<std::pair<std::string, std::string>>;  // (column, value)

// Appends to `columns` the names of `settings` it lacks.
void add_columns(std::vector<std::string>& columns, const Settings& settings);
// ",VALUE,..." of `settings` for each of `columns`, typed; empty where unset.
std::string typed_fields(const std::vector<std::string>& columns, const Settings& settings);

// ("workload.KEY", value) of a job of jobs.json, in the order written; none
// for a job of several workloads (tenants: their experiments name them).
Settings workload_parameters(const nlohmann::json& job);

// The columns experiment_fields() fills, after "experiment".
inline constexpr const char* kExperimentColumns = "pattern,benchmark,column,parameter,value";
// ",PATTERN,BENCHMARK,COLUMN,PARAMETER,VALUE" of an experiment (empty fields where
// it is not a uFLIP cell).
std::string experiment_fields(const ExperimentRecord& experiment);

// An experiment's write amplification, the mean over its runs that wrote
// (none: no run wrote, or a probe's runs, which have no device counters).
std::optional<double> mean_write_amplification(const ExperimentRecord& experiment);
// The mean over an experiment's runs of one ratio of their device counters,
// over the runs that have it (none if none has).
std::optional<double> mean_device_ratio(const ExperimentRecord& experiment,
                                        std::optional<double> (DeviceCounters::*ratio)() const);

// Whether any run of `summary` ran over a host log ([host.log]); sweep.csv
// then has the columns of kHostLogColumns after write_amplification, whose
// figure is the device's (1.00 on a zoned drive): the log's own write
// amplification and the end-to-end one, each the mean over the runs, from
// the runs' counters (preconditioning excluded; issue 57 item 1).
bool has_host_log(const SummaryRecord& summary);
// Whether a run of `summary` reports the flash's energy (every run of this
// version does), and an experiment's energy_flash_uj column: the mean over
// its runs (empty where none has it).
bool has_energy(const SummaryRecord& summary);
std::string energy_fields(const ExperimentRecord& experiment);
inline constexpr const char* kHostLogColumns =
    "host_log_write_amplification,end_to_end_write_amplification";
std::string host_log_fields(const ExperimentRecord& experiment);

// Whether any run of `summary` has I/Os counted apart from its figures
// (RunRecord: trims, refused, zone_management); sweep.csv then has the
// columns of kApartColumns, after the run statistics.
bool has_counts_apart(const SummaryRecord& summary);
inline constexpr const char* kApartColumns = "trims,trim_iops,refused,zone_management";
// ",TRIMS,TRIM_IOPS,REFUSED,ZONE_MANAGEMENT" of an experiment: the counts
// summed over its runs, trim_iops the mean over them.
std::string apart_fields(const ExperimentRecord& experiment);

}  // namespace ssdlab::sim
