#include "flash/command_queues.h"

#include <utility>

namespace ssdlab::flash {

// The lists of the slots that hold entries, one per class, by slot: open
// addressing with linear probing, at most half full (it doubles), a slot
// removed with its lists' last entry (backward shift: no tombstones). Its
// size follows the most slots ever in use at once, and the partner search
// finds a slot's lists of every class with one look-up.
class CommandQueues::SlotTable {
 public:
  using Lists = std::array<List, kClasses>;
  const Lists* find(std::uint64_t slot) const {
    if (buckets_.empty()) return nullptr;
    const Bucket& bucket = buckets_[at(slot)];
    return bucket.slot == slot ? &bucket.lists : nullptr;
  }
  // The slot's lists, added empty if it has none.
  Lists& find_or_add(std::uint64_t slot);
  // Removes the slot (its lists are empty).
  void erase(std::uint64_t slot);

 private:
  struct Bucket {
    std::uint64_t slot = kNoSlot;
    Lists lists;
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

CommandQueues::CommandQueues(std::uint32_t units, bool pairing, bool flows)
    : flows_on_(flows),
      indexed_(pairing || flows),
      unit_count_(units, 0),
      fifos_(indexed_ ? 0 : std::size_t{units} * kClasses),
      queues_(indexed_ ? std::size_t{units} * kClasses : 0),
      slot_table_(pairing ? std::make_unique<SlotTable>() : nullptr),
      flows_(flows ? std::size_t{units} * kClasses : 0) {}
CommandQueues::~CommandQueues() = default;
CommandQueues::CommandQueues(CommandQueues&&) noexcept = default;
CommandQueues& CommandQueues::operator=(CommandQueues&&) noexcept = default;

std::array<std::uint32_t, CommandQueues::kClasses> CommandQueues::slot_fronts(
    std::uint64_t slot) const {
  std::array<std::uint32_t, kClasses> fronts;
  fronts.fill(kNil);
  if (const SlotTable::Lists* lists = slot_table_->find(slot))
    for (std::uint32_t work = 0; work < kClasses; ++work) fronts[work] = (*lists)[work].head;
  return fronts;
}

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
  n.slot = slot;
  n.flow = flow;
  n.work = static_cast<std::uint8_t>(work);
  link<&Node::queue_link>(queues_[std::size_t{unit} * kClasses + work], node);
  if (slot != kNoSlot) link<&Node::slot_link>(slot_table_->find_or_add(slot)[work], node);
  if (flows_on_) {
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
    SlotTable::Lists& lists = slot_table_->find_or_add(n.slot);  // (there: the node is in it)
    unlink<&Node::slot_link>(lists[n.work], node);
    bool empty = true;
    for (const List& list : lists) empty = empty && list.count == 0;
    if (empty) slot_table_->erase(n.slot);
  }
  if (flows_on_) unlink<&Node::flow_link>(flows_[at][n.flow], node);
  free_.push_back(node);
}

CommandQueues::SlotTable::Lists& CommandQueues::SlotTable::find_or_add(std::uint64_t slot) {
  if (2 * (used_ + 1) > buckets_.size()) grow();
  Bucket& bucket = buckets_[at(slot)];
  if (bucket.slot != slot) {
    bucket.slot = slot;
    bucket.lists = Lists{};
    ++used_;
  }
  return bucket.lists;
}

void CommandQueues::SlotTable::erase(std::uint64_t slot) {
  // Backward shift (Knuth, TAOCP vol. 3, 6.4, Algorithm R): each later key of
  // the probe run that may take the freed bucket moves into it.
  const std::size_t mask = buckets_.size() - 1;
  std::size_t hole = at(slot);
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
