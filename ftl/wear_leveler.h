// Wear leveling shared by the FTLs that clean (Agrawal et al. §5): block
// retirement at the rated P/E cycles, rate-limited reuse of worn blocks, and
// the tests that choose where cold data migrates. The FTL keeps its own
// victim choice (greedy, §3.2) and asks this policy what to do with it; each
// part is a switch, so that the rows of Table 7 (greedy, + rate-limiting,
// + migration) can be compared.
//
// Terms (§5): a block's remaining life is rated cycles minus its erase count;
// the average is over the blocks of the block's domain (its allocation pool:
// data never leaves its pool, so blocks can only be levelled within it).
//  - ageVariance (`age_variance`, 20%): a block whose remaining life is below
//    (1 - age_variance) of the average is reused with a probability falling
//    linearly from 1 to 0 as its remaining life falls from there to 0 (§5:
//    "drops linearly from 1 to 0 as a block's remaining lifetime drops from
//    say 80% to 0% of the average", after Random Early Discard).
//  - retirementAge (`retirement_age`, 85%): a victim whose remaining life is
//    below this fraction of the average is, once erased, filled with cold
//    data migrated from a young block, which is recycled instead (§5).
//  - cold: a block of the domain whose remaining life is at least the
//    average and which the domain has not erased for `cold_age` times its
//    block count erases (§5: "blocks exceeding parametric thresholds for
//    remaining lifetime and time since last erasure"). Time is the domain's
//    erase sequence number, so an FTL still never looks at a clock.
// A block reaching its rated cycles is retired: never allocated again. That
// is separate from retirementAge, which only triggers migration.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <string_view>
#include <vector>

#include "common/rng.h"
#include "common/state_io.h"
#include "flash/geometry.h"
#include "flash/nand_array.h"

namespace ssdlab::ftl {

enum class WearMode { kNone, kRateLimit, kMigration };
const char* wear_mode_name(WearMode mode);
// Parses "none", "rate-limit" or "migration"; false if `text` is none of them.
bool parse_wear_mode(std::string_view text, WearMode& mode);

// With migration on, which rule a worn greedy victim meets first.
//  - kMigrationFirst (§5's summary, the default): a victim below
//    retirementAge receives cold data if a cold block is there to give it,
//    before rate-limiting is considered; the cold block is the least
//    recently erased one that passes the thresholds (§5: "recycle the head
//    block of the queue").
//  - kRateLimitFirst (ssdlab 0.1): the victim is rate-limited first and only
//    a victim that passes receives cold data; the cold block must also be at
//    least half full of valid data, and one on the victim's plane is
//    preferred (copy-back).
enum class WearOrder { kMigrationFirst, kRateLimitFirst };
const char* wear_order_name(WearOrder order);
// Parses "migration-first" or "rate-limit-first"; false if neither.
bool parse_wear_order(std::string_view text, WearOrder& order);

struct WearConfig {
  WearMode mode = WearMode::kNone;
  double age_variance = 0.20;    // §5.1: ageVariance 20%
  double retirement_age = 0.85;  // §5.1: retirementAge 85%
  double cold_age = 1.0;         // erases of the domain since the last, in domain sizes
  WearOrder order = WearOrder::kMigrationFirst;
  bool rate_limit() const { return mode != WearMode::kNone; }
  bool migration() const { return mode == WearMode::kMigration; }
  bool migration_first() const { return migration() && order == WearOrder::kMigrationFirst; }
};

// The blocks a WearLeveler levels and where their erase counts are: block b
// of the leveler is, in each of `width` flash planes of its unit
// u = b / blocks_per_plane, flash block b % blocks_per_plane of that plane
// (`planes[u * width + k]`, k < width); its erase count is that of its most
// erased flash block, read from `nand` (which keeps the counts in the block
// headers: the leveler keeps no copy). Plain flash blocks: width 1, unit u
// is plane u. `domain[u]`: the domain of unit u's blocks.
struct WearBlocks {
  const flash::NandArray* nand = nullptr;
  std::uint32_t width = 1;
  std::vector<std::uint32_t> planes;  // per unit, `width` each
  std::vector<std::uint32_t> domain;  // per unit
  std::uint32_t domains = 1;
  // Plain flash blocks of `nand`, plane p in domain domain_of_plane[p].
  static WearBlocks flash_blocks(const flash::NandArray& nand,
                                 std::vector<std::uint32_t> domain_of_plane, std::uint32_t domains);
};

class WearLeveler {
 public:
  // `rated_cycles`: geometry pe_cycles. With migration off, nothing is kept
  // per block (migration's erase sequence numbers and queues are allocated
  // only with it on).
  WearLeveler(const WearConfig& config, std::uint32_t rated_cycles, WearBlocks blocks,
              std::uint64_t seed);
  WearLeveler(WearLeveler&&) = default;
  WearLeveler& operator=(WearLeveler&&) = default;

  std::uint32_t blocks() const { return units() * blocks_per_plane_; }
  // The erase count of `block`: that of its most erased flash block.
  std::uint32_t erases(flash::BlockId block) const {
    const std::uint32_t* planes = &blocks_.planes[block / blocks_per_plane_ * blocks_.width];
    const std::uint32_t index = block % blocks_per_plane_;
    std::uint32_t most = 0;
    for (std::uint32_t k = 0; k < blocks_.width; ++k)
      most = std::max(most, blocks_.nand->erase_count(planes[k] * blocks_per_plane_ + index));
    return most;
  }

  const WearConfig& config() const { return config_; }
  std::uint32_t rated_cycles() const { return rated_; }

  // Rated cycles less erases, 0 once worn out.
  std::uint32_t remaining_life(flash::BlockId block) const {
    const std::uint32_t erases = this->erases(block);
    return erases >= rated_ ? 0 : rated_ - erases;
  }
  double mean_remaining_life(std::uint32_t domain) const;
  bool is_retired(flash::BlockId block) const { return erases(block) >= rated_; }

  // Mount after a power cut: the domains' erase sums from the erase counts
  // in the block headers; the erase-recency queues start over (that order
  // was controller RAM).
  void restore_erase_counts();

  // Records an erase of `block`, made on the NAND array just before (its
  // count there has grown). Returns true if it has now reached its rated
  // cycles: the caller must retire it (never allocate it again).
  bool erased(flash::BlockId block);

  // §5 rate-limiting: the probability that `block` may be reused now,
  // 1 above the band, falling linearly to 0 within it; always 1 with wear
  // leveling off.
  double reuse_probability(flash::BlockId block) const;
  // One draw of the seeded generator against reuse_probability().
  bool may_reuse(flash::BlockId block);

  // §5 migration: true if `block`, just erased, is worn enough (below
  // retirement_age of the average) to receive cold data.
  bool wants_cold_data(flash::BlockId block) const;
  // True if `block` passes the cold-data thresholds (young, long unerased).
  bool is_cold(flash::BlockId block) const;
  // Blocks of `domain` from least to most recently erased (kept with
  // migration on only; none otherwise), as a lazily cleaned queue: calls `visit(block)` on up to
  // `limit` current entries, in that order, until it returns true; returns that block or `none`.
  template <typename Visit>
  flash::BlockId find_least_recently_erased(std::uint32_t domain, std::uint32_t limit,
                                            flash::BlockId none, Visit visit);

  // Checkpoints (section "WEAR", version 2): the domains' erase sums, with
  // migration on the erase sequence numbers and the least-recently-erased
  // queues, and the generator's state. The config and the domains come from
  // the FTL that loads it; the erase counts are the NAND array's. Version 1
  // (erase counts and sequence numbers for every mode) is refused.
  void save_state(StateWriter& out) const;
  void load_state(StateReader& in);

 private:
  struct Entry {
    flash::BlockId block;
    std::uint64_t sequence;  // the block's erase sequence number when queued
  };
  // §5 migration's state, kept only with it on.
  struct Migration {
    std::vector<std::uint64_t> last_erase;    // per block: domain sequence number
    std::vector<std::deque<Entry>> by_erase;  // per domain: least recently erased first
  };
  std::uint32_t units() const { return static_cast<std::uint32_t>(blocks_.domain.size()); }
  std::uint32_t domain_of(flash::BlockId block) const {
    return blocks_.domain[block / blocks_per_plane_];
  }
  void compact(std::uint32_t domain);

  WearConfig config_;
  std::uint32_t rated_;
  WearBlocks blocks_;
  std::uint32_t blocks_per_plane_;
  std::vector<std::uint64_t> domain_erases_;  // per domain: erases (capped at rated), the sequence
  std::vector<std::uint64_t> domain_blocks_;  // per domain
  std::unique_ptr<Migration> migration_;      // config_.migration() only
  Rng rng_;
};

template <typename Visit>
flash::BlockId WearLeveler::find_least_recently_erased(std::uint32_t domain, std::uint32_t limit,
                                                       flash::BlockId none, Visit visit) {
  if (!migration_) return none;
  auto& queue = migration_->by_erase[domain];
  const auto& last_erase = migration_->last_erase;
  // Entries of blocks erased again since they were queued are stale.
  while (!queue.empty() && queue.front().sequence != last_erase[queue.front().block])
    queue.pop_front();
  std::uint32_t seen = 0;
  for (const Entry& entry : queue) {
    if (entry.sequence != last_erase[entry.block]) continue;
    if (seen++ == limit) break;
    if (visit(entry.block)) return entry.block;
  }
  return none;
}

}  // namespace ssdlab::ftl
