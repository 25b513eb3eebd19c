#include "flash/command_queues.h"

#include <utility>

namespace ssdlab::flash {

CommandQueues::CommandQueues(std::uint32_t units, bool pairing, bool fair)
    : fair_(fair),
      indexed_(pairing || fair),
      unit_count_(units, 0),
      fifos_(indexed_ ? 0 : std::size_t{units} * kClasses),
      queues_(indexed_ ? std::size_t{units} * kClasses : 0),
      flows_(fair ? std::size_t{units} * kClasses : 0) {}

template <CommandQueues::Link CommandQueues::Node::*Member>
void CommandQueues::link(List& list, std::uint32_t node) {
  Link& own = nodes_[node].*Member;
  own.prev = list.tail;
  own.next = kNil;
  if (list.tail == kNil)
    list.head = node;
  else
    (nodes_[list.tail].*Member).next = node;
  list.tail = node;
  ++list.count;
}

template <CommandQueues::Link CommandQueues::Node::*Member>
void CommandQueues::unlink(List& list, std::uint32_t node) {
  const Link own = nodes_[node].*Member;
  if (own.prev == kNil)
    list.head = own.next;
  else
    (nodes_[own.prev].*Member).next = own.next;
  if (own.next == kNil)
    list.tail = own.prev;
  else
    (nodes_[own.next].*Member).prev = own.prev;
  --list.count;
}

void CommandQueues::push_node(std::uint32_t unit, std::uint32_t work, const Entry& entry,
                              std::uint64_t slot, std::uint16_t flow) {
  std::uint32_t node;
  if (!free_.empty()) {
    node = free_.back();
    free_.pop_back();
  } else {
    node = static_cast<std::uint32_t>(nodes_.size());
    nodes_.emplace_back();
  }
  Node& n = nodes_[node];
  n.entry = entry;
  n.unit = unit;
  n.slot = slot == kNoSlot ? kNoSlot : slot * kClasses + work;
  n.flow = flow;
  n.work = static_cast<std::uint8_t>(work);
  link<&Node::queue_link>(queues_[std::size_t{unit} * kClasses + work], node);
  if (n.slot != kNoSlot) link<&Node::slot_link>(slot_table_.find_or_add(n.slot), node);
  if (fair_) {
    auto& flows = flows_[std::size_t{unit} * kClasses + work];
    if (flow >= flows.size()) flows.resize(std::size_t{flow} + 1);
    link<&Node::flow_link>(flows[flow], node);
  }
}

void CommandQueues::remove(std::uint32_t node) {
  const Node& n = nodes_[node];
  const std::size_t at = std::size_t{n.unit} * kClasses + n.work;
  unlink<&Node::queue_link>(queues_[at], node);
  --unit_count_[n.unit];
  if (n.slot != kNoSlot) {
    List& list = slot_table_.find_or_add(n.slot);  // (there: the node is in it)
    unlink<&Node::slot_link>(list, node);
    if (list.count == 0) slot_table_.erase(n.slot);
  }
  if (fair_) unlink<&Node::flow_link>(flows_[at][n.flow], node);
  free_.push_back(node);
}

std::size_t CommandQueues::SlotTable::at(std::uint64_t key) const {
  const std::size_t mask = buckets_.size() - 1;
  std::size_t i = home(key);
  while (buckets_[i].key != key && buckets_[i].key != kNoSlot) i = (i + 1) & mask;
  return i;
}

const CommandQueues::List* CommandQueues::SlotTable::find(std::uint64_t key) const {
  if (buckets_.empty()) return nullptr;
  const Bucket& bucket = buckets_[at(key)];
  return bucket.key == key ? &bucket.list : nullptr;
}

CommandQueues::List& CommandQueues::SlotTable::find_or_add(std::uint64_t key) {
  if (2 * (used_ + 1) > buckets_.size()) grow();
  Bucket& bucket = buckets_[at(key)];
  if (bucket.key != key) {
    bucket.key = key;
    bucket.list = List{};
    ++used_;
  }
  return bucket.list;
}

void CommandQueues::SlotTable::erase(std::uint64_t key) {
  // Backward shift (Knuth, TAOCP vol. 3, 6.4, Algorithm R): each later key of
  // the probe run that may take the freed bucket moves into it.
  const std::size_t mask = buckets_.size() - 1;
  std::size_t hole = at(key);
  for (std::size_t i = (hole + 1) & mask; buckets_[i].key != kNoSlot; i = (i + 1) & mask) {
    const std::size_t wanted = home(buckets_[i].key);
    // Stays if its home lies cyclically in (hole, i].
    if (((i - wanted) & mask) < ((i - hole) & mask)) continue;
    buckets_[hole] = buckets_[i];
    hole = i;
  }
  buckets_[hole].key = kNoSlot;
  --used_;
}

void CommandQueues::SlotTable::grow() {
  std::vector<Bucket> old = std::move(buckets_);
  buckets_.assign(old.empty() ? 64 : 2 * old.size(), Bucket{});
  shift_ = 64;
  for (std::size_t size = buckets_.size(); size > 1; size /= 2) --shift_;
  for (const Bucket& bucket : old)
    if (bucket.key != kNoSlot) buckets_[at(bucket.key)] = bucket;
}

}  // namespace ssdlab::flash
