// Synthetic workloads in the manner of DiskSim's workload generator, which
// Agrawal et al. used for their microbenchmarks (§4.2, §4.3, Table 3):
// open-loop arrivals with a random inter-arrival time, random request sizes
// rounded up to a blocking size, a probability that a request continues
// where the previous one ended, and a read fraction. The plan keys are
// `interarrival_us`, `size_distribution`, `sequential_share` and
// `read_share` (docs/reference/plan-keys.md).
#pragma once

#include <cstdint>
#include <span>
#include <optional>
#include <string>

#include "common/io_mode.h"
#include "common/rng.h"
#include "common/units.h"

namespace ssdlab::workloads {

struct ExperimentSpec;
struct KeyValue;
struct PlanKey;  // plan_keys.h
struct IoRequest;

// A distribution of non-negative values: constant(a), uniform over [a, b],
// or exponential with mean a. Written "constant:A", "uniform:A:B",
// "exponential:A" in a plan.
struct Distribution {
  enum class Kind { kConstant, kUniform, kExponential };
  Kind kind = Kind::kConstant;
  double a = 0, b = 0;

  double draw(Rng& rng) const;
  double mean() const;
  std::string describe() const;  // as written in a plan, e.g. "uniform:0:1000"
};

// What the synthetic keys ask of an experiment; any() is false for a plain
// uFLIP experiment.
struct SyntheticKeys {
  std::optional<Distribution> interarrival_ns;  // given: open-loop arrivals
  std::optional<Distribution> size_bytes;       // rounded up to whole io_size
  std::optional<double> sequential_share;       // default: from the pattern (S: 1, R: 0)
  std::optional<double> read_share;             // default: from the pattern (R: 1, W: 0)
  bool any() const { return interarrival_ns || size_bytes || sequential_share || read_share; }
  bool open_loop() const { return interarrival_ns.has_value(); }
};

// The synthetic keys (interarrival_us, size_distribution, sequential_share,
// read_share), a table of plan_keys.h; each throws ssdlab::Error "where:
// key: what" on a bad value.
std::span<const PlanKey> synthetic_keys();

// Checks the synthetic keys against the experiment's other keys.
void check_synthetic(const ExperimentSpec& spec);

// The I/Os of one process of a synthetic experiment over its share of the
// target (`base`, `slots` of `io_size` bytes). Open loop: each request's
// delay_ns is the time since the previous arrival. Deterministic from `seed`:
// arrivals, sizes, addresses and modes draw from streams of their own, so
// changing one distribution leaves the others' draws alone.
class SyntheticStream {
 public:
  SyntheticStream(const ExperimentSpec& spec, std::uint64_t base, std::uint64_t slots,
                  std::uint64_t seed);
  IoRequest next();

 private:
  SyntheticKeys keys_;
  std::string origin_;  // the experiment's, for errors
  std::uint32_t io_size_;
  std::uint64_t base_, slots_;
  double sequential_share_, read_share_;
  Rng arrivals_, sizes_, addresses_, modes_;
  std::uint64_t next_slot_ = 0;  // where a sequential request continues
  bool first_ = true;
};

}  // namespace ssdlab::workloads
