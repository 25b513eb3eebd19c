// Victim policies: which sealed block cleaning recycles next (page-mapped and
// DFTL; `ftl.victim_policy`). Greedy is Agrawal et al. §3.2; the others are
// the policies cleaning studies compare against:
//
//   greedy        fewest valid pages (VictimBuckets, O(pages_per_block)).
//   cost-benefit  largest age * (1 - u) / 2u (Rosenblum & Ousterhout's LFS,
//                 Kawaguchi et al.), u = valid fraction, age = logical time
//                 (host pages written) since the block was sealed (its last
//                 write; an erased block has no age). Exact, not sampled: per
//                 pool and valid count a (lazy) min-heap by seal sequence;
//                 for a given u the oldest block scores best, so a choice
//                 looks at one block per valid count (pages_per_block + 1
//                 candidates), and a superseded page pushes its block into
//                 the next heap (O(log n); about 1.4x greedy's CPU per write
//                 on the baseline). A bounded random sample was rejected: it
//                 misses the few old, cold blocks that make cost-benefit
//                 beat greedy under skew.
//   fifo          the oldest sealed block that is not full of valid data
//                 (LRW, Desnoyers SYSTOR 2012): a min-heap by seal
//                 sequence, O(log n) per seal; a block sealed full joins it
//                 at its first superseded page (O(log n), once; the FTL
//                 tells the policy of no other superseded page).
//   random        a uniformly random sealed block: a dense array per pool
//                 with swap-remove, O(1).
//   d-choices     greedy among `victim_choices` random sealed blocks (the
//                 "power of d choices"), O(d).
//
// A policy of one's own, in or out of tree, registers by name
// (register_victim_policy, SSDLAB_REGISTER_VICTIM_POLICY in ftl/register.h)
// and is chosen by `ftl.victim_policy` like these: page-mapped and DFTL then
// run it with everything else they do (SLC cache, FDP, map units, wear
// leveling, power cuts, checkpoints), where an FTL of one's own would have
// to rebuild those (docs/guide-ftl-research.md, "A victim policy of your
// own").
//
// Random and d-choices may draw a block whose pages are all valid; cleaning
// it frees nothing, so they fall back to greedy's choice then. (FIFO passes
// over full blocks instead: a full block stays the oldest until a page of it
// is superseded, and a fallback to greedy would make FIFO greedy all that
// while; docs/dftl-and-cleaning-policies.md, "FIFO on small blocks".) The
// generator of random and d-choices is seeded from the FTL's seed (its own
// stream) and saved in checkpoints, so runs are deterministic by seed.
// The wear leveler's rate-limiting and migration act on whatever block the
// policy picks (page_mapped_victims.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/state_io.h"
#include "flash/geometry.h"
#include "ftl/victim_buckets.h"

namespace ssdlab::ftl {

// kRegistered: a policy registered by name (ftl/register.h).
enum class VictimPolicyKind { kGreedy, kCostBenefit, kRandom, kFifo, kDChoices, kRegistered };

// A built-in policy's name ("registered" for kRegistered: see the config's).
const char* victim_policy_name(VictimPolicyKind kind);

struct VictimPolicyConfig {
  VictimPolicyKind kind = VictimPolicyKind::kGreedy;
  std::uint32_t choices = 8;  // d-choices: candidates per choice
  const char* registered = nullptr;  // kRegistered: its name, as registered
};

// The policy's name, a registered one's included.
const char* victim_policy_name(const VictimPolicyConfig& config);
// False if `name` is none of victim_policy_names().
bool parse_victim_policy(std::string_view name, VictimPolicyConfig& config);
// "greedy, cost-benefit, random, fifo, d-choices", then the registered ones
// (for error messages).
std::string victim_policy_names();

// Tracks the sealed blocks of every pool beside VictimBuckets (which keeps
// their valid counts) and picks victims. The FTL tells it every change of
// the sealed set; `now` is the FTL's logical clock (host pages written).
class VictimPolicy {
 public:
  virtual ~VictimPolicy() = default;

  // A block of `pool` holding `valid` pages was sealed at logical time `now`.
  virtual void sealed(flash::BlockId block, std::uint32_t pool, std::uint32_t valid,
                      std::uint64_t now) = 0;
  // A sealed block leaves (cleaned, or set aside by rate-limiting).
  virtual void removed(flash::BlockId block) = 0;
  // A block set aside by removed() comes back with its old seal time.
  virtual void restored(flash::BlockId block, std::uint32_t pool, std::uint32_t valid) = 0;
  // Which superseded pages the policy hears of through superseded(): none,
  // every one (cost-benefit: a block changes heaps at each), or only the
  // first of a block sealed full (fifo: the block becomes a candidate).
  // Asked once.
  enum class Tracking { kNone, kEvery, kFirstOfFull };
  virtual Tracking tracking() const { return Tracking::kNone; }
  // A page of sealed `block` was superseded; `valid_before` its count before.
  virtual void superseded(flash::BlockId /*block*/, std::uint32_t /*valid_before*/) {}
  // The next victim of `pool`, or VictimBuckets::kNone if it has no sealed
  // block. It must be a sealed block of `pool` (buckets.contains(), pool()):
  // the FTL throws std::logic_error naming the policy otherwise. A block
  // full of valid data frees nothing: the FTL takes greedy's choice instead
  // if that one frees something (as it does for a block it has no room to
  // move).
  virtual flash::BlockId choose(std::uint32_t pool, const VictimBuckets& buckets,
                                std::uint64_t now) = 0;
  // Forgets every block (mount after a power cut rebuilds by sealed()).
  virtual void clear() = 0;

  // Checkpoints: section "VPOL".
  virtual void save_state(StateWriter& out) const = 0;
  virtual void load_state(StateReader& in) = 0;
};

// What a policy is built for: `pools` counts the groups cleaning chooses in
// (pools, or planes with ftl.clean_scope = "plane"), the `pool` of every
// call; `pages_per_block` counts a block's data pages (valid counts go up to
// it); `seed` is the FTL's (a stream of the policy's own: runs stay
// deterministic by seed); `choices` is ftl.victim_choices, which a
// registered policy may take as its one parameter.
struct VictimPolicyContext {
  std::uint32_t blocks = 0;
  std::uint32_t pools = 0;
  std::uint32_t pages_per_block = 0;
  std::uint64_t seed = 0;
  std::uint32_t choices = 8;
};

std::unique_ptr<VictimPolicy> make_victim_policy(const VictimPolicyConfig& config,
                                                 std::uint32_t blocks, std::uint32_t pools,
                                                 std::uint32_t pages_per_block, std::uint64_t seed);

// Implementations (victim_policy_*.cpp).
std::unique_ptr<VictimPolicy> make_greedy_policy();
std::unique_ptr<VictimPolicy> make_ordered_policy(bool cost_benefit, std::uint32_t blocks,
                                                  std::uint32_t pools,
                                                  std::uint32_t pages_per_block);
std::unique_ptr<VictimPolicy> make_sampling_policy(std::uint32_t choices, std::uint32_t blocks,
                                                   std::uint32_t pools,
                                                   std::uint32_t pages_per_block,
                                                   std::uint64_t seed);

}  // namespace ssdlab::ftl
