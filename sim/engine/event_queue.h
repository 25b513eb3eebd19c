// The discrete-event queue: events ordered by (time, sequence number).
//
// Equal times resolve in insertion order, so runs are deterministic (STYLE.md,
// after SimCpp20/SimGrid). `Event` is a typed value (usually a std::variant of
// small structs), never a void* payload. No global state: every simulator owns
// its queue.
#pragma once

#include <cstdint>
#include <queue>
#include <vector>

#include "common/units.h"

namespace ssdlab::sim {

template <typename Event>
class EventQueue {
 public:
  struct Entry {
    TimeNs time;
    std::uint64_t sequence;
    Event event;
  };

  void push(TimeNs time, Event event) {
    heap_.push(Entry{time, next_sequence_++, std::move(event)});
  }
  // Sequence numbers for `count` events pushed later (push_reserved), so
  // that they keep the order they would have had if pushed now: the first
  // of them. Memory follows the events pushed, not the count reserved.
  std::uint64_t reserve(std::uint64_t count) {
    const std::uint64_t first = next_sequence_;
    next_sequence_ += count;
    return first;
  }
  // An event under a sequence number of reserve(); at most once each.
  void push_reserved(TimeNs time, std::uint64_t sequence, Event event) {
    heap_.push(Entry{time, sequence, std::move(event)});
  }
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  TimeNs next_time() const { return heap_.top().time; }

  // Removes and returns the earliest event (lowest sequence among equal times).
  Entry pop() {
    Entry entry = heap_.top();
    heap_.pop();
    return entry;
  }

 private:
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const {
      return a.time != b.time ? a.time > b.time : a.sequence > b.sequence;
    }
  };
  std::priority_queue<Entry, std::vector<Entry>, Later> heap_;
  std::uint64_t next_sequence_ = 0;
};

}  // namespace ssdlab::sim
