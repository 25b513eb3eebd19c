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

WearLeveler::WearLeveler(const WearConfig& config, std::uint32_t rated_cycles,
                         std::vector<std::uint32_t> domain_of_block, std::uint32_t domains,
                         std::uint64_t seed)
    : config_(config),
      rated_(rated_cycles),
      domain_of_(std::move(domain_of_block)),
      erases_(domain_of_.size(), 0),
      last_erase_(domain_of_.size(), 0),
      domain_erases_(domains, 0),
      domain_blocks_(domains, 0),
      by_erase_(domains),
      rng_(seed ^ 0x77656172ULL) {  // "wear": its own stream, apart from other draws
  // The erase-order queues serve migration only: without it they would be
  // 16-32 bytes per block of dead weight (0.25-0.5 bytes per page).
  for (flash::BlockId block = 0; block < domain_of_.size(); ++block) {
    ++domain_blocks_[domain_of_[block]];
    if (config_.migration()) by_erase_[domain_of_[block]].push_back({block, 0});
  }
}

void WearLeveler::restore_erase_counts(const std::vector<std::uint32_t>& erases) {
  erases_ = erases;
  std::fill(last_erase_.begin(), last_erase_.end(), 0);
  std::fill(domain_erases_.begin(), domain_erases_.end(), 0);
  for (auto& queue : by_erase_) queue.clear();
  for (flash::BlockId block = 0; block < domain_of_.size(); ++block) {
    domain_erases_[domain_of_[block]] += std::min(erases_[block], rated_);
    if (!is_retired(block)) by_erase_[domain_of_[block]].push_back({block, 0});
  }
}

double WearLeveler::mean_remaining_life(std::uint32_t domain) const {
  // Every erase takes one cycle off one block until it is retired, and a
  // retired block is never erased again: the sum needs no per-block scan.
  const double blocks = static_cast<double>(domain_blocks_[domain]);
  return static_cast<double>(rated_) -
         static_cast<double>(domain_erases_[domain]) / std::max(1.0, blocks);
}

bool WearLeveler::erased(flash::BlockId block) {
  const std::uint32_t domain = domain_of_[block];
  ++erases_[block];
  last_erase_[block] = ++domain_erases_[domain];
  if (is_retired(block)) return true;  // never queued again: never a migration source
  if (!config_.migration()) return false;
  by_erase_[domain].push_back({block, last_erase_[block]});
  if (by_erase_[domain].size() > 2 * domain_blocks_[domain] + 64) compact(domain);
  return false;
}

void WearLeveler::compact(std::uint32_t domain) {
  auto& queue = by_erase_[domain];
  std::erase_if(queue, [this](const Entry& e) { return e.sequence != last_erase_[e.block]; });
}

double WearLeveler::reuse_probability(flash::BlockId block) const {
  if (!config_.rate_limit()) return 1.0;
  const double band = (1.0 - config_.age_variance) * mean_remaining_life(domain_of_[block]);
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
         remaining_life(block) < config_.retirement_age * mean_remaining_life(domain_of_[block]);
}

bool WearLeveler::is_cold(flash::BlockId block) const {
  const std::uint32_t domain = domain_of_[block];
  const double idle = static_cast<double>(domain_erases_[domain] - last_erase_[block]);
  return !is_retired(block) && remaining_life(block) >= mean_remaining_life(domain) &&
         idle >= config_.cold_age * static_cast<double>(domain_blocks_[domain]);
}

void WearLeveler::save_state(StateWriter& out) const {
  out.section("WEAR", 1);
  out.vector(erases_);
  out.vector(last_erase_);
  out.vector(domain_erases_);
  for (const auto& queue : by_erase_) {
    out.u64(queue.size());
    for (const Entry& entry : queue) {
      out.u32(entry.block);
      out.u64(entry.sequence);
    }
  }
  out.array(rng_.state());
}

void WearLeveler::load_state(StateReader& in) {
  in.section("WEAR", 1);
  const std::size_t blocks = domain_of_.size();
  in.vector(erases_, blocks, "the wear erase counts");
  in.vector(last_erase_, blocks, "the wear erase sequence");
  in.vector(domain_erases_, domain_blocks_.size(), "the wear domains");
  for (auto& queue : by_erase_) {
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
  Rng::State state;
  in.array(state);
  rng_.set_state(state);
}

}  // namespace ssdlab::ftl
