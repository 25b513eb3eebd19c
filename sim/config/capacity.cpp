#include "sim/config/capacity.h"

#include <nlohmann/json.hpp>

namespace ssdlab::sim {

double SpareCapacity::spare_fraction(std::uint64_t blocks) const {
  if (physical_bytes == 0) return 0.0;
  // Signed: a reserve larger than the spare leaves a negative figure, which
  // says just that.
  const double spare = static_cast<double>(physical_bytes) - static_cast<double>(logical_bytes) -
                       static_cast<double>(blocks) * static_cast<double>(block_bytes);
  return spare / static_cast<double>(physical_bytes);
}

SpareCapacity spare_capacity(const DeviceConfig& config, const ftl::Ftl& ftl) {
  const flash::Geometry& g = config.geometry;
  SpareCapacity spare;
  spare.physical_bytes = g.capacity_bytes();
  spare.logical_bytes = ftl.logical_pages() * ftl.logical_page_size();
  spare.block_bytes = std::uint64_t{g.pages_per_block} * g.page_size;
  spare.nominal = config.ftl.overprovisioning;
  const ftl::Ftl::SpareBlocks blocks = ftl.spare_blocks();
  spare.open_blocks = blocks.open;
  spare.kept_free_blocks = blocks.kept_free;
  return spare;
}

void to_json(nlohmann::json& json, const SpareCapacity& spare) {
  json = {{"physical_bytes", spare.physical_bytes},
          {"logical_bytes", spare.logical_bytes},
          {"overprovisioning_nominal", spare.nominal},
          {"overprovisioning_effective", spare.effective()},
          {"open_blocks", spare.open_blocks},
          {"spare_less_open_blocks", spare.less_open_blocks()},
          {"kept_free_blocks", spare.kept_free_blocks},
          {"spare_less_open_and_free_blocks", spare.less_open_and_free_blocks()}};
}

SpareCapacity spare_capacity_from_json(const nlohmann::json& json, const DeviceConfig& config) {
  SpareCapacity spare;
  spare.physical_bytes = json.value("physical_bytes", std::uint64_t{0});
  spare.logical_bytes = json.value("logical_bytes", std::uint64_t{0});
  spare.block_bytes = std::uint64_t{config.geometry.pages_per_block} * config.geometry.page_size;
  spare.nominal = json.value("overprovisioning_nominal", 0.0);
  spare.open_blocks = json.value("open_blocks", std::uint64_t{0});
  spare.kept_free_blocks = json.value("kept_free_blocks", std::uint64_t{0});
  return spare;
}

}  // namespace ssdlab::sim
