// End to end: one host I/O through the controller (FTL plus timelines), and a
// whole experiment run through the discrete-event loop, on agrawal-baseline.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "bench/bench_support.h"
#include "sim/state/precondition.h"
#include "sim/engine/simulator.h"
#include "sim/controller/ssd.h"
#include "workloads/plan.h"

namespace ssdlab::bench {
namespace {

constexpr std::uint32_t kIoSize = 4096;

// A baseline SSD whose whole logical space has been written once (no time
// passes), so that random reads all hit flash. Built once per kind of use:
// filling 7 M pages takes longer than a measurement.
std::unique_ptr<sim::Ssd> prefilled_ssd() {
  auto ssd = std::make_unique<sim::Ssd>(baseline());
  ssd->prefill(0, ssd->logical_bytes());
  return ssd;
}

// A baseline device in steady state: preconditioned with a sequential fill
// and one capacity of random overwrites (`--precondition random`). Shared by
// the write benchmarks: reaching it takes seconds.
sim::Ssd& steady_ssd() {
  static const std::unique_ptr<sim::Ssd> ssd = [] {
    auto used = std::make_unique<sim::Ssd>(baseline());
    sim::precondition(*used, workloads::parse_precondition("random"), kSeed);
    return used;
  }();
  return *ssd;
}

// Random 4 KB writes at queue depth 1 in steady state, cleaning included:
// each starts when the previous one completes.
void BM_SsdSubmitRandomWrite(benchmark::State& state) {
  sim::Ssd& ssd = steady_ssd();
  const std::uint64_t pages = ssd.logical_bytes() / kIoSize;
  const std::vector<std::uint64_t> slots = random_table(pages);
  std::size_t next = 0;
  static TimeNs now = 0;  // the shared device's clock only moves forward
  for (auto _ : state) {
    now = *ssd.start({slots[next++ & kTableMask] * kIoSize, kIoSize, IoMode::kWrite}, now);
    benchmark::DoNotOptimize(now);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SsdSubmitRandomWrite);

// Random 4 KB reads at queue depth 1 of a fully written device.
void BM_SsdSubmitRandomRead(benchmark::State& state) {
  // Reads change only counters and busy-until times: one device serves every
  // call of this function.
  static const std::unique_ptr<sim::Ssd> ssd = prefilled_ssd();
  static TimeNs now = 0;  // the device's timelines remember earlier calls
  const std::vector<std::uint64_t> slots = random_table(ssd->logical_bytes() / kIoSize);

  std::size_t next = 0;
  for (auto _ : state) {
    now = *ssd->start({slots[next++ & kTableMask] * kIoSize, kIoSize, IoMode::kRead}, now);
    benchmark::DoNotOptimize(now);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SsdSubmitRandomRead);

// One Simulator::run of 100 000 random 4 KB I/Os at queue depth 1 without an
// io log: the event loop, generator, controller and per-run statistics
// together. Items are simulated I/Os.
constexpr std::uint64_t kRunIos = 100'000;

workloads::ExperimentSpec random_4k(workloads::Pattern pattern) {
  workloads::ExperimentSpec spec;
  spec.name = "bench";
  spec.pattern = pattern;
  spec.io_size = kIoSize;
  spec.count = kRunIos;
  return spec;
}

// RW in steady state, cleaning included: successive runs keep writing to the
// same device, as an experiment's runs do.
void BM_SimulatorRunRandomWrite(benchmark::State& state) {
  const workloads::ExperimentSpec spec = random_4k(workloads::Pattern::kRW);
  static sim::Simulator simulator(steady_ssd(), /*log=*/nullptr);  // keeps its clock
  static std::uint32_t run = 0;
  for (auto _ : state) {
    // A new run number per iteration: a new address stream, as in a real plan.
    benchmark::DoNotOptimize(simulator.run(spec, run++, kSeed));
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kRunIos));
}
BENCHMARK(BM_SimulatorRunRandomWrite)->Unit(benchmark::kMillisecond);

// RR on a fully written device, for comparison with RW.
void BM_SimulatorRunRandomRead(benchmark::State& state) {
  static const std::unique_ptr<sim::Ssd> ssd = prefilled_ssd();
  static sim::Simulator simulator(*ssd, /*log=*/nullptr);  // keeps its clock across calls
  const workloads::ExperimentSpec spec = random_4k(workloads::Pattern::kRR);

  std::uint32_t run = 0;
  for (auto _ : state) benchmark::DoNotOptimize(simulator.run(spec, run++, kSeed));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kRunIos));
}
BENCHMARK(BM_SimulatorRunRandomRead)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ssdlab::bench
