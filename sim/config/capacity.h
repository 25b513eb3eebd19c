// How much spare flash a device config leaves in fact. `ftl.overprovisioning`
// is nominal: the exported capacity is also capped by the cleaning reserve
// (the FTL's low-water free blocks and its open blocks, ftl/page_mapped/page_mapped.cpp),
// and the blocks an FTL keeps open or free hold no superseded data, so
// cleaning (Agrawal et al. §3.2, Table 6 "Overprovisioning: less cleaning")
// works with less spare than the nominal figure says. `ssdlab config` prints
// these figures and summary.json echoes them as `config.capacity`.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>

#include "ftl/ftl.h"
#include "sim/config/config.h"

namespace ssdlab::sim {

struct SpareCapacity {
  std::uint64_t physical_bytes = 0;  // the data area of every flash page
  std::uint64_t logical_bytes = 0;   // exported to the host
  std::uint64_t block_bytes = 0;     // one flash block's data area
  double nominal = 0;                // ftl.overprovisioning, as configured
  std::uint64_t open_blocks = 0;     // ftl::Ftl::SpareBlocks
  std::uint64_t kept_free_blocks = 0;

  // Spare as a fraction of the physical bytes: beyond the exported capacity;
  // then less the open blocks; then also less the blocks kept free.
  double effective() const { return spare_fraction(0); }
  double less_open_blocks() const { return spare_fraction(open_blocks); }
  double less_open_and_free_blocks() const {
    return spare_fraction(open_blocks + kept_free_blocks);
  }

 private:
  double spare_fraction(std::uint64_t blocks) const;
};

// The figures of `ftl`, built from `config`.
SpareCapacity spare_capacity(const DeviceConfig& config, const ftl::Ftl& ftl);

// summary.json's `config.capacity` (not a config key: config_from_json skips it).
void to_json(nlohmann::json& json, const SpareCapacity& spare);
// What to_json() wrote, read back (the block size from `config`).
SpareCapacity spare_capacity_from_json(const nlohmann::json& json, const DeviceConfig& config);

}  // namespace ssdlab::sim
