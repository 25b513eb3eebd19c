// FLIN's queues, stages 1 and 2 (flash/flin.h has the model and its sources).
#include "flash/flin.h"

#include <algorithm>
#include <limits>

namespace ssdlab::flash {

namespace {

// What is left at `now` of the unit's operation in progress.
TimeNs remaining(FlinQueues::Busy busy, TimeNs now) {
  return busy.until > now ? busy.until - now : 0;
}

}  // namespace

FlinQueues::FlinQueues(std::uint32_t units, const FlinSettings& settings)
    : settings_(settings),
      queues_(std::size_t{units} * 2 * kFlinPriorities),
      epochs_(std::size_t{units} * 2),
      turns_(std::size_t{units} * 2) {}

void FlinQueues::set_priorities(std::vector<std::uint8_t> flow_class,
                                std::array<std::uint32_t, 3> weights) {
  flow_class_ = std::move(flow_class);
  weights_ = weights;
}

FlinQueues::Epoch& FlinQueues::epoch_at(std::uint32_t unit, std::uint32_t work, TimeNs now) {
  Epoch& epoch = epochs_[std::size_t{unit} * 2 + work];
  if (now < epoch.end) return epoch;
  // The epoch that ended classifies the flows for the next one; an epoch
  // after one with no arrivals (the unit idle for longer) finds all low.
  const bool just_ended = now < epoch.end + settings_.epoch_ns && epoch.end != 0;
  epoch.high.assign(epoch.arrivals.size(), false);
  if (just_ended)
    for (std::size_t flow = 0; flow < epoch.arrivals.size(); ++flow)
      epoch.high[flow] =
          epoch.arrivals[flow] >= (work == 0 ? settings_.alpha_read : settings_.alpha_write);
  std::fill(epoch.arrivals.begin(), epoch.arrivals.end(), 0u);
  // Epochs are aligned to multiples of their length, as a periodic event's.
  epoch.end = (now / settings_.epoch_ns + 1) * settings_.epoch_ns;
  return epoch;
}

void FlinQueues::arrive(std::uint32_t unit, std::uint32_t work, std::uint16_t flow, TimeNs now) {
  flows_seen_ = std::max<std::uint32_t>(flows_seen_, std::uint32_t{flow} + 1);
  Epoch& epoch = epoch_at(unit, work, now);
  if (flow >= epoch.arrivals.size()) epoch.arrivals.resize(std::size_t{flow} + 1, 0);
  ++epoch.arrivals[flow];
}

bool FlinQueues::high_intensity(std::uint32_t unit, std::uint32_t work, std::uint16_t flow,
                                TimeNs now) {
  const Epoch& epoch = epoch_at(unit, work, now);
  return flow < epoch.high.size() && epoch.high[flow];
}

double FlinQueues::slowdown(const Item& item, TimeNs shared) const {
  return static_cast<double>(shared) / static_cast<double>(item.alone_wait + item.service);
}

void FlinQueues::estimate_alone_wait(const Queue& queue, std::size_t position, TimeNs now,
                                     Busy busy) {
  Item& item = items_[queue.nodes[position]];
  item.alone_wait = 0;
  // Alone, it would wait for its own flow's commands ahead of it: the nearest
  // one's end as estimated when it came (its arrival, alone wait and service).
  for (std::size_t k = position; k-- > 0;) {
    const Item& ahead = items_[queue.nodes[k]];
    if (ahead.flow != item.flow) continue;
    const TimeNs end = ahead.arrival + ahead.alone_wait + ahead.service;
    item.alone_wait = end > now ? end - now : 0;
    return;
  }
  // Or for its own flow's operation in progress on the unit.
  if (busy.flow == item.flow) item.alone_wait = remaining(busy, now);
}

double FlinQueues::fairness_of_flows(const Queue& queue, TimeNs now, Busy busy,
                                     std::uint16_t& slowest) const {
  std::vector<double> sum(flows_seen_, 0.0);
  std::vector<std::uint32_t> count(flows_seen_, 0);
  TimeNs ahead = remaining(busy, now);
  for (const std::uint32_t node : queue.nodes) {
    const Item& item = items_[node];
    ahead += item.service;
    sum[item.flow] += slowdown(item, now - item.arrival + ahead);
    ++count[item.flow];
  }
  double least = std::numeric_limits<double>::max(), most = 0;
  for (std::size_t flow = 0; flow < sum.size(); ++flow) {
    if (count[flow] == 0) continue;
    const double mean = sum[flow] / count[flow];
    least = std::min(least, mean);
    if (mean > most) most = mean, slowest = static_cast<std::uint16_t>(flow);
  }
  return most > 0 ? least / most : 1.0;
}

void FlinQueues::move(Queue& queue, std::size_t from, std::size_t to) {
  const std::uint32_t node = queue.nodes[from];
  std::move_backward(queue.nodes.begin() + static_cast<std::ptrdiff_t>(to),
                     queue.nodes.begin() + static_cast<std::ptrdiff_t>(from),
                     queue.nodes.begin() + static_cast<std::ptrdiff_t>(from) + 1);
  queue.nodes[to] = node;
}

bool FlinQueues::reorder(Queue& queue, std::size_t first, std::size_t position, TimeNs now,
                         Busy busy) {
  if (position == first) return false;
  const Item& moving = items_[queue.nodes[position]];
  // First pass: each node's slowdown where it is, and the least and greatest
  // over [first, k] for each k.
  TimeNs ahead = remaining(busy, now);
  for (std::size_t k = 0; k < first; ++k) ahead += items_[queue.nodes[k]].service;
  const std::size_t span = position - first + 1;
  std::vector<double> least(span), most(span);
  std::vector<TimeNs> before(span);  // the service ahead of each node
  for (std::size_t k = 0; k < span; ++k) {
    const Item& item = items_[queue.nodes[first + k]];
    before[k] = ahead;
    ahead += item.service;
    const double own = slowdown(item, now - item.arrival + ahead);
    least[k] = k == 0 ? own : std::min(least[k - 1], own);
    most[k] = k == 0 ? own : std::max(most[k - 1], own);
  }
  double best = least[span - 1] / most[span - 1];
  std::size_t best_at = position;
  // Second pass: the moving node before node k (k from position - 1 down):
  // the nodes it passes wait its service longer, it waits theirs less.
  double passed_least = std::numeric_limits<double>::max(), passed_most = 0;
  for (std::size_t k = span - 1; k-- > 0;) {
    const Item& passed = items_[queue.nodes[first + k]];
    if (passed.flow == moving.flow || passed.barrier) break;
    const double later =
        slowdown(passed, now - passed.arrival + before[k] + passed.service + moving.service);
    passed_least = std::min(passed_least, later);
    passed_most = std::max(passed_most, later);
    const double mine = slowdown(moving, now - moving.arrival + before[k] + moving.service);
    double lo = std::min(passed_least, mine), hi = std::max(passed_most, mine);
    if (k > 0) lo = std::min(lo, least[k - 1]), hi = std::max(hi, most[k - 1]);
    if (lo / hi > best) best = lo / hi, best_at = first + k;
  }
  if (best_at == position) return false;
  move(queue, position, best_at);
  return true;
}

void FlinQueues::move_forward(Queue& queue, std::size_t first, std::size_t position) {
  Item& moving = items_[queue.nodes[position]];
  std::size_t to = position;
  while (to > first) {
    const Item& ahead = items_[queue.nodes[to - 1]];
    if (ahead.flow == moving.flow || ahead.barrier) break;
    --to;
  }
  moving.barrier = true;
  move(queue, position, to);
}

void FlinQueues::insert(std::uint32_t unit, std::uint32_t work, std::uint32_t node,
                        std::uint16_t flow, TimeNs now, TimeNs service_ns, Busy busy) {
  // (A flow's cleaning may come before any of its host commands reach the
  // flash: a write buffer's flush.)
  flows_seen_ = std::max<std::uint32_t>(flows_seen_, std::uint32_t{flow} + 1);
  if (node >= items_.size()) items_.resize(std::size_t{node} + 1);
  const auto index = static_cast<std::uint32_t>(queue_index(unit, work, priority_of(flow)));
  items_[node] = Item{now, std::max<TimeNs>(service_ns, 1), 0, index, flow, false};
  Queue& queue = queues_[index];
  if (flow >= queue.high_of_flow.size()) queue.high_of_flow.resize(std::size_t{flow} + 1, 0);
  // One flow: first come, first served (as TSU_FLIN with fewer than two
  // flows); nothing to be fair between.
  if (flows_seen_ < 2) {
    queue.nodes.push_back(node);
    ++queue.high_of_flow[flow];
    return;
  }
  const bool high = high_intensity(unit, work, flow, now) || queue.high_of_flow[flow] > 0;
  if (!high) {
    ++counters_.low_insertions;
    const std::size_t at = queue.low++;
    queue.nodes.insert(queue.nodes.begin() + static_cast<std::ptrdiff_t>(at), node);
    estimate_alone_wait(queue, at, now, busy);
    if (reorder(queue, 0, at, now, busy)) ++counters_.reordered;
    return;
  }
  ++queue.high_of_flow[flow];
  queue.nodes.push_back(node);
  const std::size_t tail = queue.nodes.size() - 1;
  estimate_alone_wait(queue, tail, now, busy);
  std::uint16_t slowest = flow;
  const double fairness = fairness_of_flows(queue, now, busy, slowest);
  if (fairness < settings_.fairness_threshold && slowest == flow) {
    move_forward(queue, queue.low, tail);
    ++counters_.moved_forward;
  } else if (reorder(queue, queue.low, tail, now, busy)) {
    ++counters_.reordered;
  }
}

int FlinQueues::weighted_pick(std::uint32_t unit, std::uint32_t work) const {
  const Turn& turn = turns_[std::size_t{unit} * 2 + work];
  // The class in its turn while it has weight left, else the next classes
  // with commands in order (a new round when the turn comes back).
  for (std::size_t step = 0; step < 3; ++step) {
    const std::size_t priority = 1 + (turn.priority - 1 + step) % 3;
    if (queues_[queue_index(unit, work, priority)].nodes.empty()) continue;
    if (step == 0 && turn.served >= weights_[priority - 1]) continue;
    return static_cast<int>(priority);
  }
  // Only the class in its turn has commands, and its weight is used: a new
  // round.
  return queues_[queue_index(unit, work, turn.priority)].nodes.empty() ? -1 : turn.priority;
}

std::uint32_t FlinQueues::slot(std::uint32_t unit, std::uint32_t work) const {
  const Queue& urgent = queues_[queue_index(unit, work, 0)];
  if (!urgent.nodes.empty()) return urgent.nodes.front();
  const int priority = weighted_pick(unit, work);
  if (priority < 0) return kNil;
  return queues_[queue_index(unit, work, static_cast<std::size_t>(priority))].nodes.front();
}

void FlinQueues::take_slot(std::uint32_t unit, std::uint32_t work, TimeNs now) {
  const std::uint32_t node = slot(unit, work);
  const std::size_t queue = items_[node].queue;
  const std::size_t priority = queue % kFlinPriorities;
  Turn& turn = turns_[std::size_t{unit} * 2 + work];
  turn.taken = now;
  if (priority != 0) {
    if (turn.priority != priority || turn.served >= weights_[priority - 1]) {
      turn.priority = static_cast<std::uint8_t>(priority);
      turn.served = 0;
    }
    ++turn.served;
  }
  remove_at(queues_[queue], 0);
}

void FlinQueues::erase(std::uint32_t node) {
  Queue& queue = queues_[items_[node].queue];
  const auto it = std::find(queue.nodes.begin(), queue.nodes.end(), node);
  remove_at(queue, static_cast<std::size_t>(it - queue.nodes.begin()));
}

void FlinQueues::remove_at(Queue& queue, std::size_t position) {
  Item& item = items_[queue.nodes[position]];
  if (position < queue.low)
    --queue.low;
  else
    --queue.high_of_flow[item.flow];
  item.queue = kNil;
  queue.nodes.erase(queue.nodes.begin() + static_cast<std::ptrdiff_t>(position));
}

}  // namespace ssdlab::flash
