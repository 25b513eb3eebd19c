#include "workloads/generator.h"

namespace ssdlab::workloads {

IoGenerator::IoGenerator(const ExperimentSpec& spec, std::uint32_t process,
                         std::uint64_t device_bytes, std::uint64_t seed)
    : pattern_(spec.pattern), io_size_(static_cast<std::uint32_t>(spec.io_size)), rng_(seed) {
  const std::uint64_t target =
      spec.target_size ? spec.target_size : device_bytes - spec.target_offset;
  const std::uint64_t share = target / spec.processes / spec.io_size * spec.io_size;
  base_ = spec.target_offset + share * process;
  slots_ = share / spec.io_size;
}

IoRequest IoGenerator::next() {
  // Sequential patterns wrap around inside the share; random ones are aligned
  // to io_size, uniformly over the share.
  const std::uint64_t slot = is_random(pattern_) ? rng_.uniform(slots_) : index_ % slots_;
  ++index_;
  return IoRequest{base_ + slot * io_size_, io_size_, is_write(pattern_)};
}

std::uint64_t stream_seed(std::uint64_t seed, std::uint32_t run, std::uint32_t process) {
  Rng mix(seed ^ (std::uint64_t{run} << 32 | process) * 0x9e3779b97f4a7c15ULL);
  return mix.next();
}

}  // namespace ssdlab::workloads
