// Generates the I/Os of one uFLIP process (§3.1, Table 1): for each I/O its
// offset, size and mode, and the pause to wait before submitting it.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "common/io_mode.h"
#include "common/rng.h"
#include "common/units.h"
#include "workloads/plan.h"
#include "workloads/skew.h"
#include "workloads/synthetic.h"
#include "workloads/zone_stream.h"

namespace ssdlab::workloads {

struct IoRequest {
  std::uint64_t offset = 0;  // bytes
  std::uint32_t size = 0;    // bytes
  IoMode mode = IoMode::kRead;
  // Closed loop: idle time after the previous I/O completes (time function).
  // Open loop (interarrival_us): the time since the previous arrival.
  TimeNs delay_ns = 0;
};

// The LBA function of one baseline pattern over a target (Table 1), in units
// of io_size from `base`: sequential (ordered with an increment, reverse and
// in-place included), partitioned, or random.
class LbaFunction {
 public:
  // `skew`: how random patterns spread over the slots (uniform if none).
  LbaFunction(Pattern pattern, std::int64_t increment, std::uint32_t partitions,
              std::uint64_t slots, std::uint64_t seed, const Skew& skew = {});
  // Slot of the stream's i-th I/O; call with i = 0, 1, 2, ...
  std::uint64_t slot(std::uint64_t i);

 private:
  bool random_;
  std::int64_t increment_;
  std::uint64_t partitions_;
  std::uint64_t slots_;
  std::uint64_t partition_slots_;  // PS / IOSize
  Rng rng_;
  std::optional<SkewedSlots> skewed_;
};

class IoGenerator {
 public:
  // Process `process` of `spec` on a device exporting `device_bytes`; the
  // target is split into equal, io_size-aligned shares, one per process
  // (Table 1, Parallelism). `seed` seeds the random patterns (derive it per
  // run and process).
  IoGenerator(const ExperimentSpec& spec, std::uint32_t process, std::uint64_t device_bytes,
              std::uint64_t seed);

  IoRequest next();

  std::uint64_t base() const { return base_; }
  std::uint64_t span() const { return slots_ * io_size_; }

 private:
  struct Stream {
    bool write;
    LbaFunction lba;
    std::uint64_t issued = 0;
  };

  std::uint32_t io_size_;
  std::uint64_t base_;   // first byte of this process's share, io_shift included
  std::uint64_t slots_;  // io_size units in the share
  Stream first_;
  Stream second_;            // the mixed-in pattern; unused without a mix
  std::uint32_t ratio_ = 0;  // first_ I/Os per second_ I/O; 0: no mix
  TimeNs pause_ns_;
  std::uint32_t burst_;
  std::uint64_t index_ = 0;
  // trim_share: the share of I/Os sent as trims of the same range, drawn
  // from a stream of their own (so that the addresses do not change with it).
  double trim_share_;
  Rng trims_;
  std::optional<SyntheticStream> synthetic_;  // the synthetic keys replace the above
  std::optional<ZoneStream> zones_;           // so do the zone keys
};

// Seed of one (experiment, run, process), derived so that every stream differs.
std::uint64_t stream_seed(std::uint64_t seed, std::uint32_t run, std::uint32_t process);

// Seed of an experiment that gives none: the run's seed mixed with the
// experiment's name, so that two experiments of a plan never replay the same
// random addresses (the second would only overwrite what the first wrote,
// leaving the cleaner blocks without valid data), while one experiment gets
// the same addresses in any plan.
std::uint64_t experiment_seed(std::uint64_t seed, std::string_view name);

}  // namespace ssdlab::workloads
