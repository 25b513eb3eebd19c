#include "ftl/victim_buckets.h"

#include <stdexcept>

#include "common/error.h"

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

std::vector<flash::BlockId> VictimBuckets::fewest(std::uint32_t pool, std::size_t count) const {
  std::vector<flash::BlockId> blocks;
  for (std::uint32_t valid = 0; valid < buckets_per_pool_ && blocks.size() < count; ++valid)
    for (flash::BlockId block = head_[head_index(pool, valid)];
         block != kNone && blocks.size() < count; block = blocks_[block].next)
      blocks.push_back(block);
  return blocks;
}

void VictimBuckets::save_state(StateWriter& out) const {
  // The layout of section version 1, one array per field, although the
  // fields now live together in one record per block.
  out.section("VBKT", 1);
  std::vector<flash::BlockId> next(blocks_.size()), prev(blocks_.size());
  std::vector<std::uint16_t> valid(blocks_.size());
  std::vector<std::uint32_t> pool_of(blocks_.size());
  for (std::size_t block = 0; block < blocks_.size(); ++block) {
    next[block] = blocks_[block].next;
    prev[block] = blocks_[block].prev;
    valid[block] = blocks_[block].valid;
    pool_of[block] = blocks_[block].pool;
  }
  out.vector(head_);
  out.vector(tail_);
  out.vector(next);
  out.vector(prev);
  out.vector(valid);
  out.vector(pool_of);
  out.vector(sealed_);
}

void VictimBuckets::load_state(StateReader& in) {
  in.section("VBKT", 1);
  const std::size_t heads = head_.size(), blocks = blocks_.size(), pools = sealed_.size();
  std::vector<flash::BlockId> next, prev;
  std::vector<std::uint16_t> valid;
  std::vector<std::uint32_t> pool_of;
  in.vector(head_, heads, "the victim bucket heads");
  in.vector(tail_, heads, "the victim bucket tails");
  in.vector(next, blocks, "the victim bucket links");
  in.vector(prev, blocks, "the victim bucket links");
  in.vector(valid, blocks, "the victim valid counts");
  in.vector(pool_of, blocks, "the victim pools");
  in.vector(sealed_, pools, "the sealed block counts");
  // Links must stay inside the table: a bad one would index out of range.
  for (const std::vector<flash::BlockId>* links : {&head_, &tail_, &next, &prev})
    for (const flash::BlockId block : *links)
      if (block != kNone && block >= blocks)
        throw make_error("corrupt: a victim bucket links to block {} of {}", block, blocks);
  for (std::size_t block = 0; block < blocks; ++block) {
    if ((valid[block] != kAbsent && valid[block] >= buckets_per_pool_) || pool_of[block] >= pools)
      throw make_error("corrupt: victim bucket entry of block {} is out of range", block);
    blocks_[block] = Record{next[block], prev[block], pool_of[block], valid[block]};
  }
}

}  // namespace ssdlab::ftl
