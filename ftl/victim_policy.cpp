// The victim policies by name, and greedy (victim_policy.h).
#include "ftl/victim_policy.h"

#include <fmt/format.h>

#include "common/error.h"
#include "ftl/register.h"

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
    case VictimPolicyKind::kRegistered:
      return "registered";
  }
  return "?";
}

const char* victim_policy_name(const VictimPolicyConfig& config) {
  if (config.kind != VictimPolicyKind::kRegistered) return victim_policy_name(config.kind);
  return config.registered ? config.registered : "registered";
}

bool parse_victim_policy(std::string_view name, VictimPolicyConfig& config) {
  for (const VictimPolicyKind candidate : kKinds)
    if (name == victim_policy_name(candidate)) {
      config.kind = candidate;
      config.registered = nullptr;
      return true;
    }
  const char* registered = registered_victim_policy_name(name);
  if (!registered) return false;
  config.kind = VictimPolicyKind::kRegistered;
  config.registered = registered;
  return true;
}

std::string victim_policy_names() {
  std::string names;
  for (const VictimPolicyKind kind : kKinds)
    names += (names.empty() ? "" : ", ") + std::string(victim_policy_name(kind));
  for (const std::string& name : registered_victim_policy_names()) names += ", " + name;
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
    case VictimPolicyKind::kRegistered: {
      const VictimPolicyFactory make =
          config.registered ? find_registered_victim_policy(config.registered) : nullptr;
      if (!make)
        throw make_error("unknown victim policy '{}' (known: {})",
                         config.registered ? config.registered : "", victim_policy_names());
      std::unique_ptr<VictimPolicy> policy =
          make({blocks, pools, pages_per_block, seed, config.choices});
      if (!policy)
        throw make_error("victim policy '{}': its factory made no policy", config.registered);
      return policy;
    }
  }
  throw make_error("unknown victim policy");
}

}  // namespace ssdlab::ftl
