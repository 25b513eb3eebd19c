#include "workloads/generator.h"

namespace ssdlab::workloads {

LbaFunction::LbaFunction(Pattern pattern, std::int64_t increment, std::uint32_t partitions,
                         std::uint64_t slots, std::uint64_t seed, const Skew& skew)
    : random_(is_random(pattern)),
      increment_(increment),
      partitions_(partitions),
      slots_(slots),
      partition_slots_(slots / partitions),
      rng_(seed) {
  if (random_ && skew.any()) skewed_.emplace(skew, slots);
}

std::uint64_t LbaFunction::slot(std::uint64_t i) {
  // Rnd: random(TargetSize / IOSize).
  if (random_) return skewed_ ? skewed_->slot(rng_) : rng_.uniform(slots_);
  // Partitioned: P_i x PS + O_i with P_i = i mod Partitions and
  // O_i = (i / Partitions) x IOSize mod PS, in slots.
  if (partitions_ > 1)
    return (i % partitions_) * partition_slots_ + (i / partitions_) % partition_slots_;
  // Ordered: TargetOffset + Incr x i x IOSize, wrapping inside the target
  // (Locality: (i x IOSize) mod TargetSize). A negative increment walks down
  // from the last slot, so that reverse (-1) starts at the target's end.
  const auto magnitude = static_cast<std::uint64_t>(increment_ < 0 ? -increment_ : increment_);
  const std::uint64_t step =
      static_cast<std::uint64_t>((static_cast<Uint128>(magnitude) * i) % slots_);
  return increment_ < 0 ? slots_ - 1 - step : step;
}

namespace {

// Slots of io_size in one process's share of the target, after the shift.
std::uint64_t share_slots(const ExperimentSpec& spec, std::uint64_t device_bytes) {
  const std::uint64_t target =
      spec.target_size ? spec.target_size : device_bytes - spec.target_offset;
  const std::uint64_t share = target / spec.processes;
  return share > spec.io_shift ? (share - spec.io_shift) / spec.io_size : 0;
}

std::uint64_t share_base(const ExperimentSpec& spec, std::uint64_t device_bytes,
                         std::uint32_t process) {
  const std::uint64_t target =
      spec.target_size ? spec.target_size : device_bytes - spec.target_offset;
  return spec.target_offset + target / spec.processes * process + spec.io_shift;
}

Skew skew_of(const ExperimentSpec& spec) {
  return Skew{spec.hot_fraction, spec.hot_access, spec.zipf};
}

}  // namespace

IoGenerator::IoGenerator(const ExperimentSpec& spec, std::uint32_t process,
                         std::uint64_t device_bytes, std::uint64_t seed)
    : io_size_(static_cast<std::uint32_t>(spec.io_size)),
      base_(share_base(spec, device_bytes, process)),
      slots_(share_slots(spec, device_bytes)),
      first_{is_write(spec.pattern), LbaFunction(spec.pattern, spec.increment, spec.partitions,
                                                 slots_, seed, skew_of(spec))},
      second_{spec.mix_pattern && is_write(*spec.mix_pattern),
              LbaFunction(spec.mix_pattern.value_or(spec.pattern), spec.increment, spec.partitions,
                          slots_, seed ^ 0x6d6978ULL, skew_of(spec))},
      ratio_(spec.mix_pattern ? spec.mix_ratio : 0),
      pause_ns_(spec.pause_ns),
      burst_(spec.burst),
      trim_share_(spec.trim_share),
      trims_(seed ^ 0x7472696dULL) {
  if (spec.synthetic.any()) synthetic_.emplace(spec, base_, slots_, seed);
  if (spec.zone.on()) zones_.emplace(spec, base_, slots_ * io_size_);
}

IoRequest IoGenerator::next() {
  if (synthetic_) return synthetic_->next();
  if (zones_) return zones_->next();
  // Mix (Table 1): Ratio I/Os of pattern #1, then one of pattern #2; each
  // pattern keeps its own LBA sequence.
  Stream& stream = ratio_ && index_ % (ratio_ + 1) == ratio_ ? second_ : first_;
  IoRequest io{base_ + stream.lba.slot(stream.issued++) * io_size_, io_size_,
               io_mode_of(stream.write), 0};
  if (trim_share_ > 0 && trims_.unit() < trim_share_) io.mode = IoMode::kTrim;
  // burst(Pause, Burst): a pause before each group of Burst I/Os but the
  // first; pause(Pause) = burst(Pause, 1) pauses before every I/O but the first.
  if (pause_ns_ && index_ > 0 && index_ % burst_ == 0) io.delay_ns = pause_ns_;
  ++index_;
  return io;
}

std::uint64_t stream_seed(std::uint64_t seed, std::uint32_t run, std::uint32_t process) {
  Rng mix(seed ^ (std::uint64_t{run} << 32 | process) * 0x9e3779b97f4a7c15ULL);
  return mix.next();
}

std::uint64_t experiment_seed(std::uint64_t seed, std::string_view name) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;  // FNV-1a
  for (const char c : name) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  Rng mix(seed ^ hash);
  return mix.next();
}

}  // namespace ssdlab::workloads
