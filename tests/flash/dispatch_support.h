// What the dispatch-order tests share (fewest-queued, FLIN): an order by its
// name, and a scheduler on a small device that records when each job's host
// chain and cleaning chain complete.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <map>

#include "flash/scheduler.h"
#include "flash_support.h"

namespace ssdlab::flash::dispatch_test {

inline DispatchOrder order_named(const char* name) {
  DispatchOrder order;
  EXPECT_TRUE(parse_dispatch_order(name, order)) << name;
  return order;
}

// A scheduler and the completion time of each job by tag.
struct DispatchRun : FlashScheduler::Listener {
  DispatchRun(const Geometry& g, DispatchOrder order) : geometry(g), scheduler(g, Timing{}, order) {
    scheduler.set_listener(this);
  }
  void host_done(std::uint64_t tag, TimeNs at) override { done[tag] = at; }
  void cleaning_done(std::uint64_t tag, TimeNs, TimeNs end) override { cleaned[tag] = end; }
  // One single-page job of `flow` on die `die` (plane 2 * die, page `n` mod 128).
  void submit(std::uint64_t tag, Op op, std::uint32_t die, std::uint32_t n, TimeNs now,
              std::uint16_t flow) {
    const Ppn ppn = (2 * die * geometry.blocks_per_plane * geometry.pages_per_block) + n % 128;
    CommandList list{page_command(op, ppn, 0)};
    const WorkClass work = op == Op::kRead ? WorkClass::kHostRead : WorkClass::kHostWrite;
    if (const auto at = scheduler.submit(list, now, work, HostWait::kNone, tag, flow))
      done[tag] = *at;
  }
  // How many of the jobs tagged [first, last) completed before `at`.
  int done_before(std::uint64_t first, std::uint64_t last, TimeNs at) {
    int count = 0;
    for (std::uint64_t tag = first; tag < last; ++tag) count += done.at(tag) < at ? 1 : 0;
    return count;
  }
  Geometry geometry;
  FlashScheduler scheduler;
  std::map<std::uint64_t, TimeNs> done, cleaned;
};

}  // namespace ssdlab::flash::dispatch_test
