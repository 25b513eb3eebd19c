// The controller's DRAM write buffer (Agrawal et al. §3, Figure 3: the
// buffer manager "holds pending and satisfied requests"), as bookkeeping of
// logical pages: which pages it holds, in what age order, and how much of its
// space is still taken by pages being flushed to flash.
//
// It decides nothing about time by itself: Ssd asks it what to flush and
// tells it when flushes complete. Iteration order is insertion order (a list),
// never hash order, so runs stay deterministic.
#pragma once

#include <cstdint>
#include <list>
#include <map>
#include <unordered_map>
#include <vector>

#include "common/state_io.h"
#include "common/units.h"
#include "ftl/ftl.h"
#include "records/write_buffer_counters.h"

namespace ssdlab::sim {

class WriteBuffer {
 public:
  explicit WriteBuffer(std::uint64_t capacity_pages) : capacity_(capacity_pages) {}

  std::uint64_t capacity() const { return capacity_; }
  std::uint64_t held() const { return order_.size(); }
  // Pages held plus pages whose flush has not completed yet.
  std::uint64_t occupied() const { return order_.size() + in_flight_pages_; }
  bool contains(ftl::Lpn lpn) const { return where_.count(lpn) != 0; }

  // Stores `lpn` as the newest page, written with placement identifier
  // `placement` (HostIo::placement; an overwrite takes the newest write's);
  // returns false if it was already held (an overwrite coalesced in DRAM).
  bool put(ftl::Lpn lpn, std::uint8_t placement = 0);
  // Forgets `lpn` if held (a newer copy went to flash another way).
  void drop(ftl::Lpn lpn);
  // The placement identifier `lpn` was last put with, until forget_placement()
  // (after its flush) or drop(); 0 for most pages. Only pages put with an
  // identifier other than 0 take room for one (none on most devices).
  bool has_placements() const { return !placement_.empty(); }
  std::uint8_t placement(ftl::Lpn lpn) const {
    const auto it = placement_.find(lpn);
    return it == placement_.end() ? 0 : it->second;
  }
  void forget_placement(ftl::Lpn lpn) { placement_.erase(lpn); }
  // Removes the `count` oldest pages and appends them to `out`.
  void take_oldest(std::uint64_t count, std::vector<ftl::Lpn>& out);
  // Removes the pages held of logical pages [first, end) and appends them to
  // `out`, in no particular order.
  void take_range(ftl::Lpn first, ftl::Lpn end, std::vector<ftl::Lpn>& out);
  // Puts `pages` (taken, oldest first, and held no more) back as the oldest.
  void put_back_oldest(const std::vector<ftl::Lpn>& pages);
  // The pages held, oldest first: acknowledged writes not yet on flash when
  // the buffer is write-back (what a power cut loses unless the DRAM is
  // protected).
  std::vector<ftl::Lpn> contents() const { return {order_.begin(), order_.end()}; }
  void clear();

  // `pages` taken out for a flush keep their space until `done`.
  void flushing(TimeNs done, std::uint64_t pages);
  // Frees the space of flushes complete at `now`.
  void release(TimeNs now);
  // The earliest time >= now at which `pages` more fit, releasing the
  // flushes that complete by then; `now` if they fit already. Flushes in
  // flight must be able to free enough (the caller flushes first).
  TimeNs room_for(std::uint64_t pages, TimeNs now);

  // Checkpoints (sim/state/checkpoint.h): the pages held in age order, the
  // flushes in flight and the counters; the placement identifiers in a
  // section of their own, only where there are some. load_state() expects an empty buffer
  // of the same capacity.
  void save_state(StateWriter& out) const;
  void load_state(StateReader& in);

  records::WriteBufferCounters& stats() { return stats_; }
  const records::WriteBufferCounters& stats() const { return stats_; }

 private:
  std::uint64_t capacity_;
  std::list<ftl::Lpn> order_;  // oldest first
  std::unordered_map<ftl::Lpn, std::list<ftl::Lpn>::iterator> where_;
  std::unordered_map<ftl::Lpn, std::uint8_t> placement_;  // identifiers other than 0
  std::multimap<TimeNs, std::uint64_t> in_flight_;  // flush completion -> pages
  std::uint64_t in_flight_pages_ = 0;
  records::WriteBufferCounters stats_;
};

}  // namespace ssdlab::sim
