// Helpers shared by the benchmarks: the preset and fixed-seed address streams.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/rng.h"
#include "sim/config/config.h"

namespace ssdlab::bench {

// Every benchmark draws from this seed, so that runs are comparable.
inline constexpr std::uint64_t kSeed = 42;

// configs/agrawal-baseline.toml (32 GiB, 8 packages, page-mapped), loaded once:
// parsing TOML is not what any benchmark measures.
inline const sim::DeviceConfig& baseline() {
  static const sim::DeviceConfig config =
      sim::load_config(std::string(SSDLAB_SOURCE_DIR) + "/configs/agrawal-baseline.toml");
  return config;
}

// Addresses are drawn before timing starts and replayed from a table, so the
// loops measure the code under test, not the generator. 2^20 entries: the maps
// they index (tens of MiB on the baseline) are touched all over, as by a real
// random workload, and a power of two lets the loops wrap with a mask.
inline constexpr std::size_t kTableSize = std::size_t{1} << 20;
inline constexpr std::size_t kTableMask = kTableSize - 1;

// kTableSize uniform values in [0, bound).
inline std::vector<std::uint64_t> random_table(std::uint64_t bound) {
  Rng rng(kSeed);
  std::vector<std::uint64_t> values(kTableSize);
  for (auto& value : values) value = rng.uniform(bound);
  return values;
}

}  // namespace ssdlab::bench
