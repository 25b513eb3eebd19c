// The flash scheduler's queued commands (flash/scheduler.h), indexed so that
// no per-command step costs time that grows with a queue's length (issue 58).
//
// Every queued entry is one node of a pool, linked into up to three lists at
// once, each in arrival order (a node joins each list at its back, so within
// a list the order is the order of `Entry::seq`, which the scheduler hands
// out in arrival order):
//  - its unit's queue of its class of work: what take() reads at the front
//    (fifo, by class) and the queue order the partner search keeps;
//  - with plane interleaving, its pairing slot's list: the entries (of every
//    class) whose command could join another into a two-plane command, by a
//    key the scheduler makes of the command (`slot`: the plane and page
//    offset of its page, its op, a copy's source offset; scheduler.cpp
//    slot_of()). A two-plane partner sits at the same page offset on a
//    paired plane of the same die (FlashScheduler::pairs_with), so the
//    search looks at the lists of those slots only: its cost grows with the
//    queued commands of that key, not with the unit's queue. The lists of
//    the slots that hold entries are found in a hash table (SlotTable) sized
//    by what is queued, not by the device's planes and page offsets (a table
//    of every slot was 14 MiB on configs/tlc-client.toml: cache misses). A
//    slot's list holds every class, so that a bucket is 16 bytes: under
//    cleaning that preset at a tenth queues some 130,000 commands on
//    average (over 600,000 at the peak), nearly one slot each, and the table is
//    looked up a few times per command;
//  - with the fewest-queued order, its flow's list in its unit and class: the front
//    of each is that flow's oldest command there (take_fewest_queued).
// Removing any node is O(1) (doubly linked lists); nodes are reused, so a
// queue that fills and empties allocates nothing once warm.
//
// The nodes cost a little per command, which a device that uses neither
// index should not pay (the rule that a feature off costs at most 2%: issue
// 58 measured 3.2% more instructions per steady-state write on
// configs/agrawal-baseline.toml). Without pairing slots and without the
// fewest-queued order (`indexed()` false) each queue is a plain FIFO of
// entries in a vector, as before the index: the scheduler then only pushes at the back
// and takes at the front (front_entry(), pop_front()); the node calls below
// are for the indexed queues only.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "common/huge_pages.h"

namespace ssdlab::flash {

class CommandQueues {
 public:
  static constexpr std::uint32_t kNil = 0xffffffffu;
  static constexpr std::uint64_t kNoSlot = ~std::uint64_t{0};
  // Classes of work per unit (flash/scheduler.h: WorkClass).
  static constexpr std::uint32_t kClasses = 3;
  // An entry of the scheduler's: the job, the command's index in it (with the
  // scheduler's flag bits), the arrival sequence number.
  struct Entry {
    std::uint32_t job, command;
    std::uint64_t seq;
  };

  // `units` units, kClasses classes of work each; `pairing`: keep the
  // pairing slots' lists; `flows`: keep the per-flow lists. Indexed (nodes)
  // if either is asked for, or `nodes` (an order that keeps its own data by
  // node: FLIN's, flash/flin.h), plain FIFOs otherwise.
  CommandQueues(std::uint32_t units, bool pairing, bool flows, bool nodes = false);
  ~CommandQueues();
  CommandQueues(CommandQueues&&) noexcept;
  CommandQueues& operator=(CommandQueues&&) noexcept;

  bool indexed() const { return indexed_; }
  // Queues `entry` at the back of (unit, work); when indexed, in slot
  // `slot`'s list unless it is kNoSlot (a command that never joins another),
  // and in flow `flow`'s list when it keeps them. Returns its node (kNil
  // when not indexed).
  std::uint32_t push(std::uint32_t unit, std::uint32_t work, const Entry& entry, std::uint64_t slot,
                     std::uint16_t flow) {
    ++unit_count_[unit];
    if (indexed_) return push_node(unit, work, entry, slot, flow);
    fifos_[std::size_t{unit} * kClasses + work].push_back(entry);
    return kNil;
  }
  bool empty(std::uint32_t unit) const { return unit_count_[unit] == 0; }
  // The oldest entry of (unit, work), or nullptr if it is empty; pop_front()
  // takes it out (of every list it is in).
  const Entry* front_entry(std::uint32_t unit, std::uint32_t work) const {
    if (!indexed_) return fifos_[std::size_t{unit} * kClasses + work].front();
    const std::uint32_t node = front(unit, work);
    return node == kNil ? nullptr : &nodes_[node].entry;
  }
  void pop_front(std::uint32_t unit, std::uint32_t work) {
    if (!indexed_) {
      --unit_count_[unit];
      fifos_[std::size_t{unit} * kClasses + work].pop_front();
    } else {
      remove(front(unit, work));
    }
  }

  // Indexed queues only, from here on.
  // Takes the node out of every list it is in (and frees it).
  void remove(std::uint32_t node);
  // The oldest node of (unit, work); kNil if it is empty.
  std::uint32_t front(std::uint32_t unit, std::uint32_t work) const {
    return queues_[std::size_t{unit} * kClasses + work].head;
  }
  const Entry& entry(std::uint32_t node) const { return nodes_[node].entry; }
  std::uint16_t flow(std::uint32_t node) const { return nodes_[node].flow; }

  // The oldest node in slot `slot`'s list (kNil if it has none), and the one
  // after `node` in its slot's list (kNil at the end); a node's class.
  std::uint32_t slot_front(std::uint64_t slot) const;
  std::uint32_t slot_next(std::uint32_t node) const { return nodes_[node].slot_link.next; }
  std::uint32_t work(std::uint32_t node) const { return nodes_[node].work; }

  // The fewest-queued order: how many of flow `flow`'s commands (unit, work) holds
  // (0 beyond the flows seen there) and the oldest of them.
  std::uint32_t flow_count(std::uint32_t unit, std::uint32_t work, std::uint16_t flow) const {
    const auto& flows = flows_[std::size_t{unit} * kClasses + work];
    return flow < flows.size() ? flows[flow].count : 0;
  }
  std::uint32_t flow_front(std::uint32_t unit, std::uint32_t work, std::uint16_t flow) const {
    return flows_[std::size_t{unit} * kClasses + work][flow].head;
  }
  // The flows seen in (unit, work) so far (those with a count may be fewer).
  std::size_t flows_seen(std::uint32_t unit, std::uint32_t work) const {
    return flows_[std::size_t{unit} * kClasses + work].size();
  }

 private:
  struct Link {
    std::uint32_t prev = kNil, next = kNil;
  };
  struct List {
    std::uint32_t head = kNil, tail = kNil, count = 0;
  };
  // 48 bytes: under a backlog the nodes are a cache-missing working set.
  struct Node {
    Entry entry;
    std::uint64_t slot = kNoSlot;  // its pairing slot, or kNoSlot
    Link queue_link, slot_link;
    std::uint32_t unit = 0;
    std::uint16_t flow = 0;
    std::uint8_t work = 0;
  };
  // The flows' links, beside the nodes (by node), kept only with the
  // fewest-queued order.
  struct FlowLink {
    Link flow_link;
  };
  // The lists of the slots that hold entries (command_queues.cpp).
  class SlotTable;
  // A FIFO of entries that keeps its storage (a unit's queue empties and
  // fills again all the time; std::deque would allocate and free blocks).
  class Fifo {
   public:
    const Entry* front() const { return head_ == items_.size() ? nullptr : &items_[head_]; }
    void push_back(const Entry& entry) { items_.push_back(entry); }
    // Empty: the storage is reused from its start. A queue that never
    // empties (a backlog that lasts) drops what it has taken once that is
    // half of it, so that its storage follows what is queued.
    void pop_front() {
      if (++head_ == items_.size()) {
        items_.clear();
        head_ = 0;
      } else if (head_ >= 1024 && 2 * head_ >= items_.size()) {
        items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
        head_ = 0;
      }
    }

   private:
    std::vector<Entry> items_;
    std::size_t head_ = 0;
  };
  std::uint32_t push_node(std::uint32_t unit, std::uint32_t work, const Entry& entry,
                          std::uint64_t slot, std::uint16_t flow);
  // Links `node` at the back of `list` / takes it out, through its link
  // `links[node].*member` (the nodes, or the flows' links beside them).
  template <typename Links, typename ListOf>
  static void link(Links& links, Link Links::value_type::*member, ListOf& list, std::uint32_t node);
  template <typename Links, typename ListOf>
  static void unlink(Links& links, Link Links::value_type::*member, ListOf& list,
                     std::uint32_t node);

  bool flows_on_;
  bool indexed_;
  std::vector<std::uint32_t> unit_count_;  // per unit: its queued entries
  std::vector<Fifo> fifos_;                // not indexed: per unit and class
  HugeVector<Node> nodes_;            // (huge pages once large: a cleaning list queues millions)
  std::vector<FlowLink> flow_links_;  // with flows_on_: by node
  std::vector<std::uint32_t> free_;
  std::vector<List> queues_;               // per unit and class
  std::unique_ptr<SlotTable> slot_table_;  // pairing: the slots that hold entries
  std::vector<std::vector<List>> flows_;   // per unit and class, per flow
};

}  // namespace ssdlab::flash
