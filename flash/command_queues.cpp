#include "flash/command_queues.h"

#include <type_traits>
#include <utility>

namespace ssdlab::flash {

// The lists of the slots that hold entries, by slot: open addressing with
// linear probing, at most half full (it doubles), a slot removed with its
// list's last entry (backward shift: no tombstones). Its size follows the
// most slots ever in use at once.
class CommandQueues::SlotTable {
 public:
  // A slot's list: its oldest and newest node (no count: a bucket is 16
  // bytes).
  struct SlotList {
    std::uint32_t head = kNil, tail = kNil;
  };
  const SlotList* find(std::uint64_t slot) const {
    if (buckets_.empty()) return nullptr;
    const Bucket& bucket = buckets_[at(slot)];
    return bucket.slot == slot ? &bucket.list : nullptr;
  }
  // The slot's list, added empty if it has none.
  SlotList& find_or_add(std::uint64_t slot);
  // The bucket of a slot that is in the table, its list, and its removal
  // (its list empty).
  std::size_t bucket_of(std::uint64_t slot) const { return at(slot); }
  SlotList& list_at(std::size_t bucket) { return buckets_[bucket].list; }
  void erase_at(std::size_t bucket);

 private:
  struct Bucket {
    std::uint64_t slot = kNoSlot;
    SlotList list;
  };
  std::size_t home(std::uint64_t slot) const {
    return static_cast<std::size_t>((slot * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  // The slot's bucket, or the empty one it would take.
  std::size_t at(std::uint64_t slot) const {
    const std::size_t mask = buckets_.size() - 1;
    std::size_t i = home(slot);
    while (buckets_[i].slot != slot && buckets_[i].slot != kNoSlot) i = (i + 1) & mask;
    return i;
  }
  void grow();
  std::vector<Bucket> buckets_;
  std::size_t used_ = 0;
  unsigned shift_ = 64;
};

CommandQueues::CommandQueues(std::uint32_t units, bool pairing, bool flows, bool nodes)
    : flows_on_(flows),
      indexed_(pairing || flows || nodes),
      unit_count_(units, 0),
      fifos_(indexed_ ? 0 : std::size_t{units} * kClasses),
      queues_(indexed_ ? std::size_t{units} * kClasses : 0),
      slot_table_(pairing ? std::make_unique<SlotTable>() : nullptr),
      flows_(flows ? std::size_t{units} * kClasses : 0) {}
CommandQueues::~CommandQueues() = default;
CommandQueues::CommandQueues(CommandQueues&&) noexcept = default;
CommandQueues& CommandQueues::operator=(CommandQueues&&) noexcept = default;

std::uint32_t CommandQueues::slot_front(std::uint64_t slot) const {
  const SlotTable::SlotList* list = slot_table_->find(slot);
  return list ? list->head : kNil;
}

template <typename Links, typename ListOf>
void CommandQueues::link(Links& links, Link Links::value_type::*member, ListOf& list,
                         std::uint32_t node) {
  Link& own = links[node].*member;
  own.prev = list.tail;
  own.next = kNil;
  if (list.tail == kNil)
    list.head = node;
  else
    (links[list.tail].*member).next = node;
  list.tail = node;
  if constexpr (std::is_same_v<ListOf, List>) ++list.count;
}

template <typename Links, typename ListOf>
void CommandQueues::unlink(Links& links, Link Links::value_type::*member, ListOf& list,
                           std::uint32_t node) {
  const Link own = links[node].*member;
  if (own.prev == kNil)
    list.head = own.next;
  else
    (links[own.prev].*member).next = own.next;
  if (own.next == kNil)
    list.tail = own.prev;
  else
    (links[own.next].*member).prev = own.prev;
  if constexpr (std::is_same_v<ListOf, List>) --list.count;
}

std::uint32_t CommandQueues::push_node(std::uint32_t unit, std::uint32_t work, const Entry& entry,
                                       std::uint64_t slot, std::uint16_t flow) {
  std::uint32_t node;
  if (!free_.empty()) {
    node = free_.back();
    free_.pop_back();
  } else {
    node = static_cast<std::uint32_t>(nodes_.size());
    nodes_.emplace_back();
    if (flows_on_) flow_links_.emplace_back();
  }
  Node& n = nodes_[node];
  n.entry = entry;
  n.unit = unit;
  n.slot = slot;
  n.flow = flow;
  n.work = static_cast<std::uint8_t>(work);
  link(nodes_, &Node::queue_link, queues_[std::size_t{unit} * kClasses + work], node);
  if (slot != kNoSlot) link(nodes_, &Node::slot_link, slot_table_->find_or_add(slot), node);
  if (flows_on_) {
    auto& flows = flows_[std::size_t{unit} * kClasses + work];
    if (flow >= flows.size()) flows.resize(std::size_t{flow} + 1);
    link(flow_links_, &FlowLink::flow_link, flows[flow], node);
  }
  return node;
}

void CommandQueues::remove(std::uint32_t node) {
  const Node& n = nodes_[node];
  const std::size_t at = std::size_t{n.unit} * kClasses + n.work;
  unlink(nodes_, &Node::queue_link, queues_[at], node);
  --unit_count_[n.unit];
  if (n.slot != kNoSlot) {
    const std::size_t bucket = slot_table_->bucket_of(n.slot);  // (there: the node is in it)
    SlotTable::SlotList& list = slot_table_->list_at(bucket);
    unlink(nodes_, &Node::slot_link, list, node);
    if (list.head == kNil) slot_table_->erase_at(bucket);
  }
  if (flows_on_) unlink(flow_links_, &FlowLink::flow_link, flows_[at][n.flow], node);
  free_.push_back(node);
}

CommandQueues::SlotTable::SlotList& CommandQueues::SlotTable::find_or_add(std::uint64_t slot) {
  if (2 * (used_ + 1) > buckets_.size()) grow();
  Bucket& bucket = buckets_[at(slot)];
  if (bucket.slot != slot) {
    bucket.slot = slot;
    bucket.list = SlotList{};
    ++used_;
  }
  return bucket.list;
}

void CommandQueues::SlotTable::erase_at(std::size_t bucket) {
  // Backward shift (Knuth, TAOCP vol. 3, 6.4, Algorithm R): each later key of
  // the probe run that may take the freed bucket moves into it.
  const std::size_t mask = buckets_.size() - 1;
  std::size_t hole = bucket;
  for (std::size_t i = (hole + 1) & mask; buckets_[i].slot != kNoSlot; i = (i + 1) & mask) {
    const std::size_t wanted = home(buckets_[i].slot);
    // Stays if its home lies cyclically in (hole, i].
    if (((i - wanted) & mask) < ((i - hole) & mask)) continue;
    buckets_[hole] = buckets_[i];
    hole = i;
  }
  buckets_[hole].slot = kNoSlot;
  --used_;
}

void CommandQueues::SlotTable::grow() {
  std::vector<Bucket> old = std::move(buckets_);
  buckets_.assign(old.empty() ? 64 : 2 * old.size(), Bucket{});
  shift_ = 64;
  for (std::size_t size = buckets_.size(); size > 1; size /= 2) --shift_;
  for (const Bucket& bucket : old)
    if (bucket.slot != kNoSlot) buckets_[at(bucket.slot)] = bucket;
}

}  // namespace ssdlab::flash
