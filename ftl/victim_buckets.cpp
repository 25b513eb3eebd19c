#include "ftl/victim_buckets.h"

#include <stdexcept>

#include "common/error.h"

namespace ssdlab::ftl {

VictimBuckets::VictimBuckets(std::uint32_t blocks, std::uint32_t pools,
                             std::uint32_t pages_per_block)
    : buckets_per_pool_(pages_per_block + 1),
      head_(std::size_t{pools} * (pages_per_block + 1), kNone),
      tail_(head_.size(), kNone),
      next_(blocks, kNone),
      prev_(blocks, kNone),
      valid_(blocks, kAbsent),
      pool_of_(blocks, 0),
      sealed_(pools, 0) {}

void VictimBuckets::link(flash::BlockId block, std::size_t head) {
  prev_[block] = tail_[head];
  next_[block] = kNone;
  if (tail_[head] == kNone)
    head_[head] = block;
  else
    next_[tail_[head]] = block;
  tail_[head] = block;
}

void VictimBuckets::unlink(flash::BlockId block) {
  const std::size_t head = head_index(pool_of_[block], valid_[block]);
  if (prev_[block] == kNone)
    head_[head] = next_[block];
  else
    next_[prev_[block]] = next_[block];
  if (next_[block] == kNone)
    tail_[head] = prev_[block];
  else
    prev_[next_[block]] = prev_[block];
}

void VictimBuckets::insert(flash::BlockId block, std::uint32_t pool, std::uint32_t valid) {
  if (contains(block)) throw std::logic_error("victim buckets: block inserted twice");
  valid_[block] = static_cast<std::uint16_t>(valid);
  pool_of_[block] = pool;
  link(block, head_index(pool, valid));
  ++sealed_[pool];
}

void VictimBuckets::remove(flash::BlockId block) {
  if (!contains(block)) throw std::logic_error("victim buckets: removing an absent block");
  unlink(block);
  --sealed_[pool_of_[block]];
  valid_[block] = kAbsent;
}

void VictimBuckets::decrement(flash::BlockId block) {
  if (!contains(block) || valid_[block] == 0)
    throw std::logic_error("victim buckets: decrement of an absent or empty block");
  unlink(block);
  --valid_[block];
  link(block, head_index(pool_of_[block], valid_[block]));
}

flash::BlockId VictimBuckets::fewest_valid(std::uint32_t pool) const {
  if (sealed_[pool] == 0) return kNone;
  for (std::uint32_t valid = 0; valid < buckets_per_pool_; ++valid)
    if (head_[head_index(pool, valid)] != kNone) return head_[head_index(pool, valid)];
  return kNone;
}

void VictimBuckets::save_state(StateWriter& out) const {
  out.section("VBKT", 1);
  for (const auto* links : {&head_, &tail_, &next_, &prev_}) out.vector(*links);
  out.vector(valid_);
  out.vector(pool_of_);
  out.vector(sealed_);
}

void VictimBuckets::load_state(StateReader& in) {
  in.section("VBKT", 1);
  const std::size_t heads = head_.size(), blocks = next_.size(), pools = sealed_.size();
  in.vector(head_, heads, "the victim bucket heads");
  in.vector(tail_, heads, "the victim bucket tails");
  in.vector(next_, blocks, "the victim bucket links");
  in.vector(prev_, blocks, "the victim bucket links");
  in.vector(valid_, blocks, "the victim valid counts");
  in.vector(pool_of_, blocks, "the victim pools");
  in.vector(sealed_, pools, "the sealed block counts");
  // Links must stay inside the table: a bad one would index out of range.
  for (const auto* links : {&head_, &tail_, &next_, &prev_})
    for (const flash::BlockId block : *links)
      if (block != kNone && block >= blocks)
        throw make_error("corrupt: a victim bucket links to block {} of {}", block, blocks);
  for (std::size_t block = 0; block < blocks; ++block)
    if ((valid_[block] != kAbsent && valid_[block] >= buckets_per_pool_) ||
        pool_of_[block] >= pools)
      throw make_error("corrupt: victim bucket entry of block {} is out of range", block);
}

}  // namespace ssdlab::ftl
