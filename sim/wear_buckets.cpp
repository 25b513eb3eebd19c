#include "sim/wear_buckets.h"

#include <algorithm>
#include <vector>

namespace ssdlab::sim {

nlohmann::json remaining_life_buckets(const flash::NandArray& nand) {
  const flash::Geometry& g = nand.geometry();
  std::vector<std::uint64_t> edges{0};
  for (std::uint64_t edge = 1; edge < g.pe_cycles; edge *= 2) edges.push_back(edge);
  edges.push_back(g.pe_cycles);
  std::vector<std::uint64_t> blocks(edges.size(), 0);
  for (flash::BlockId block = 0; block < g.blocks(); ++block) {
    const std::uint64_t erases = nand.erase_count(block);
    // The last edge not above `erases`.
    const auto bucket = std::upper_bound(edges.begin(), edges.end(), erases) - edges.begin() - 1;
    ++blocks[static_cast<std::size_t>(bucket)];
  }
  return {{"rated_cycles", g.pe_cycles}, {"erases_from", edges}, {"blocks", blocks}};
}

}  // namespace ssdlab::sim
