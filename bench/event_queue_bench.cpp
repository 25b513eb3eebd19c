// EventQueue: one pop and one push per item with a steady number of pending
// events, the simulator's main-loop pattern (each completion schedules the next
// I/O). N = 8 is one process at queue depth 8, 4096 a many-process run.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <variant>
#include <vector>

#include "bench/bench_support.h"
#include "common/units.h"
#include "sim/engine/event_queue.h"

namespace ssdlab::bench {
namespace {

// The same shape as sim::Simulator's events, so entries move the same number
// of bytes through the heap.
struct Arrival {
  std::uint32_t process = 0;
};
struct Completion {
  std::uint32_t process = 0;
  std::uint32_t size = 0;
  std::uint64_t io = 0;
  std::uint64_t offset = 0;
  TimeNs submitted = 0;
  bool write = false;
};
using Event = std::variant<Arrival, Completion>;

void BM_EventQueuePushPop(benchmark::State& state) {
  const auto pending = static_cast<std::size_t>(state.range(0));
  // Delays of 0..1 ms, about a flash operation: popped events land at varied
  // depths of the heap, and some times tie, which exercises the sequence order.
  const std::vector<std::uint64_t> delays = random_table(1'000'000);
  sim::EventQueue<Event> queue;
  for (std::size_t i = 0; i < pending; ++i)
    queue.push(static_cast<TimeNs>(delays[i]),
               Completion{.process = static_cast<std::uint32_t>(i)});

  std::size_t next = pending;
  for (auto _ : state) {
    auto entry = queue.pop();
    benchmark::DoNotOptimize(entry);
    const TimeNs at = entry.time + static_cast<TimeNs>(delays[next++ & kTableMask]);
    queue.push(at, std::move(entry.event));
  }
  state.SetItemsProcessed(state.iterations());  // one item: one pop plus one push
}
BENCHMARK(BM_EventQueuePushPop)->Arg(8)->Arg(64)->Arg(4096);

}  // namespace
}  // namespace ssdlab::bench
