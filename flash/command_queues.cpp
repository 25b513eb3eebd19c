#include "flash/command_queues.h"

namespace ssdlab::flash {

CommandQueues::CommandQueues(std::uint32_t units, std::uint32_t classes, std::uint32_t slots,
                             bool fair)
    : classes_(classes),
      fair_(fair),
      queues_(std::size_t{units} * classes),
      unit_count_(units, 0),
      slots_(std::size_t{slots} * classes),
      flows_(fair ? std::size_t{units} * classes : 0) {}

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

std::uint32_t CommandQueues::push(std::uint32_t unit, std::uint32_t work, const Entry& entry,
                                  std::uint32_t slot, std::uint16_t flow) {
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
  link<&Node::queue_link>(queues_[std::size_t{unit} * classes_ + work], node);
  ++unit_count_[unit];
  if (slot != kNil) link<&Node::slot_link>(slots_[std::size_t{slot} * classes_ + work], node);
  if (fair_) {
    auto& flows = flows_[std::size_t{unit} * classes_ + work];
    if (flow >= flows.size()) flows.resize(std::size_t{flow} + 1);
    link<&Node::flow_link>(flows[flow], node);
  }
  return node;
}

void CommandQueues::remove(std::uint32_t node) {
  const Node& n = nodes_[node];
  const std::size_t at = std::size_t{n.unit} * classes_ + n.work;
  unlink<&Node::queue_link>(queues_[at], node);
  --unit_count_[n.unit];
  if (n.slot != kNil) unlink<&Node::slot_link>(slots_[std::size_t{n.slot} * classes_ + n.work], node);
  if (fair_) unlink<&Node::flow_link>(flows_[at][n.flow], node);
  free_.push_back(node);
}

}  // namespace ssdlab::flash
