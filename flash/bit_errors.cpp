#include "flash/bit_errors.h"

#include <cmath>
#include <numbers>

namespace ssdlab::flash {

double RberModel::rber(double pe_cycles, double retention_days, double reads_per_page,
                       std::uint32_t page_type) const {
  const double c = std::max(pe_cycles, 0.0);
  const double t = std::max(retention_days, 0.0);
  const double r = std::max(reads_per_page, 0.0);
  const double rate = epsilon + alpha * std::pow(c, k) + beta * std::pow(c, m) * std::pow(t, n) +
                      gamma * std::pow(c, p) * std::pow(r, q);
  return std::min(page_factor[page_type] * rate, 0.5);  // (random bits are half wrong)
}

// Kim, Choi and Min, FAST 2019, Equation 1's parameters, as the SimpleSSD
// project (the MLC set, ftl/read_reclaim/abstract_read_reclaim.cc: "2y-nm
// MLC") and MQSim forks (the TLC set) carry them; docs/errors.md.
RberModel tlc_fast19() {
  RberModel m;
  m.epsilon = 1.48e-3;
  m.alpha = 3.90e-10, m.k = 2.05;
  m.beta = 6.28e-5, m.m = 0.14, m.n = 0.54;
  m.gamma = 3.73e-9, m.p = 0.33, m.q = 1.71;
  return m;
}

RberModel mlc_fast19() {
  RberModel m;
  m.epsilon = 8.34e-5;
  m.alpha = 3.30e-11, m.k = 1.71;
  m.beta = 5.56e-19, m.m = 2.49, m.n = 3.33;
  m.gamma = 6.26e-13, m.p = 1.76, m.q = 0.47;
  return m;
}

const char* recovery_step_name(ReadRecovery::Step step) {
  switch (step) {
    case ReadRecovery::Step::kFirstRead:
      return "first read";
    case ReadRecovery::Step::kRetry:
      return "read retry";
    case ReadRecovery::Step::kSoft:
      return "soft decoding";
    case ReadRecovery::Step::kUncorrectable:
      return "uncorrectable";
  }
  return "?";
}

ReadRecovery recover(const EccModel& ecc, std::uint32_t errors) {
  ReadRecovery r;
  r.errors = errors;
  r.decode_ns = ecc.hard_decode_ns(errors);
  if (errors <= ecc.correctable_bits) return r;
  // Each retry reads again at shifted voltages and decodes again.
  double left = errors;
  for (std::uint32_t i = 0; i < ecc.retries; ++i) {
    left *= ecc.retry_error_factor;
    ++r.retries;
    ++r.extra_reads;
    const auto remaining = static_cast<std::uint32_t>(std::ceil(left));
    r.decode_ns += ecc.hard_decode_ns(remaining);
    if (remaining <= ecc.correctable_bits) {
      r.step = ReadRecovery::Step::kRetry;
      return r;
    }
  }
  if (ecc.soft_reads > 0) {
    // Soft sensing at the best retry's voltages: its reads, one decode.
    r.extra_reads += ecc.soft_reads;
    r.decode_ns += ecc.soft_decode_ns;
    if (std::ceil(left) <= ecc.soft_correctable_bits) {
      r.step = ReadRecovery::Step::kSoft;
      return r;
    }
  }
  r.step = ReadRecovery::Step::kUncorrectable;
  return r;
}

std::uint32_t draw_bit_errors(double rber, double bits, double u1, double u2) {
  const double mean = rber * bits;
  if (mean <= 0) return 0;
  if (mean < 30) {
    // Inversion of the Poisson distribution's cumulative sum.
    double p = std::exp(-mean), sum = p;
    std::uint32_t k = 0;
    while (u1 > sum && k < 1000) {
      ++k;
      p *= mean / k;
      sum += p;
    }
    return k;
  }
  // Many errors: the normal approximation (Box-Muller), rounded.
  const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
  return static_cast<std::uint32_t>(std::max(0.0, std::round(mean + z * std::sqrt(mean))));
}

double uniform_of(std::uint64_t key) {
  std::uint64_t z = key + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  // 53 bits, offset by half a step: never 0, never 1.
  return (static_cast<double>(z >> 11) + 0.5) / 9007199254740992.0;
}

}  // namespace ssdlab::flash
