// The flash scheduler's queued commands (flash/scheduler.h), indexed so that
// no per-command step costs time that grows with a queue's length (issue 58).
//
// Every queued entry is one node of a pool, linked into up to three lists at
// once, each in arrival order (a node joins each list at its back, so within
// a list the order is the order of `Entry::seq`, which the scheduler hands
// out in arrival order):
//  - its unit's queue of its class of work: what take() reads at the front
//    (fifo, by class) and the queue order the partner search keeps;
//  - with plane interleaving, its pairing slot's list: the entries of its
//    class whose command could join another into a two-plane command,
//    by the plane and page offset of the command's page (`slot`). A
//    two-plane partner sits at the same page offset on a paired plane of the
//    same die (FlashScheduler::pairs_with), so the search looks at the lists
//    of those slots only: its cost grows with the queued commands at that
//    plane and offset, not with the unit's queue;
//  - with the `fair` order, its flow's list in its unit and class: the front
//    of each is that flow's oldest command there (take_fair).
// Removing any node is O(1) (doubly linked lists); nodes are reused, so a
// queue that fills and empties allocates nothing once warm.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ssdlab::flash {

class CommandQueues {
 public:
  static constexpr std::uint32_t kNil = 0xffffffffu;
  // An entry of the scheduler's: the job, the command's index in it (with the
  // scheduler's flag bits), the arrival sequence number.
  struct Entry {
    std::uint32_t job, command;
    std::uint64_t seq;
  };

  // `units` units, `classes` classes of work each; `slots` pairing slots
  // (0: no partner index); `fair`: keep the per-flow lists.
  CommandQueues(std::uint32_t units, std::uint32_t classes, std::uint32_t slots, bool fair);

  // Queues `entry` at the back of (unit, work); in slot `slot`'s list unless
  // it is kNil (a command that never joins another); in flow `flow`'s list
  // when fair. Returns its node.
  std::uint32_t push(std::uint32_t unit, std::uint32_t work, const Entry& entry,
                     std::uint32_t slot, std::uint16_t flow);
  // Takes the node out of every list it is in (and frees it).
  void remove(std::uint32_t node);

  bool empty(std::uint32_t unit) const { return unit_count_[unit] == 0; }
  bool empty(std::uint32_t unit, std::uint32_t work) const {
    return queue(unit, work).head == kNil;
  }
  // The oldest node of (unit, work); kNil if it is empty.
  std::uint32_t front(std::uint32_t unit, std::uint32_t work) const {
    return queue(unit, work).head;
  }
  const Entry& entry(std::uint32_t node) const { return nodes_[node].entry; }
  std::uint16_t flow(std::uint32_t node) const { return nodes_[node].flow; }

  // The oldest node of `work` in slot `slot`'s list, and the one after `node`
  // in its slot's list (kNil at the end).
  std::uint32_t slot_front(std::uint32_t slot, std::uint32_t work) const {
    return slots_[std::size_t{slot} * classes_ + work].head;
  }
  std::uint32_t slot_next(std::uint32_t node) const { return nodes_[node].slot_link.next; }

  // The fair order: how many of flow `flow`'s commands (unit, work) holds
  // (0 beyond the flows seen there) and the oldest of them.
  std::uint32_t flow_count(std::uint32_t unit, std::uint32_t work, std::uint16_t flow) const {
    const auto& flows = flows_[std::size_t{unit} * classes_ + work];
    return flow < flows.size() ? flows[flow].count : 0;
  }
  std::uint32_t flow_front(std::uint32_t unit, std::uint32_t work, std::uint16_t flow) const {
    return flows_[std::size_t{unit} * classes_ + work][flow].head;
  }
  // The flows seen in (unit, work) so far (those with a count may be fewer).
  std::size_t flows_seen(std::uint32_t unit, std::uint32_t work) const {
    return flows_[std::size_t{unit} * classes_ + work].size();
  }

 private:
  struct Link {
    std::uint32_t prev = kNil, next = kNil;
  };
  struct List {
    std::uint32_t head = kNil, tail = kNil, count = 0;
  };
  struct Node {
    Entry entry;
    Link queue_link, slot_link, flow_link;
    std::uint32_t unit = 0, slot = kNil;
    std::uint16_t flow = 0;
    std::uint8_t work = 0;
  };
  // The list a node's link of kind `Member` belongs to.
  template <Link Node::*Member>
  void link(List& list, std::uint32_t node);
  template <Link Node::*Member>
  void unlink(List& list, std::uint32_t node);
  const List& queue(std::uint32_t unit, std::uint32_t work) const {
    return queues_[std::size_t{unit} * classes_ + work];
  }

  std::uint32_t classes_;
  bool fair_;
  std::vector<Node> nodes_;
  std::vector<std::uint32_t> free_;
  std::vector<List> queues_;                // per unit and class
  std::vector<std::uint32_t> unit_count_;   // per unit: its queued entries
  std::vector<List> slots_;                 // per slot and class
  std::vector<std::vector<List>> flows_;    // per unit and class, per flow
};

}  // namespace ssdlab::flash
