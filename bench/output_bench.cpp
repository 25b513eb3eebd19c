// Per-I/O output and bookkeeping of the simulator: one io.csv row, and one
// completed I/O recorded for the run's statistics (8 bytes each).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <filesystem>
#include <vector>

#include "bench/bench_support.h"
#include "sim/results/output.h"
#include "sim/results/run_samples.h"
#include "workloads/plan.h"

namespace ssdlab::bench {
namespace {

// Rows like a steady-state random 4 KB write run's: 6-7 digit times, random
// offsets. The file goes to the temporary directory and is removed after.
void BM_IoLogRow(benchmark::State& state) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "ssdlab_bench_io.csv";
  const std::vector<std::uint64_t> offsets = random_table(std::uint64_t{1} << 23);
  std::uint64_t bytes = 0;
  {
    sim::IoLog log(path);
    std::uint64_t io = 0;
    TimeNs submitted = 0;
    for (auto _ : state) {
      const std::uint64_t random = offsets[io & kTableMask];
      const TimeNs response = 300'000 + static_cast<TimeNs>(random % 700'000);
      log.row("RW/io_size=4096", 0, 0, io, submitted, response, IoMode::kWrite, random * 4096, 4096);
      submitted += response;
      ++io;
    }
    log.commit();
    bytes = std::filesystem::file_size(path);
  }
  std::filesystem::remove(path);
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
}
BENCHMARK(BM_IoLogRow);

// RunSamples::add plus the share of summarize() (start-up detection,
// percentiles) of a run of 1 Mi I/Os.
void BM_RunSamples(benchmark::State& state) {
  workloads::ExperimentSpec spec;
  spec.count = kTableSize;
  spec.io_ignore_auto = true;
  const std::vector<std::uint64_t> jitter = random_table(700'000);
  for (auto _ : state) {
    sim::RunSamples samples(sim::RunGroup{spec.name, 0, spec.count, spec.io_ignore, spec.io_ignore_auto});
    TimeNs submitted = 0;
    for (std::size_t i = 0; i < kTableSize; ++i) {
      const TimeNs response = 300'000 + static_cast<TimeNs>(jitter[i]);
      samples.add(submitted, response, i, 4096);
      submitted += response;
    }
    std::uint64_t startup = 0;
    benchmark::DoNotOptimize(samples.summarize(&startup));
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kTableSize));
}
BENCHMARK(BM_RunSamples)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ssdlab::bench
