#include "ftl/victim_buckets.h"

#include <stdexcept>

namespace ssdlab::ftl {

VictimBuckets::VictimBuckets(std::uint32_t blocks, std::uint32_t pools,
                             std::uint32_t pages_per_block)
    : buckets_per_pool_(pages_per_block + 1),
      head_(std::size_t{pools} * (pages_per_block + 1), kNone),
      tail_(head_.size(), kNone),
      blocks_(blocks),
      sealed_(pools, 0) {}

void VictimBuckets::link(flash::BlockId block, std::size_t head) {
  Record& record = blocks_[block];
  record.prev = tail_[head];
  record.next = kNone;
  if (tail_[head] == kNone)
    head_[head] = block;
  else
    blocks_[tail_[head]].next = block;
  tail_[head] = block;
}

void VictimBuckets::unlink(flash::BlockId block) {
  const Record& record = blocks_[block];
  const std::size_t head = head_index(record.pool, record.valid);
  if (record.prev == kNone)
    head_[head] = record.next;
  else
    blocks_[record.prev].next = record.next;
  if (record.next == kNone)
    tail_[head] = record.prev;
  else
    blocks_[record.next].prev = record.prev;
}

void VictimBuckets::insert(flash::BlockId block, std::uint32_t pool, std::uint32_t valid) {
  if (contains(block)) throw std::logic_error("victim buckets: block inserted twice");
  blocks_[block].valid = static_cast<std::uint16_t>(valid);
  blocks_[block].pool = pool;
  link(block, head_index(pool, valid));
  ++sealed_[pool];
}

void VictimBuckets::remove(flash::BlockId block) {
  if (!contains(block)) throw std::logic_error("victim buckets: removing an absent block");
  unlink(block);
  --sealed_[blocks_[block].pool];
  blocks_[block].valid = kAbsent;
}

void VictimBuckets::decrement(flash::BlockId block) {
  if (!contains(block) || blocks_[block].valid == 0)
    throw std::logic_error("victim buckets: decrement of an absent or empty block");
  unlink(block);
  --blocks_[block].valid;
  link(block, head_index(blocks_[block].pool, blocks_[block].valid));
}

flash::BlockId VictimBuckets::fewest_valid(std::uint32_t pool) const {
  if (sealed_[pool] == 0) return kNone;
  for (std::uint32_t valid = 0; valid < buckets_per_pool_; ++valid)
    if (head_[head_index(pool, valid)] != kNone) return head_[head_index(pool, valid)];
  return kNone;
}

}  // namespace ssdlab::ftl
