// The victim policies by name, and greedy (victim_policy.h).
#include "ftl/victim_policy.h"

#include <fmt/format.h>

#include "common/error.h"

namespace ssdlab::ftl {
namespace {

constexpr VictimPolicyKind kKinds[] = {VictimPolicyKind::kGreedy, VictimPolicyKind::kCostBenefit,
                                       VictimPolicyKind::kRandom, VictimPolicyKind::kFifo,
                                       VictimPolicyKind::kDChoices};

// Greedy (Agrawal et al. §3.2): the buckets already know the answer.
class GreedyPolicy final : public VictimPolicy {
 public:
  void sealed(flash::BlockId, std::uint32_t, std::uint32_t, std::uint64_t) override {}
  void removed(flash::BlockId) override {}
  void restored(flash::BlockId, std::uint32_t, std::uint32_t) override {}
  flash::BlockId choose(std::uint32_t pool, const VictimBuckets& buckets,
                        std::uint64_t /*now*/) override {
    return buckets.fewest_valid(pool);
  }
  void clear() override {}
  void save_state(StateWriter& out) const override { out.section("VPOL", 1); }
  void load_state(StateReader& in) override { in.section("VPOL", 1); }
};

}  // namespace

const char* victim_policy_name(VictimPolicyKind kind) {
  switch (kind) {
    case VictimPolicyKind::kGreedy:
      return "greedy";
    case VictimPolicyKind::kCostBenefit:
      return "cost-benefit";
    case VictimPolicyKind::kRandom:
      return "random";
    case VictimPolicyKind::kFifo:
      return "fifo";
    case VictimPolicyKind::kDChoices:
      return "d-choices";
  }
  return "?";
}

bool parse_victim_policy(std::string_view name, VictimPolicyKind& kind) {
  for (const VictimPolicyKind candidate : kKinds)
    if (name == victim_policy_name(candidate)) {
      kind = candidate;
      return true;
    }
  return false;
}

std::string victim_policy_names() {
  std::string names;
  for (const VictimPolicyKind kind : kKinds)
    names += (names.empty() ? "" : ", ") + std::string(victim_policy_name(kind));
  return names;
}

std::unique_ptr<VictimPolicy> make_greedy_policy() {
  return std::make_unique<GreedyPolicy>();
}

std::unique_ptr<VictimPolicy> make_victim_policy(const VictimPolicyConfig& config,
                                                 std::uint32_t blocks, std::uint32_t pools,
                                                 std::uint32_t pages_per_block,
                                                 std::uint64_t seed) {
  switch (config.kind) {
    case VictimPolicyKind::kGreedy:
      return make_greedy_policy();
    case VictimPolicyKind::kCostBenefit:
      return make_ordered_policy(true, blocks, pools, pages_per_block);
    case VictimPolicyKind::kFifo:
      return make_ordered_policy(false, blocks, pools, pages_per_block);
    case VictimPolicyKind::kRandom:
      return make_sampling_policy(1, blocks, pools, pages_per_block, seed);
    case VictimPolicyKind::kDChoices:
      if (config.choices == 0) throw make_error("victim_choices must be at least 1");
      return make_sampling_policy(config.choices, blocks, pools, pages_per_block, seed);
  }
  throw make_error("unknown victim policy");
}

}  // namespace ssdlab::ftl
