// An out-of-tree victim policy: "windowed-greedy" (Hu et al., "Write
// Amplification Analysis in Flash-Based Solid State Drives", SYSTOR 2009,
// §4): greedy, but only among the `w` blocks sealed longest ago. With w = 1
// it is FIFO (LRW) that does not pass over full blocks; with w as large as
// the pool it is greedy. w is ftl.victim_choices (default 8).
//
// Registered by the one SSDLAB_REGISTER_VICTIM_POLICY line at the end, it is
// chosen with --set ftl.victim_policy=windowed-greedy, and the page-mapped
// FTL and DFTL run it with all they do besides: an SLC cache, FDP placement,
// map units, wear leveling, power cuts, checkpoints. The FTL tells it each
// change of the sealed blocks (ftl/victim_policy.h) and asks choose() for a
// victim; choose() must answer a sealed block of the pool it is asked for,
// or VictimBuckets::kNone, or the run stops with an error naming the policy.
//
// (ssdlab's own tests compile this file too: tests/ftl/
// victim_policy_registry_test.cpp checks it under verification and sets its
// write amplification between greedy's and FIFO's.)
#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "common/error.h"
#include "ftl/register.h"
#include "ftl/victim_buckets.h"
#include "ftl/victim_policy.h"

namespace {

using ssdlab::StateReader;
using ssdlab::StateWriter;
using ssdlab::flash::BlockId;
using ssdlab::ftl::VictimBuckets;
using ssdlab::ftl::VictimPolicy;
using ssdlab::ftl::VictimPolicyContext;

class WindowedGreedy final : public VictimPolicy {
 public:
  explicit WindowedGreedy(const VictimPolicyContext& context)
      : window_(context.choices),
        order_(context.pools),
        live_(context.pools, 0),
        seal_(context.blocks, kNotSealed),
        pool_(context.blocks, 0) {}

  // Each pool's blocks in seal order. A block that leaves keeps its entry
  // (its seal number no longer matches), so that every change is O(1);
  // restored() makes the old entry count again. Entries that no longer
  // count are dropped once they are half of a pool's order.
  void sealed(BlockId block, std::uint32_t pool, std::uint32_t, std::uint64_t) override {
    seal_[block] = ++seals_;
    pool_[block] = pool;
    ++live_[pool];
    order_[pool].push_back({block, seals_});
    if (order_[pool].size() > 2 * live_[pool] + 64) compact(pool);
  }
  void removed(BlockId block) override {
    if (seal_[block] <= 0) return;
    seal_[block] = -seal_[block];
    --live_[pool_[block]];
  }
  void restored(BlockId block, std::uint32_t, std::uint32_t) override {
    if (seal_[block] >= 0) return;
    seal_[block] = -seal_[block];
    ++live_[pool_[block]];
  }

  BlockId choose(std::uint32_t pool, const VictimBuckets& buckets, std::uint64_t) override {
    BlockId best = VictimBuckets::kNone;
    std::uint32_t seen = 0;
    for (const Entry& entry : order_[pool]) {
      if (!current(entry)) continue;
      if (best == VictimBuckets::kNone || buckets.valid(entry.block) < buckets.valid(best))
        best = entry.block;
      if (++seen == window_) break;
    }
    return best;
  }

  void clear() override {
    for (auto& order : order_) order.clear();
    std::fill(seal_.begin(), seal_.end(), kNotSealed);
    std::fill(live_.begin(), live_.end(), 0);
  }

  // Checkpoints: a section of its own, so that a run resumes with the same
  // order (StateWriter, common/state_io.h). Only the entries that count.
  void save_state(StateWriter& out) const override {
    out.section("VPOL", 1);
    out.u64(static_cast<std::uint64_t>(seals_));
    for (std::uint32_t pool = 0; pool < order_.size(); ++pool) {
      out.u64(live_[pool]);
      for (const Entry& entry : order_[pool])
        if (current(entry)) out.u64(entry.block);
    }
  }
  void load_state(StateReader& in) override {
    in.section("VPOL", 1);
    clear();
    seals_ = static_cast<std::int64_t>(in.u64());
    for (std::uint32_t pool = 0; pool < order_.size(); ++pool) {
      const std::uint64_t count = in.count(seal_.size(), "windowed-greedy's sealed blocks");
      for (std::uint64_t i = 0; i < count; ++i) {
        const std::uint64_t block = in.u64();
        if (block >= seal_.size())
          throw ssdlab::Error("windowed-greedy: a block beyond the device");
        // (Seal numbers in order; their values matter only within this run.)
        seal_[block] = static_cast<std::int64_t>(i + 1);
        pool_[block] = pool;
        order_[pool].push_back({static_cast<BlockId>(block), seal_[block]});
      }
      live_[pool] = static_cast<std::uint32_t>(count);
    }
  }

 private:
  // seal_: the block's seal number while sealed, its negative while set
  // aside (removed, then maybe restored), 0 once cleaned and not sealed again.
  static constexpr std::int64_t kNotSealed = 0;
  struct Entry {
    BlockId block;
    std::int64_t seal;
  };
  bool current(const Entry& entry) const { return seal_[entry.block] == entry.seal; }
  void compact(std::uint32_t pool) {
    std::erase_if(order_[pool], [this](const Entry& entry) { return !current(entry); });
  }

  std::uint32_t window_;
  std::vector<std::deque<Entry>> order_;  // per pool
  std::vector<std::uint32_t> live_;       // per pool: entries that count
  std::vector<std::int64_t> seal_;        // per block
  std::vector<std::uint32_t> pool_;       // per block, while sealed
  std::int64_t seals_ = 0;
};

std::unique_ptr<VictimPolicy> make_windowed_greedy(const VictimPolicyContext& context) {
  return std::make_unique<WindowedGreedy>(context);
}

}  // namespace

SSDLAB_REGISTER_VICTIM_POLICY("windowed-greedy", make_windowed_greedy);
