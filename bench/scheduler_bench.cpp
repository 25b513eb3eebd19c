// FlashScheduler with one die's queue driven to N commands (issue 58): the
// time per command must stay flat in N. Each iteration queues N single-page
// reads and programs on die 0 of configs/tlc-client.toml (2 planes, 768-page
// blocks, plane interleaving: every command taken looks for a two-plane
// partner) at random planes, blocks and page offsets, behind a busy die, then
// drains the queue. Items are commands: the CPU time per item is the time per
// command. Before the queue index (flash/command_queues.h) the partner search
// walked the whole queue for each command taken.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/rng.h"
#include "flash/scheduler.h"
#include "sim/config/config.h"

namespace ssdlab::bench {
namespace {

struct Ignore : flash::FlashScheduler::Listener {
  void host_done(std::uint64_t, TimeNs) override {}
  void cleaning_done(std::uint64_t, TimeNs, TimeNs) override {}
};

void BM_SchedulerQueueOfOneDie(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  const sim::DeviceConfig config =
      sim::load_config(std::string(SSDLAB_SOURCE_DIR) + "/configs/tlc-client.toml");
  const flash::Geometry& g = config.geometry;
  flash::FlashScheduler scheduler(g, config.timing, flash::DispatchOrder{});
  Ignore ignore;
  scheduler.set_listener(&ignore);
  // The commands, drawn before timing starts: die 0's planes are 0 and 1.
  Rng rng(42);
  std::vector<flash::Command> commands(n);
  for (flash::Command& command : commands) {
    const auto plane = static_cast<std::uint32_t>(rng.uniform(g.planes_per_die));
    const auto block = static_cast<std::uint32_t>(rng.uniform(g.blocks_per_plane));
    const auto offset = static_cast<std::uint32_t>(rng.uniform(g.pages_per_block));
    command.op = rng.uniform(2) ? flash::Op::kRead : flash::Op::kProgram;
    command.ppn = (plane * g.blocks_per_plane + block) * g.pages_per_block + offset;
  }
  TimeNs now = 0;
  std::uint64_t tag = 0;
  for (auto _ : state) {
    for (const flash::Command& command : commands) {
      flash::CommandList list{command};
      const auto work = command.op == flash::Op::kRead ? flash::WorkClass::kHostRead
                                                       : flash::WorkClass::kHostWrite;
      benchmark::DoNotOptimize(
          scheduler.submit(list, now, work, flash::HostWait::kNone, tag++));
    }
    scheduler.drain();
    now = scheduler.timeline().unit_free_at(0);  // the next batch queues behind this one
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * n);
}
BENCHMARK(BM_SchedulerQueueOfOneDie)->Arg(10)->Arg(100)->Arg(1'000)->Arg(10'000);

}  // namespace
}  // namespace ssdlab::bench
