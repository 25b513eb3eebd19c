// FLIN's queues (controller.dispatch_order = "flin"): the flash scheduler's
// host reads and host writes of each unit in the order FLIN keeps them.
//
// Tavakkol et al., "FLIN: Enabling Fairness and Enhancing Performance in
// Modern NVMe Solid State Drives", ISCA 2018, §5: a scheduler in three
// stages between the host's submission queues and each flash chip's queues.
// A chip here is a unit of the scheduler (flash/scheduler.h: a die, or a
// package without interleaving); a flow is a tenant (HostIo::flow).
//
// Stage 1, fairness-aware queue insertion (§5.1, its Algorithm 1; the
// authors' names of its steps are those of MQSim's TSU_FLIN.cpp, which
// implements this stage): each unit keeps a read queue and a write queue per
// priority class, each with a low-intensity part at its head and a
// high-intensity part behind it.
//  - Flow classification: every epoch (FlinSettings::epoch_ns) each unit
//    counts each flow's read and write commands that arrive; a flow that
//    sent fewer than the threshold (alpha, commands per unit per epoch) in
//    the epoch just ended is low-intensity at that unit for the next one.
//    Every flow is low-intensity in the first epoch.
//  - A low-intensity flow's command goes after the low part's tail
//    (Insert(TRnew after Q.Taillow)), then moves forward within the low part
//    to where the queue is fairest (ReorderForFairness(from Q.Taillow to
//    Q.Head)).
//  - A high-intensity flow's command goes at the tail. If the fairness of
//    the queue's flows (FairnessBasedOnAverageSlowdown: the least of the
//    flows' mean estimated slowdowns over the greatest) is below the
//    fairness threshold (F_thr) and its flow has the greatest, it moves
//    forward past other flows' commands up to the low part
//    (MoveForward(from Q.Tail up to Q.Taillow + 1)) and is marked so that
//    no later high-intensity command passes it; otherwise it moves forward
//    within the high part to where the queue is fairest
//    (ReorderForFairness(from Q.Tail to Q.Taillow + 1)).
//  - A command's slowdown is estimated as FLIN does: its time in the device
//    shared (waited so far, plus the unit's remaining busy time, plus the
//    service times of the commands ahead of it and its own) over its time
//    alone (EstimateAloneWaitingTime: the wait for its own flow's commands
//    ahead of it in the queue, or for its own flow's operation in progress,
//    plus its service time). Service times are the commands' unloaded times
//    (FlashTimeline::unloaded_ns).
//  - A command never passes one of its own flow's (MoveForward and the
//    reordering stop there), and a flow whose commands are in the high
//    part when it turns low-intensity joins the low part once they have
//    left: a flow's commands keep their order.
// Stage 2, priority-aware queue arbitration (§5.2): the read slot and the
// write slot of a unit take the head of its urgent class's queue first,
// then those of the high, medium and low classes by weighted round robin
// (the weights of the host's arbitration, NVMe's Arbitration feature). A
// flow's class is its submission queue's priority (set_priorities()); with
// none set every flow is of one class.
// Stage 3, wait-balancing transaction selection (§5.3): the scheduler
// (scheduler_flin.cpp) takes, of the read slot and the write slot, the one
// with the greater proportional wait (its wait in the slot over its service
// time). A flow's cleaning commands are write transactions of that flow here
// (scheduler_flin.cpp says why).
//
// Costs: an insertion walks its queue (two passes, as FLIN's reordering
// does): O(queue length). Only this order keeps any of it (FlinQueues is
// empty under the others).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "common/units.h"
#include "records/flin_counters.h"

namespace ssdlab::flash {

// FLIN's thresholds. Defaults: the values the authors' MQSim passes to its
// TSU_FLIN (src/exec/SSD_Device.cpp, FLIN case): a 10 ms epoch and F_thr
// 0.6; its alphas, 32 MiB of reads and 256 KiB of writes per epoch
// device-wide, which TSU_FLIN divides by its chips and page size, are 128
// reads and 1 write per chip per epoch on MQSim's default device
// (ssdconfig.xml: 8 channels of 4 chips, 8 KiB pages). Per unit here, so
// that they mean the same intensity on any device.
struct FlinSettings {
  TimeNs epoch_ns = 10'000'000;
  std::uint32_t alpha_read = 128;  // reads per unit per epoch: high-intensity
  std::uint32_t alpha_write = 1;   // writes per unit per epoch: high-intensity
  double fairness_threshold = 0.6;
  bool operator==(const FlinSettings&) const = default;
};

// NVMe's priority classes of submission queues (weighted round robin with an
// urgent class), in priority order.
inline constexpr std::size_t kFlinPriorities = 4;  // urgent, high, medium, low

class FlinQueues {
 public:
  static constexpr std::uint32_t kNil = 0xffffffffu;
  // A unit's state at an insertion: until when it is busy, and with which
  // flow's operation (kNoFlow: none, or not known).
  static constexpr std::uint32_t kNoFlow = 0xffffffffu;
  struct Busy {
    TimeNs until = 0;
    std::uint32_t flow = kNoFlow;
  };
  // What stage 1 did (records/flin_counters.h).
  using Counters = records::FlinCounters;

  FlinQueues() = default;  // off
  // `units` units.
  FlinQueues(std::uint32_t units, const FlinSettings& settings);
  bool on() const { return !queues_.empty(); }

  // Stage 2: each flow's priority class (index into urgent, high, medium,
  // low; flows beyond the list: medium) and the weights of high, medium and
  // low.
  void set_priorities(std::vector<std::uint8_t> flow_class, std::array<std::uint32_t, 3> weights);

  // A host command of `flow` of class `work` (0 read, 1 write) arrives at
  // `unit` at `now`: counted for the flow classification, whether it is
  // queued (insert()) or taken at once.
  void arrive(std::uint32_t unit, std::uint32_t work, std::uint16_t flow, TimeNs now);
  // Queues the scheduler's queue node `node` (a host command after arrive(),
  // or a flow's cleaning command in its write queue): `service_ns`, its
  // unloaded time; `busy`, its unit's state now.
  void insert(std::uint32_t unit, std::uint32_t work, std::uint32_t node, std::uint16_t flow,
              TimeNs now, TimeNs service_ns, Busy busy);
  // Stage 2: the node the unit's slot of class `work` holds (the head of the
  // queue arbitration picks), or kNil if it has none.
  std::uint32_t slot(std::uint32_t unit, std::uint32_t work) const;
  // The slot's node was taken at `now`: out of its queue; the arbitration's
  // turn moves on.
  void take_slot(std::uint32_t unit, std::uint32_t work, TimeNs now);
  // Stage 3's wait of the slot's node `node` at `now`: the time it has held
  // the slot, since the later of its arrival and the slot's last take (a
  // node the queue's order puts at its head later is taken as in the slot
  // from that take).
  TimeNs slot_wait(std::uint32_t unit, std::uint32_t work, std::uint32_t node, TimeNs now) const {
    const TimeNs since = std::max(items_[node].arrival, turns_[std::size_t{unit} * 2 + work].taken);
    return now > since ? now - since : 0;
  }
  // A node of a queue taken otherwise (as a two-plane partner): out of its
  // queue, the arbitration untouched.
  void erase(std::uint32_t node);
  bool queued(std::uint32_t node) const {
    return node < items_.size() && items_[node].queue != kNil;
  }
  TimeNs arrival(std::uint32_t node) const { return items_[node].arrival; }
  TimeNs service(std::uint32_t node) const { return items_[node].service; }
  const Counters& counters() const { return counters_; }

 private:
  struct Item {
    TimeNs arrival = 0, service = 1, alone_wait = 0;
    std::uint32_t queue = kNil;  // its queue's index, kNil once out
    std::uint16_t flow = 0;
    bool barrier = false;  // MoveForward moved it: no high-intensity command passes it
  };
  struct Queue {
    std::vector<std::uint32_t> nodes;         // FLIN's order, head first
    std::uint32_t low = 0;                    // the low-intensity part: nodes[0, low)
    std::vector<std::uint32_t> high_of_flow;  // per flow, its nodes in the high part
  };
  // Per unit and class: the epoch's arrivals per flow, and the flows
  // low-intensity in it (classified at its start).
  struct Epoch {
    TimeNs end = 0;
    std::vector<std::uint32_t> arrivals;
    std::vector<bool> high;
  };
  // Stage 2's state per unit and class: the class in its turn and what it has
  // served of its weight.
  struct Turn {
    std::uint8_t priority = 1;
    std::uint32_t served = 0;
    TimeNs taken = 0;  // the slot's last take (stage 3)
  };
  std::size_t queue_index(std::uint32_t unit, std::uint32_t work, std::size_t priority) const {
    return (std::size_t{unit} * 2 + work) * kFlinPriorities + priority;
  }
  Epoch& epoch_at(std::uint32_t unit, std::uint32_t work, TimeNs now);
  bool high_intensity(std::uint32_t unit, std::uint32_t work, std::uint16_t flow, TimeNs now);
  std::size_t priority_of(std::uint16_t flow) const {
    return flow < flow_class_.size() ? flow_class_[flow] : 2;
  }
  // The weighted round robin's pick among high, medium and low (-1: none).
  int weighted_pick(std::uint32_t unit, std::uint32_t work) const;
  void remove_at(Queue& queue, std::size_t position);
  // The estimates at `now`: each node's time shared and alone.
  void estimate_alone_wait(const Queue& queue, std::size_t position, TimeNs now, Busy busy);
  double slowdown(const Item& item, TimeNs shared) const;
  double fairness_of_flows(const Queue& queue, TimeNs now, Busy busy, std::uint16_t& slowest) const;
  // ReorderForFairness: the node at `position` moves forward, not before
  // `first`, to where min/max slowdown over [first, position] is greatest.
  bool reorder(Queue& queue, std::size_t first, std::size_t position, TimeNs now, Busy busy);
  // MoveForward: the node at `position` moves forward past other flows'
  // nodes, not before `first`; it is marked.
  void move_forward(Queue& queue, std::size_t first, std::size_t position);
  void move(Queue& queue, std::size_t from, std::size_t to);

  FlinSettings settings_;
  std::vector<Item> items_;    // by scheduler queue node
  std::vector<Queue> queues_;  // per unit, class, priority
  std::vector<Epoch> epochs_;  // per unit and class
  std::vector<Turn> turns_;    // per unit and class
  std::vector<std::uint8_t> flow_class_;
  std::array<std::uint32_t, 3> weights_ = {1, 1, 1};
  Counters counters_;
  std::uint32_t flows_seen_ = 0;
};

}  // namespace ssdlab::flash
