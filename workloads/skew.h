// Skewed random addresses for the random uFLIP patterns (RR, RW): a hot/cold
// split or a Zipf distribution over the target's io_size slots. uFLIP's own
// random pattern is uniform; cleaning studies (Rosenblum & Ousterhout's
// hot-and-cold, Desnoyers SYSTOR 2012) need skew.
//
//   hot/cold  a fraction `hot_access` of the I/Os goes uniformly to the first
//             `hot_fraction` of the slots, the rest uniformly to the others.
//   zipf      slot k-1 is drawn with probability proportional to 1/k^theta
//             (slot 0 hottest), by rejection-inversion (Hörmann & Derflinger,
//             "Rejection-inversion to generate variates from monotone
//             discrete distributions", 1996): O(1) expected time per draw and
//             O(1) memory whatever the number of slots, no table.
// Draws use the caller's generator, so they are deterministic by seed.
#pragma once

#include <cstdint>

#include "common/rng.h"

namespace ssdlab::workloads {

struct Skew {
  double hot_fraction = 0.0;  // 0: no hot/cold split
  double hot_access = 0.0;
  double zipf = 0.0;  // theta; 0: no Zipf
  bool any() const { return hot_fraction > 0.0 || zipf > 0.0; }
};

// Zipf(theta) over ranks 1..n by rejection-inversion.
class ZipfSampler {
 public:
  ZipfSampler(std::uint64_t n, double theta);
  std::uint64_t rank(Rng& rng) const;  // in [1, n]

 private:
  double h(double x) const;
  double h_integral(double x) const;
  double h_integral_inverse(double x) const;

  std::uint64_t n_;
  double theta_;
  double h_integral_x1_;
  double h_integral_n_;
  double s_;
};

// A skewed slot in [0, slots).
class SkewedSlots {
 public:
  SkewedSlots(const Skew& skew, std::uint64_t slots);
  std::uint64_t slot(Rng& rng) const;

 private:
  Skew skew_;
  std::uint64_t slots_;
  std::uint64_t hot_slots_;  // hot/cold: slots [0, hot_slots_) are hot
  ZipfSampler zipf_;
};

}  // namespace ssdlab::workloads
