// Generates the I/Os of one uFLIP process: (offset, size, mode) in order.
#pragma once

#include <cstdint>

#include "common/rng.h"
#include "workloads/plan.h"

namespace ssdlab::workloads {

struct IoRequest {
  std::uint64_t offset = 0;  // bytes
  std::uint32_t size = 0;    // bytes
  bool write = false;
};

class IoGenerator {
 public:
  // Process `process` of `spec` on a device exporting `device_bytes`; the
  // target is split into equal, io_size-aligned shares, one per process.
  // `seed` seeds the random patterns (derive it per run and process).
  IoGenerator(const ExperimentSpec& spec, std::uint32_t process, std::uint64_t device_bytes,
              std::uint64_t seed);

  IoRequest next();

  std::uint64_t base() const { return base_; }
  std::uint64_t span() const { return slots_ * io_size_; }

 private:
  Pattern pattern_;
  std::uint32_t io_size_;
  std::uint64_t base_;   // first byte of this process's share
  std::uint64_t slots_;  // io_size units in the share
  std::uint64_t index_ = 0;
  Rng rng_;
};

// Seed of one (experiment, run, process), derived so that every stream differs.
std::uint64_t stream_seed(std::uint64_t seed, std::uint32_t run, std::uint32_t process);

}  // namespace ssdlab::workloads
