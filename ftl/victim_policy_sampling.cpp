// Random and d-choices victim policies (victim_policy.h): the sealed blocks
// of each pool in a dense array (swap-remove), so a uniform draw is O(1);
// d-choices keeps the candidate with the fewest valid pages of d draws
// (with replacement; the first drawn among equals). Random is d = 1.
#include <stdexcept>
#include <vector>

#include "common/error.h"
#include "common/rng.h"
#include "ftl/victim_policy.h"

namespace ssdlab::ftl {
namespace {

class SamplingPolicy final : public VictimPolicy {
 public:
  SamplingPolicy(std::uint32_t choices, std::uint32_t blocks, std::uint32_t pools,
                 std::uint32_t pages_per_block, std::uint64_t seed)
      : choices_(choices),
        pages_per_block_(pages_per_block),
        members_(pools),
        position_(blocks, kAbsent),
        pool_(blocks, 0),
        rng_(seed ^ 0x76696374ULL) {}  // "vict": its own stream

  void sealed(flash::BlockId block, std::uint32_t pool, std::uint32_t valid,
              std::uint64_t /*now*/) override {
    restored(block, pool, valid);
  }

  void removed(flash::BlockId block) override {
    if (position_[block] == kAbsent)
      throw std::logic_error("victim policy: removing an absent block");
    auto& members = members_[pool_[block]];
    const std::uint32_t at = position_[block];
    members[at] = members.back();
    position_[members[at]] = at;
    members.pop_back();
    position_[block] = kAbsent;
  }

  void restored(flash::BlockId block, std::uint32_t pool, std::uint32_t /*valid*/) override {
    if (position_[block] != kAbsent) throw std::logic_error("victim policy: block inserted twice");
    pool_[block] = pool;
    position_[block] = static_cast<std::uint32_t>(members_[pool].size());
    members_[pool].push_back(block);
  }

  flash::BlockId choose(std::uint32_t pool, const VictimBuckets& buckets,
                        std::uint64_t /*now*/) override {
    const auto& members = members_[pool];
    if (members.empty()) return VictimBuckets::kNone;
    flash::BlockId best = VictimBuckets::kNone;
    for (std::uint32_t i = 0; i < choices_; ++i) {
      const flash::BlockId candidate = members[rng_.uniform(members.size())];
      if (best == VictimBuckets::kNone || buckets.valid(candidate) < buckets.valid(best))
        best = candidate;
    }
    // A block full of valid data frees nothing: greedy's choice instead.
    return buckets.valid(best) < pages_per_block_ ? best : buckets.fewest_valid(pool);
  }

  void clear() override {
    for (auto& members : members_) members.clear();
    std::fill(position_.begin(), position_.end(), kAbsent);
  }

  void save_state(StateWriter& out) const override {
    out.section("VPOL", 1);
    out.u64(members_.size());
    for (const auto& members : members_) {
      out.u64(members.size());
      for (const flash::BlockId block : members) out.u32(block);
    }
    out.array(rng_.state());
  }

  void load_state(StateReader& in) override {
    in.section("VPOL", 1);
    clear();
    if (in.count(members_.size(), "the pools") != members_.size())
      throw make_error("corrupt: the victim policy has the wrong number of pools");
    for (std::uint32_t pool = 0; pool < members_.size(); ++pool) {
      const std::uint64_t count = in.count(position_.size(), "the sealed blocks");
      for (std::uint64_t i = 0; i < count; ++i) {
        const flash::BlockId block = in.u32();
        if (block >= position_.size() || position_[block] != kAbsent)
          throw make_error("corrupt: the victim policy lists block {}", block);
        restored(block, pool, 0);
      }
    }
    Rng::State state;
    in.array(state);
    rng_.set_state(state);
  }

 private:
  static constexpr std::uint32_t kAbsent = ~std::uint32_t{0};
  std::uint32_t choices_;
  std::uint32_t pages_per_block_;
  std::vector<std::vector<flash::BlockId>> members_;  // per pool
  std::vector<std::uint32_t> position_;               // per block: index in its pool's array
  std::vector<std::uint32_t> pool_;                   // per block, while a member
  Rng rng_;
};

}  // namespace

std::unique_ptr<VictimPolicy> make_sampling_policy(std::uint32_t choices, std::uint32_t blocks,
                                                   std::uint32_t pools,
                                                   std::uint32_t pages_per_block,
                                                   std::uint64_t seed) {
  return std::make_unique<SamplingPolicy>(choices, blocks, pools, pages_per_block, seed);
}

}  // namespace ssdlab::ftl
