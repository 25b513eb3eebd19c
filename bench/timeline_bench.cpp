// FlashTimeline::schedule: reserving the bus and die of one flash command.
// Commands target random pages, so they spread over every die and channel.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "bench/bench_support.h"
#include "flash/command.h"
#include "flash/timeline.h"

namespace ssdlab::bench {
namespace {

void BM_TimelineSchedule(benchmark::State& state) {
  const auto op = static_cast<flash::Op>(state.range(0));
  const sim::DeviceConfig& config = baseline();
  const std::vector<std::uint64_t> pages = random_table(config.geometry.pages());
  std::vector<flash::Command> commands(kTableSize);
  for (std::size_t i = 0; i < kTableSize; ++i) {
    commands[i].op = op;
    commands[i].ppn = static_cast<flash::Ppn>(pages[i]);
  }
  flash::FlashTimeline timeline(config.geometry, config.timing);

  // The host clock advances about as fast as the baseline's 8 buses and 16 dies
  // complete such commands, so some wait for their die and others find it idle,
  // as in a saturated run.
  const TimeNs step = op == flash::Op::kRead ? 12'500 : 19'000;
  TimeNs now = 0;
  std::size_t next = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(timeline.schedule(commands[next++ & kTableMask], now));
    now += step;
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(flash::op_name(op));
}
BENCHMARK(BM_TimelineSchedule)
    ->Arg(static_cast<int>(flash::Op::kRead))
    ->Arg(static_cast<int>(flash::Op::kProgram));

}  // namespace
}  // namespace ssdlab::bench
