// What `sim` and `probe` share in presenting a run: the output folder, the
// experiment's description in summary.json, and the lines on the terminal.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>

#include "sim/results/output.h"
#include "sim/results/run_result.h"
#include "sim/results/summary.h"
#include "workloads/plan.h"

namespace ssdlab::sim {

class Ssd;

// Creates `dir` and takes it for this run (a second run into it is refused
// while the returned lock lives). An output name taken by a directory is
// refused before anything is written. Outputs of an earlier run stay until
// clear_stale_outputs(): a run refused for a bad input leaves them alone.
// `option`: how the command names the folder (refusals).
[[nodiscard]] OutputLock prepare_outdir(const std::filesystem::path& dir,
                                        std::string_view option = "-o");

// Once the inputs are read and valid, before the run writes anything:
// removes from `dir` what an earlier run wrote there, so that it cannot pass
// for this run's if this one fails: summary.json (first: a folder with
// io.csv and no summary.json reads as unfinished), io.csv, their temporary
// files (*.partial), fio latency logs (*-runN_lat.N.log) and plot images
// (plots/*.png, *.svg). Nothing else: files a user put there stay.
void clear_stale_outputs(const std::filesystem::path& dir);

// The experiment's keys as summary.json records them; `seed` is the run's.
ExperimentRecord experiment_record(const workloads::ExperimentSpec& spec,
                                   std::uint64_t logical_bytes, std::uint64_t seed);

// The seed an experiment runs with: its own, or one derived from its name.
std::uint64_t seed_of(const workloads::ExperimentSpec& spec, std::uint64_t seed);

// The runs of a micro-benchmark experiment, summarised on one line, and the
// header above such lines.
void print_experiment_header(std::ostream& out);
void print_experiment(std::ostream& out, const ExperimentRecord& experiment);

// One simulated run per line, and the header above such lines.
void print_run_header(std::ostream& out);
void print_run(std::ostream& out, const std::string& name, const RunResult& result);

// The wear of summary.json ("wear", wear_report()) as a table like Agrawal
// et al. Tables 7 and 8.
void print_wear(std::ostream& out, const WearRecord& wear);
// Cleaning split (foreground/background), DFTL's map cache, the flash's
// energy, the thermal throttle and the write buffer counters of `device`
// (the runs' counters added up), where there are any.
void print_controller(std::ostream& out, const DeviceCounters& device);

// A simulated run in summary.json: its statistics, span and device counters.
RunRecord run_record(const RunResult& result);

// Adds what a simulated device reports at the end to `summary`: device
// totals, wear, verification and the config.
void add_device_summary(SummaryRecord& summary, const Ssd& ssd, bool verify);
// A zoned device's "zones" block and its host log's "host_log" block
// (zones_report.cpp); nothing on a conventional device.
void add_zones_summary(SummaryRecord& summary, const Ssd& ssd);

}  // namespace ssdlab::sim
