// Workload plans: experiments described by the keys of DESIGN.md, read from a
// TOML plan file or written inline (`-w 'RW:io_size=4096,count=1000'`). Both
// forms go through one key validator, so they accept exactly the same keys.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

struct ExperimentSpec {
  std::string name;  // the io.csv `experiment` column
  Pattern pattern = Pattern::kRW;
  std::uint64_t io_size = 4096;
  std::uint64_t count = 1024;  // I/Os per run, per process
  std::uint64_t target_offset = 0;
  std::uint64_t target_size = 0;  // 0: from target_offset to the end of the device
  std::uint32_t queue_depth = 1;  // outstanding I/Os per process
  std::uint32_t processes = 1;    // each on its own equal share of the target
  std::uint32_t runs = 1;
  std::uint64_t io_ignore = 0;        // I/Os per process excluded from statistics
  std::optional<std::uint64_t> seed;  // default: the run's --seed
  std::string origin;                 // where it was defined, for error messages ("plan.toml:4")
};

struct Plan {
  std::string source;  // file name or the inline text
  std::vector<ExperimentSpec> experiments;
};

// Reads WORKLOAD as given on the command line: an existing plan file, or an
// inline experiment. Throws ssdlab::Error naming file, line and key.
Plan load_plan(std::string_view workload);
Plan parse_plan_file(const std::string& path);
Plan parse_inline(std::string_view text);

// Checks an experiment against a device exporting `device_bytes` of logical
// space with `sector_size`-byte sectors; throws ssdlab::Error on a mismatch.
void validate_against_device(const ExperimentSpec& spec, std::uint64_t device_bytes,
                             std::uint32_t sector_size);

}  // namespace ssdlab::workloads
