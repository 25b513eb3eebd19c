// Victim choice of the page-mapped FTL (page_mapped_victims.h): the policy's
// choice with §5 rate-limiting, the cold-block search of §5 migration, and
// this part's pieces of the checkpoint.
#include "ftl/page_mapped/page_mapped_victims.h"

#include <fmt/format.h>

#include <stdexcept>

#include "common/error.h"

namespace ssdlab::ftl::page_mapped {
namespace {

using flash::BlockId;

// Rate-limiting passes over at most this many victims per cleaning (then the
// first one is cleaned after all, so that cleaning always progresses).
constexpr std::size_t kMaxDeferrals = 16;
// Migration looks at most this many least recently erased blocks.
constexpr std::uint32_t kColdSearch = 64;

std::uint32_t tracked_from(VictimPolicy::Tracking tracking, std::uint32_t data_pages,
                           std::uint32_t pages_per_block) {
  switch (tracking) {
    case VictimPolicy::Tracking::kEvery:
      return 0;
    case VictimPolicy::Tracking::kFirstOfFull:
      return data_pages;
    case VictimPolicy::Tracking::kNone:
      break;
  }
  return pages_per_block + 1;  // never
}

}  // namespace

VictimChoice::VictimChoice(const flash::FastGeometry& geometry, const CleaningTrigger& groups,
                           const Placement& placement, WearLeveler& wear,
                           const VictimPolicyConfig& config, std::uint32_t data_pages,
                           std::uint64_t seed)
    : geometry_(geometry),
      groups_(groups),
      placement_(placement),
      wear_(wear),
      data_pages_(data_pages),
      buckets_(geometry.blocks(), groups.groups(), geometry.pages_per_block),
      policy_(make_victim_policy(config, geometry.blocks(), groups.groups(), data_pages, seed)),
      policy_name_(victim_policy_name(config)),
      tracks_from_(tracked_from(policy_->tracking(), data_pages, geometry.pages_per_block)),
      in_progress_(groups.groups()) {}

void VictimChoice::restore(const Deferred& deferred) {
  const std::uint32_t group = groups_.group_of_block(deferred.block);
  buckets_.insert(deferred.block, group, deferred.valid);
  policy_->restored(deferred.block, group, deferred.valid);
}

BlockId VictimChoice::choose(std::uint32_t group, std::uint64_t clock,
                             std::uint64_t& wear_deferrals) {
  const BlockId victim = pick(group, clock, wear_deferrals);
  if (explain_ && explain_->wanted && victim != VictimBuckets::kNone) explain(group, victim);
  return victim;
}

void VictimChoice::explain(std::uint32_t group, BlockId victim) const {
  VictimExplanation& e = explain_->chosen.emplace_back();
  e.victim = {victim, buckets_.valid(victim)};
  e.sealed = buckets_.sealed_blocks(group);
  e.plane_scope = groups_.plane_scope();
  e.group = group;
  e.policy = policy_name_;
  for (const BlockId block : buckets_.fewest(group, VictimExplanation::kShown))
    e.fewest.push_back({block, buckets_.valid(block)});
}

BlockId VictimChoice::ask_policy(std::uint32_t group, std::uint64_t clock) {
  const BlockId victim = policy_->choose(group, buckets_, clock);
  // (A registered policy is code of someone's own: a block that is not a
  // sealed one of the group would corrupt the FTL, so it stops here.)
  if (victim != VictimBuckets::kNone &&
      (victim >= geometry_.blocks() || !buckets_.contains(victim) ||
       buckets_.pool(victim) != group)) [[unlikely]]
    throw std::logic_error(fmt::format(
        "victim policy '{}' chose block {}, which is not a sealed block of cleaning group {}",
        policy_name_, victim, group));
  // A block full of valid data frees nothing: greedy's choice then, if it
  // frees something. (The built-in policies answer a full block only when
  // every block is full; a policy of one's own may not see the difference.)
  if (victim != VictimBuckets::kNone && buckets_.valid(victim) >= data_pages_) [[unlikely]] {
    const BlockId fewest = buckets_.fewest_valid(group);
    if (buckets_.valid(fewest) < data_pages_) return fewest;
  }
  return victim;
}

BlockId VictimChoice::pick(std::uint32_t group, std::uint64_t clock,
                           std::uint64_t& wear_deferrals) {
  const std::uint32_t pool = groups_.pool_of_group(group);
  BlockId victim = ask_policy(group, clock);
  // A policy other than greedy may pick a block with more valid pages than
  // the pool has room to move (after a mount that left few free blocks):
  // greedy's choice then, which needs the least room.
  if (victim != VictimBuckets::kNone && buckets_.valid(victim) > placement_.cleaning_room(pool))
    victim = buckets_.fewest_valid(group);
  if (!wear_.config().rate_limit()) return victim;
  // §5 rate-limiting: a worn victim is recycled only with a probability
  // falling linearly with its remaining life; otherwise the next greedy
  // choice is tried. Passed-over blocks go back to their buckets after.
  deferred_.clear();
  // §5 order (migration-first): a worn victim that can receive cold data is
  // migrated, not rate-limited; rate-limiting then only meets victims that
  // cannot (no cold block is there).
  while (victim != VictimBuckets::kNone && buckets_.valid(victim) < data_pages_ &&
         deferred_.size() < kMaxDeferrals && !receives_cold_data(victim, pool) &&
         !wear_.may_reuse(victim)) {
    deferred_.push_back({victim, buckets_.valid(victim)});
    remove(victim);
    victim = ask_policy(group, clock);
  }
  if (!deferred_.empty() &&
      (victim == VictimBuckets::kNone || buckets_.valid(victim) == data_pages_ ||
       deferred_.size() == kMaxDeferrals)) {
    // Nothing else frees space, or too many worn blocks: clean the best one.
    victim = deferred_.front().block;
    restore(deferred_.front());
    deferred_.erase(deferred_.begin());
  }
  for (const Deferred& block : deferred_) restore(block);
  wear_deferrals += deferred_.size();
  return victim;
}

bool VictimChoice::receives_cold_data(BlockId victim, std::uint32_t pool) const {
  return wear_.config().migration_first() && wear_.wants_cold_data(victim) &&
         find_cold_block(victim, pool) != kNoBlock;
}

BlockId VictimChoice::find_cold_block(BlockId worn, std::uint32_t pool) const {
  const std::uint32_t plane = geometry_.plane_of_block(worn);
  const bool rate_limit_first = wear_.config().order == WearOrder::kRateLimitFirst;
  const auto cold_in = [&](bool same_plane) {
    return wear_.find_least_recently_erased(pool, kColdSearch, kNoBlock, [&](BlockId block) {
      // A sealed block (holding data, not being written) past the thresholds
      // of remaining life and time since its last erase, with data to give.
      if (block == worn || !buckets_.contains(block) || !wear_.is_cold(block) ||
          buckets_.valid(block) == 0)
        return false;
      if (!rate_limit_first) return true;
      // ssdlab 0.1's extra conditions: at least half full of data (a mostly
      // empty worn block would soon be greedy's victim again), on the
      // victim's plane when `same_plane`.
      return (!same_plane || geometry_.plane_of_block(block) == plane) &&
             2 * buckets_.valid(block) >= geometry_.pages_per_block;
    });
  };
  // §5: "recycle the head block of the queue": the least recently erased.
  if (!rate_limit_first) return cold_in(false);
  // ssdlab 0.1: the coldest block of the victim's plane first (copy-back).
  const BlockId cold = cold_in(true);
  return cold != kNoBlock ? cold : cold_in(false);
}

void VictimChoice::clear() {
  buckets_ = VictimBuckets(geometry_.blocks(), groups_.groups(), geometry_.pages_per_block);
  policy_->clear();
  // A victim cleaned in part before the cut is a full block again: sealed.
  in_progress_.assign(groups_.groups(), InProgress{});
}

void VictimChoice::save_progress(StateWriter& out) const {
  out.u64(in_progress_.size());
  for (const InProgress& cleaning : in_progress_) {
    out.u32(cleaning.victim);
    out.u32(cleaning.next);
    out.u32(cleaning.moved);
  }
}

void VictimChoice::load_progress(StateReader& in) {
  if (in.count(in_progress_.size(), "the victims in progress") != in_progress_.size())
    throw make_error("corrupt: the config's cleaning scope has {} victim groups",
                     in_progress_.size());
  for (InProgress& cleaning : in_progress_) {
    cleaning.victim = in.u32();
    cleaning.next = in.u32();
    cleaning.moved = in.u32();
    if (cleaning.victim != kNoBlock && cleaning.victim >= geometry_.blocks())
      throw make_error("corrupt: a plane names block {} of {}", cleaning.victim,
                       geometry_.blocks());
    if (cleaning.next > geometry_.pages_per_block || cleaning.moved > cleaning.next)
      throw make_error("corrupt: a victim in progress at page {} ({} moved)", cleaning.next,
                       cleaning.moved);
  }
}

void VictimChoice::save_candidates(StateWriter& out) const {
  buckets_.save_state(out);
  policy_->save_state(out);
}

void VictimChoice::load_candidates(StateReader& in) {
  buckets_.load_state(in);
  policy_->load_state(in);
}

}  // namespace ssdlab::ftl::page_mapped
