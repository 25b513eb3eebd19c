#include "ftl/victim_buckets.h"

#include <stdexcept>

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

}  // namespace ssdlab::ftl
