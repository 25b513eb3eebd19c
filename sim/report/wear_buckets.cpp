#include "sim/report/wear_buckets.h"

#include "sim/controller/ssd.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace ssdlab::sim {

EraseBuckets remaining_life_buckets(const flash::NandArray& nand) {
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
  return {g.pe_cycles, std::move(edges), std::move(blocks)};
}

WearRecord wear_report(const Ssd& ssd) {
  const flash::NandArray& nand = ssd.ftl().nand();
  const auto& g = nand.geometry();
  double sum = 0, squares = 0;
  std::uint64_t min_life = g.pe_cycles, expired = 0;
  for (flash::BlockId block = 0; block < g.blocks(); ++block) {
    const std::uint32_t erases = nand.erase_count(block);
    const std::uint64_t life = erases >= g.pe_cycles ? 0 : g.pe_cycles - erases;
    expired += life == 0;
    min_life = std::min(min_life, life);
    sum += static_cast<double>(life);
    squares += static_cast<double>(life) * static_cast<double>(life);
  }
  const double n = g.blocks();
  const double mean = sum / n;
  // Table 8: blocks by remaining life relative to the mean, in disjoint bins
  // [0, 40%), [40%, 80%), [80%, 100%), >= 100%.
  std::uint64_t bins[4] = {0, 0, 0, 0};
  for (flash::BlockId block = 0; block < g.blocks(); ++block) {
    const std::uint32_t erases = nand.erase_count(block);
    const double life = erases >= g.pe_cycles ? 0.0 : g.pe_cycles - erases;
    bins[life >= mean ? 3 : life >= 0.8 * mean ? 2 : life >= 0.4 * mean ? 1 : 0]++;
  }
  const ftl::FtlStats& f = ssd.ftl().stats();
  const ftl::WearConfig& w = ssd.config().ftl.wear;
  const flash::Timing& t = ssd.config().timing;
  // Flash time of migration, unloaded: each page read and programmed, each
  // source block erased (queueing shows in the response times instead).
  const double migration_us =
      (static_cast<double>(f.wear_migrated_pages) * static_cast<double>(t.read_ns + t.program_ns) +
       static_cast<double>(f.wear_migrations) * static_cast<double>(t.erase_ns)) /
      1000.0;
  WearRecord wear;
  wear.rated_cycles = g.pe_cycles;
  wear.wear_leveling = ftl::wear_mode_name(w.mode);
  wear.remaining_life_mean = mean;
  wear.remaining_life_stddev = std::sqrt(std::max(0.0, squares / n - mean * mean));
  wear.remaining_life_min = min_life;
  wear.blocks_expired = expired;
  wear.blocks_retired = f.blocks_retired;
  wear.remaining_life_histogram = {bins[0], bins[1], bins[2], bins[3]};
  wear.remaining_life_buckets = remaining_life_buckets(nand);
  wear.rate_limit_deferrals = f.wear_deferrals;
  wear.migrations = f.wear_migrations;
  wear.migrations_per_pool = f.wear_migrations_per_pool;
  wear.migrated_pages = f.wear_migrated_pages;
  wear.migration_flash_us = migration_us;
  return wear;
}

}  // namespace ssdlab::sim
