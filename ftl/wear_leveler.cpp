#include "ftl/wear_leveler.h"

#include <algorithm>

#include "common/error.h"

namespace ssdlab::ftl {

const char* wear_mode_name(WearMode mode) {
  switch (mode) {
    case WearMode::kNone:
      return "none";
    case WearMode::kRateLimit:
      return "rate-limit";
    case WearMode::kMigration:
      return "migration";
  }
  return "?";
}

bool parse_wear_mode(std::string_view text, WearMode& mode) {
  for (const WearMode m : {WearMode::kNone, WearMode::kRateLimit, WearMode::kMigration})
    if (text == wear_mode_name(m)) {
      mode = m;
      return true;
    }
  return false;
}

const char* wear_order_name(WearOrder order) {
  return order == WearOrder::kMigrationFirst ? "migration-first" : "rate-limit-first";
}

bool parse_wear_order(std::string_view text, WearOrder& order) {
  for (const WearOrder o : {WearOrder::kMigrationFirst, WearOrder::kRateLimitFirst})
    if (text == wear_order_name(o)) {
      order = o;
      return true;
    }
  return false;
}

WearBlocks WearBlocks::flash_blocks(const flash::NandArray& nand,
                                    std::vector<std::uint32_t> domain_of_plane,
                                    std::uint32_t domains) {
  WearBlocks blocks{&nand, 1, {}, std::move(domain_of_plane), domains};
  blocks.planes.resize(blocks.domain.size());
  for (std::uint32_t plane = 0; plane < blocks.planes.size(); ++plane) blocks.planes[plane] = plane;
  return blocks;
}

WearLeveler::WearLeveler(const WearConfig& config, std::uint32_t rated_cycles, WearBlocks blocks,
                         std::uint64_t seed)
    : config_(config),
      rated_(rated_cycles),
      blocks_(std::move(blocks)),
      blocks_per_plane_(blocks_.nand->geometry().blocks_per_plane),
      domain_erases_(blocks_.domains, 0),
      domain_blocks_(blocks_.domains, 0),
      rng_(seed ^ 0x77656172ULL) {  // "wear": its own stream, apart from other draws
  for (std::uint32_t unit = 0; unit < units(); ++unit)
    domain_blocks_[blocks_.domain[unit]] += blocks_per_plane_;
  // The erase sequence numbers and erase-order queues serve migration only:
  // without it they would be 24-40 bytes per block of dead weight.
  if (config_.migration()) {
    migration_ = std::make_unique<Migration>();
    migration_->last_erase.assign(this->blocks(), 0);
    migration_->by_erase.resize(blocks_.domains);
    for (flash::BlockId block = 0; block < this->blocks(); ++block)
      migration_->by_erase[domain_of(block)].push_back({block, 0});
  }
}

void WearLeveler::restore_erase_counts() {
  std::fill(domain_erases_.begin(), domain_erases_.end(), 0);
  for (flash::BlockId block = 0; block < blocks(); ++block)
    domain_erases_[domain_of(block)] += std::min(erases(block), rated_);
  if (!migration_) return;
  std::fill(migration_->last_erase.begin(), migration_->last_erase.end(), 0);
  for (auto& queue : migration_->by_erase) queue.clear();
  for (flash::BlockId block = 0; block < blocks(); ++block)
    if (!is_retired(block)) migration_->by_erase[domain_of(block)].push_back({block, 0});
}

double WearLeveler::mean_remaining_life(std::uint32_t domain) const {
  // Every erase takes one cycle off one block until it is retired, and a
  // retired block is never erased again: the sum needs no per-block scan.
  const double blocks = static_cast<double>(domain_blocks_[domain]);
  return static_cast<double>(rated_) -
         static_cast<double>(domain_erases_[domain]) / std::max(1.0, blocks);
}

bool WearLeveler::erased(flash::BlockId block) {
  const std::uint32_t domain = domain_of(block);
  const std::uint64_t sequence = ++domain_erases_[domain];
  if (migration_) migration_->last_erase[block] = sequence;
  if (is_retired(block)) return true;  // never queued again: never a migration source
  if (!migration_) return false;
  auto& queue = migration_->by_erase[domain];
  queue.push_back({block, sequence});
  if (queue.size() > 2 * domain_blocks_[domain] + 64) compact(domain);
  return false;
}

void WearLeveler::compact(std::uint32_t domain) {
  const auto& last_erase = migration_->last_erase;
  std::erase_if(migration_->by_erase[domain],
                [&](const Entry& e) { return e.sequence != last_erase[e.block]; });
}

double WearLeveler::reuse_probability(flash::BlockId block) const {
  if (!config_.rate_limit()) return 1.0;
  const double band = (1.0 - config_.age_variance) * mean_remaining_life(domain_of(block));
  const double life = remaining_life(block);
  if (band <= 0 || life >= band) return 1.0;
  return life / band;
}

bool WearLeveler::may_reuse(flash::BlockId block) {
  const double p = reuse_probability(block);
  return p >= 1.0 || rng_.unit() < p;
}

bool WearLeveler::wants_cold_data(flash::BlockId block) const {
  return config_.migration() && !is_retired(block) &&
         remaining_life(block) < config_.retirement_age * mean_remaining_life(domain_of(block));
}

bool WearLeveler::is_cold(flash::BlockId block) const {
  if (!migration_) return false;  // no erase recency kept
  const std::uint32_t domain = domain_of(block);
  const double idle = static_cast<double>(domain_erases_[domain] - migration_->last_erase[block]);
  return !is_retired(block) && remaining_life(block) >= mean_remaining_life(domain) &&
         idle >= config_.cold_age * static_cast<double>(domain_blocks_[domain]);
}

void WearLeveler::save_state(StateWriter& out) const {
  out.section("WEAR", 2);
  out.vector(domain_erases_);
  out.u8(migration_ != nullptr);
  if (migration_) {
    out.vector(migration_->last_erase);
    for (const auto& queue : migration_->by_erase) {
      out.u64(queue.size());
      for (const Entry& entry : queue) {
        out.u32(entry.block);
        out.u64(entry.sequence);
      }
    }
  }
  out.array(rng_.state());
}

void WearLeveler::load_state(StateReader& in) {
  in.section("WEAR", 2);
  in.vector(domain_erases_, domain_blocks_.size(), "the wear domains");
  if ((in.u8() != 0) != (migration_ != nullptr))
    throw make_error("the wear section was saved with migration {} and is loaded with it {}",
                     migration_ ? "off" : "on", migration_ ? "on" : "off");
  if (migration_) {
    const std::size_t blocks = this->blocks();
    in.vector(migration_->last_erase, blocks, "the wear erase sequence");
    for (auto& queue : migration_->by_erase) {
      // compact() keeps a queue under twice its domain plus 64 entries.
      const std::uint64_t size = in.count(2 * blocks + 64, "a wear queue");
      queue.clear();
      for (std::uint64_t i = 0; i < size; ++i) {
        const flash::BlockId block = in.u32();
        const std::uint64_t sequence = in.u64();
        if (block >= blocks) throw make_error("corrupt: a wear queue names block {}", block);
        queue.push_back({block, sequence});
      }
    }
  }
  Rng::State state;
  in.array(state);
  rng_.set_state(state);
}

}  // namespace ssdlab::ftl
