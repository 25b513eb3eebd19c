// Victim choice for the page-mapped FTL and DFTL (Agrawal et al. §3.2:
// "choosing blocks to recycle based on potential cleaning efficiency"; §5
// for wear): the sealed blocks of each victim group (victim_buckets.h), the
// victim policy over them (victim_policy.h; greedy by default), the victim
// each group is cleaning (a few pages at a time with the incremental
// granularity), §5 rate-limiting of worn victims and the search for a cold
// block to migrate into a worn one.
//
// Moving a victim's pages and erasing it is the FTL's (page_mapped_cleaning.cpp);
// this part says which block, and keeps the candidates' valid counts as
// pages are superseded (a call per page: plain members, no virtual call).
//
// Owns its pieces of the checkpoint: the victims in progress (in the FTL's
// "PMAP" section) and the buckets' and policy's own sections.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "common/state_io.h"
#include "flash/geometry.h"
#include "ftl/ftl.h"
#include "ftl/page_mapped/page_mapped_placement.h"
#include "ftl/page_mapped/page_mapped_trigger.h"
#include "ftl/victim_buckets.h"
#include "ftl/victim_explanation.h"
#include "ftl/victim_policy.h"
#include "ftl/wear_leveler.h"

namespace ssdlab::ftl::page_mapped {

// A victim being cleaned a few pages at a time (incremental granularity):
// out of the victim candidates, its pages before `next` done (`moved` of
// them moved, the others superseded).
struct InProgress {
  flash::BlockId victim = kNoBlock;
  std::uint32_t next = 0;
  std::uint32_t moved = 0;
};

class VictimChoice {
 public:
  // `groups`: the trigger's victim groups; `data_pages`: data pages per
  // block. The references outlive this part. Throws ssdlab::Error for a
  // policy the config cannot have.
  VictimChoice(const flash::FastGeometry& geometry, const CleaningTrigger& groups,
               const Placement& placement, WearLeveler& wear, const VictimPolicyConfig& config,
               std::uint32_t data_pages, std::uint64_t seed);

  // A full block enters the candidates of its group (`clock`: the policy's).
  void sealed(flash::BlockId block, std::uint32_t valid, std::uint64_t clock) {
    const std::uint32_t group = groups_.group_of_block(block);
    buckets_.insert(block, group, valid);
    policy_->sealed(block, group, valid, clock);
  }
  // A page of `block` was superseded (the block may be no candidate).
  void superseded(flash::BlockId block) {
    if (!buckets_.contains(block)) return;
    const std::uint32_t valid = buckets_.valid(block);
    if (valid >= tracks_from_) policy_->superseded(block, valid);
    buckets_.decrement(block);
  }
  void prefetch(flash::BlockId block) const { buckets_.prefetch(block); }
  // A candidate leaves (it is cleaned, or its data migrates).
  void remove(flash::BlockId block) {
    buckets_.remove(block);
    policy_->removed(block);
  }

  bool is_candidate(flash::BlockId block) const { return buckets_.contains(block); }
  // Valid pages of a candidate, as last recorded.
  std::uint32_t valid(flash::BlockId block) const { return buckets_.valid(block); }
  // A victim in progress, or a candidate not full of valid data.
  bool cleanable(std::uint32_t group) const {
    if (in_progress_[group].victim != kNoBlock) return true;
    const flash::BlockId victim = buckets_.fewest_valid(group);
    return victim != VictimBuckets::kNone && buckets_.valid(victim) < data_pages_;
  }
  std::uint32_t fewest_valid_pages(std::uint32_t group) const {
    return buckets_.valid(buckets_.fewest_valid(group));
  }
  InProgress& in_progress(std::uint32_t group) { return in_progress_[group]; }
  const InProgress& in_progress(std::uint32_t group) const { return in_progress_[group]; }

  // The policy's choice for `group`, after rate-limiting (§5) passed over
  // some (counted in `wear_deferrals`); kNoBlock if none. A choice with more
  // valid pages than the pool has room to move gives way to greedy's. With
  // WearOrder::kMigrationFirst a worn candidate that can receive cold data
  // is taken without rate-limiting (§5's order).
  flash::BlockId choose(std::uint32_t group, std::uint64_t clock, std::uint64_t& wear_deferrals);
  // --trace-ftl: while `into` is set and wants them, choose() appends what
  // each victim was chosen from.
  void explain_into(VictimExplanations* into) { explain_ = into; }
  // Takes `victim` out of the candidates as `group`'s victim in progress.
  void start(std::uint32_t group, flash::BlockId victim) {
    remove(victim);
    in_progress_[group] = {victim, 0, 0};
  }
  // The cold block whose data would refill the worn block `worn` of `pool`,
  // or kNoBlock (WearConfig::order says which rules pick it).
  flash::BlockId find_cold_block(flash::BlockId worn, std::uint32_t pool) const;

  // Mount after a power cut: no candidate, no victim in progress.
  void clear();

  // Checkpoints: the victims in progress (in the "PMAP" section), then
  // separately the candidates (the buckets' and the policy's sections).
  void save_progress(StateWriter& out) const;
  void load_progress(StateReader& in);
  void save_candidates(StateWriter& out) const;
  void load_candidates(StateReader& in);

 private:
  // §5: true if `victim` is below retirementAge and a cold block of `pool`
  // is there to refill it (migration-first order only).
  bool receives_cold_data(flash::BlockId victim, std::uint32_t pool) const;
  // A candidate set aside by rate-limiting, with its valid pages.
  struct Deferred {
    flash::BlockId block;
    std::uint32_t valid;
  };
  void restore(const Deferred& deferred);  // back as a candidate (keeping its seal time)
  // choose() but for the explanation.
  flash::BlockId pick(std::uint32_t group, std::uint64_t clock, std::uint64_t& wear_deferrals);
  // The policy's choice, checked: a sealed block of `group`, or none.
  flash::BlockId ask_policy(std::uint32_t group, std::uint64_t clock);
  // Appends `victim`'s candidates to explain_.
  void explain(std::uint32_t group, flash::BlockId victim) const;

  const flash::FastGeometry& geometry_;
  const CleaningTrigger& groups_;
  const Placement& placement_;
  WearLeveler& wear_;
  std::uint32_t data_pages_;
  VictimBuckets buckets_;
  std::unique_ptr<VictimPolicy> policy_;
  const char* policy_name_;  // a built-in's, or as registered (victim_policy_name)
  VictimExplanations* explain_ = nullptr;
  // superseded() for a sealed block holding at least this many valid pages:
  // 0 (every page), data_pages (a full block's first) or never.
  std::uint32_t tracks_from_;
  std::vector<InProgress> in_progress_;  // per victim group
  std::vector<Deferred> deferred_;       // choose() scratch
};

}  // namespace ssdlab::ftl::page_mapped
