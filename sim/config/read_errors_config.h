// Flash read errors ([errors]; flash/bit_errors.h, sim/controller/read_errors.h):
// the raw bit error model, the ECC and its recovery steps, the age a run starts
// from and read reclaim. Off by default (no table): every read
// succeeds in one array read, as before. docs/errors.md has the model and
// the sources of its defaults.
#pragma once

#include <cstdint>

#include "flash/bit_errors.h"

namespace ssdlab::sim {

struct ReadErrorsConfig {
  bool enabled = false;
  flash::RberModel rber;
  flash::EccModel ecc;
  // An aged drive (--age; docs/errors.md, "Aged drives"): every block has
  // had so many more program/erase cycles than the FTL counts, and the data
  // on flash when the run starts was programmed so long before it.
  double age_pe_cycles = 0;
  double age_retention_days = 0;
  // Read reclaim: a block is rewritten in the background once its reads
  // since its erase reach reclaim_reads, or once a read of it took
  // reclaim_retries retries or more (0: never).
  std::uint32_t reclaim_reads = 0;
  std::uint32_t reclaim_retries = 0;
  std::uint64_t seed = 0;  // mixed into every draw

  bool on() const { return enabled; }
  bool operator==(const ReadErrorsConfig&) const = default;
};

}  // namespace ssdlab::sim
