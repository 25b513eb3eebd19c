// Flash read errors: the raw bit errors of a page read, the controller's ECC
// and what it does when ECC fails (read retry, soft-decision decoding).
//
// A page read returns bits some of which are wrong; how many grows with the
// block's program/erase cycles (wear), with the time since the page was
// programmed (retention: charge leaks), and with the reads its block has had
// since its erase (read disturb). The controller corrects each codeword up to
// its ECC's limit, at a decode time that grows with the errors; a codeword
// beyond it is read again with shifted read voltages (read retry: another
// array read and transfer each, with fewer errors each time), then with
// soft-decision sensing (several reads, a stronger decode); what no step
// corrects is an uncorrectable error. docs/errors.md has the model and the
// source of each default.
//
// This file is NAND physics and ECC arithmetic only: no state. The part that
// keeps each block's wear, age and reads and applies this to a device's reads
// is sim/controller/read_errors.h.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "common/units.h"
#include "flash/cell.h"

namespace ssdlab::flash {

// The raw bit error rate of a page read (errors per bit read), in the form
// of Kim, Choi and Min, "Design Tradeoffs for SSD Reliability", FAST 2019,
// Equation 1 (wear, retention and disturbance terms):
//
//   RBER = epsilon + alpha * c^k + beta * c^m * t^n + gamma * c^p * r^q
//
// c: the block's program/erase cycles; t: days since the page was
// programmed; r: the block's reads since its last erase per page of the
// block. `page_factor` scales it per page type (lower, middle, upper, top;
// 1 for each: the cited model is over all of a block's pages). The two sets
// of that paper (a 2y-nm MLC and a 3D TLC) are tlc_fast19() and
// mlc_fast19(); docs/errors.md has where each number was read.
struct RberModel {
  double epsilon = 0;
  double alpha = 0, k = 1;
  double beta = 0, m = 1, n = 1;
  double gamma = 0, p = 1, q = 1;
  std::array<double, kMaxPageTypes> page_factor{1, 1, 1, 1};

  double rber(double pe_cycles, double retention_days, double reads_per_page,
              std::uint32_t page_type) const;
  bool operator==(const RberModel&) const = default;
};
RberModel tlc_fast19();
RberModel mlc_fast19();

// The controller's ECC and its recovery steps.
struct EccModel {
  std::uint32_t codeword_bytes = 4096;   // data bytes per codeword (timing.codeword_bytes)
  std::uint32_t correctable_bits = 100;  // hard-decision limit per codeword
  // Hard-decision decode time: decode_ns + decode_ns_per_error per bit error
  // of the worst codeword; a failing decode runs to the limit's time.
  TimeNs decode_ns = 0, decode_ns_per_error = 0;
  // Read retry: at most `retries` further reads at shifted read voltages,
  // each leaving `retry_error_factor` of the errors of the read before.
  std::uint32_t retries = 0;
  double retry_error_factor = 1;
  // Soft decision, after the retries: `soft_reads` array reads (and
  // transfers) in all, then a soft decode of soft_decode_ns that corrects
  // up to soft_correctable_bits per codeword. 0 reads: no soft decoding.
  std::uint32_t soft_reads = 0;
  std::uint32_t soft_correctable_bits = 0;
  TimeNs soft_decode_ns = 0;

  TimeNs hard_decode_ns(std::uint32_t errors) const {
    return decode_ns + decode_ns_per_error * TimeNs{std::min(errors, correctable_bits)};
  }
  bool operator==(const EccModel&) const = default;
};

// How the controller recovered one page read.
struct ReadRecovery {
  enum class Step : std::uint8_t { kFirstRead, kRetry, kSoft, kUncorrectable };
  Step step = Step::kFirstRead;
  std::uint32_t errors = 0;       // bit errors of the worst codeword at the first read
  std::uint32_t retries = 0;      // retry reads taken
  std::uint32_t extra_reads = 0;  // array reads beyond the first (retries, soft sensing)
  TimeNs decode_ns = 0;           // every decode's time, summed
};
const char* recovery_step_name(ReadRecovery::Step step);

// The steps that recover a read whose worst codeword has `errors` bit errors.
ReadRecovery recover(const EccModel& ecc, std::uint32_t errors);

// A deterministic draw of the bit errors of one codeword of `bits` bits at
// raw bit error rate `rber` (Poisson: a binomial of many bits and a small
// rate), from the uniform numbers `u1`, `u2` in (0, 1).
std::uint32_t draw_bit_errors(double rber, double bits, double u1, double u2);

// A uniform number in (0, 1) from a 64-bit key (splitmix64's mix).
double uniform_of(std::uint64_t key);

}  // namespace ssdlab::flash
