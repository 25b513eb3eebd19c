// Workload plans: experiments described by the keys of DESIGN.md, read from a
// TOML plan file or written inline (`-w 'RW:io_size=4096,count=1000'`). Both
// forms go through one key validator, so they accept exactly the same keys.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/units.h"
#include "workloads/synthetic.h"
#include "workloads/zone_stream.h"

namespace ssdlab::workloads {

// The four uFLIP baselines: sequential/random read/write.
enum class Pattern { kSR, kRR, kSW, kRW };
const char* pattern_name(Pattern pattern);
inline bool is_write(Pattern p) {
  return p == Pattern::kSW || p == Pattern::kRW;
}
inline bool is_random(Pattern p) {
  return p == Pattern::kRR || p == Pattern::kRW;
}

// Parses "SR", "rw", ...; nullopt for anything else.
std::optional<Pattern> parse_pattern(std::string_view text);

// uFLIP's IOCount defaults for SSDs (§5.1): 1,024 I/Os for SR, RR and SW,
// 5,120 for RW, whose response times oscillate much more.
std::uint64_t default_count(Pattern pattern);

// One experiment: a uFLIP reference pattern (§3.1) and how often to run it.
// An I/O is (submit time, size, LBA, mode); the keys below choose the time
// function (consecutive, pause, burst), the LBA function (sequential,
// random, ordered, partitioned, plus shift and target) and the mode.
struct ExperimentSpec {
  std::string name;  // the io.csv `experiment` column
  Pattern pattern = Pattern::kRW;
  std::uint64_t io_size = 4096;
  std::uint64_t count = 1024;  // I/Os per run, per process (default_count unless given)
  bool count_given = false;
  std::uint64_t target_offset = 0;
  std::uint64_t target_size = 0;  // 0: from target_offset to the end of the device
  std::uint32_t queue_depth = 1;  // outstanding I/Os per process
  std::uint32_t processes = 1;    // each on its own equal share of the target
  std::uint32_t runs = 1;
  std::uint64_t io_ignore = 0;        // I/Os per process excluded from statistics
  bool io_ignore_auto = false;        // detect the start-up phase instead (methodology.h)
  std::optional<std::uint64_t> seed;  // default: the run's --seed
  // Run beside other workloads as a tenant (sim/run/tenant_run.h): its NVMe
  // submission queue and namespace, 1-based as NVMe numbers them; 0: not
  // given (queue 1; namespace 1 if the device has namespaces).
  std::uint32_t queue = 0;
  std::uint32_t namespace_id = 0;
  // Placement identifier of its writes (ftl.placement; docs/fdp.md): the FDP
  // placement handle or stream, 0-based as TP4146 numbers placement handles;
  // 0 (or absent) is the default handle.
  std::uint32_t placement_id = 0;
  // With placement: after every this many writes of a process, an I/O
  // Management Send (TP4146's Reclaim Unit Handle Update) moves its
  // identifier's handle to a new reclaim unit before the next write; 0: none.
  std::uint64_t ruh_update_every = 0;

  // LBA function. Sequential patterns are ordered(increment): slot i is
  // increment * i (mod the target), -1 is reverse, 0 in-place; or
  // partitioned into `partitions` round-robin sequential streams.
  std::uint64_t io_shift = 0;  // added to every offset (alignment benchmark)
  std::int64_t increment = 1;
  std::uint32_t partitions = 1;

  // Time function: consecutive, pause(pause_ns) or burst(pause_ns, burst):
  // a pause before every `burst`-th I/O of a process.
  TimeNs pause_ns = 0;
  std::uint32_t burst = 1;

  // Mixed pattern: `mix_ratio` I/Os of `pattern`, then one of `mix_pattern`.
  std::optional<Pattern> mix_pattern;
  std::uint32_t mix_ratio = 1;

  // Share of the I/Os (0 to 1) that the host sends as trims (discards) of
  // the range it would have read or written, chosen at random by the seed.
  double trim_share = 0;

  // Skewed random addresses (skew.h), random patterns only: hot_fraction of
  // the target gets hot_access of the I/Os, or Zipf(zipf) over its slots.
  double hot_fraction = 0.0;
  double hot_access = 0.0;
  double zipf = 0.0;

  // DiskSim-style synthetic keys (synthetic.h): open-loop arrivals, random
  // sizes, a sequential share and a read share.
  SyntheticKeys synthetic;

  // Zone workloads on a zoned device (zone_stream.h): off unless zones_open.
  ZoneKeys zone;

  TimeNs run_pause_ns = 0;  // idle time before each run (uFLIP §4.3, no interference)

  // Set by the built-in uFLIP plans: which micro-benchmark, the column (a
  // pattern or a mix) and the varied parameter's value.
  std::string benchmark, column, parameter, value;
  bool reset_state_before = false;  // re-enforce the device state first (uFLIP §4.2)

  std::string origin;  // where it was defined, for error messages ("plan.toml:4")
};

bool writes(const ExperimentSpec& spec);               // any write in the pattern (or mix)
bool reads(const ExperimentSpec& spec);                // any read
bool writes_sequentially(const ExperimentSpec& spec);  // SW in the pattern or the mix

// What an experiment name (io.csv's `experiment` column, unquoted CSV) may
// hold: letters, digits and the punctuation below.
inline constexpr std::string_view kNamePunctuation = "_-./=:+@";
inline bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         kNamePunctuation.find(c) != std::string_view::npos;
}

struct Plan {
  std::string source;  // file name, built-in name or the inline text
  std::vector<ExperimentSpec> experiments;
  // Device state to enforce before the first experiment and at each
  // reset_state_before, as --precondition takes it ("uflip"); empty: none.
  std::string state;
};

// What a plan needs to know about the device it runs on.
struct DeviceInfo {
  std::uint64_t logical_bytes = 0;
  std::uint32_t sector_size = 512;
  std::uint64_t block_bytes = 0;  // flash block size: uFLIP's largest state-enforcement write
};

// Reads WORKLOAD as given on the command line: an existing plan file, a
// built-in uFLIP plan (`uflip:NAME[:key=value,...]`), or an inline
// experiment. Throws ssdlab::Error naming file, line and key.
// The plan's times are checked (check_plan_time).
Plan load_plan(std::string_view workload, const DeviceInfo& device);
// Refuses a plan whose pauses and gaps, summed over its experiments and runs
// (runs x run_pause_us, runs x (count - 1) / burst x pause_us, runs x count
// x the mean interarrival_us), pass the simulated clock's bound
// (kClockLimitNs, common/checked.h): ssdlab::Error naming the experiment and
// the key.
void check_plan_time(const Plan& plan);
Plan parse_plan_file(const std::string& path, const DeviceInfo& device);
Plan parse_inline(std::string_view text);

// Checks an experiment against a device exporting `device_bytes` of logical
// space with `sector_size`-byte sectors; throws ssdlab::Error on a mismatch.
void validate_against_device(const ExperimentSpec& spec, std::uint64_t device_bytes,
                             std::uint32_t sector_size);

}  // namespace ssdlab::workloads
