// Page-mapped FTL: the functional work of one host 4 KB write or read (map
// update, allocation, command list), with no timing model involved.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "bench/bench_support.h"
#include "flash/command.h"
#include "ftl/ftl.h"
#include "ftl/victim_buckets.h"

namespace ssdlab::bench {
namespace {

std::unique_ptr<ftl::Ftl> fresh_ftl() {
  const sim::DeviceConfig& config = baseline();
  return ftl::make_ftl({config.geometry, config.ftl, 0});
}

// Random 4 KB writes in steady state: the device is filled and then
// overwritten once at random before timing, so every write superseded a page
// and foreground cleaning (greedy, copy-back) runs as in a long experiment.
// The FTL is shared by every call, since reaching steady state takes seconds.
void BM_FtlRandomWrite(benchmark::State& state) {
  static const std::unique_ptr<ftl::Ftl> ftl = [] {
    std::unique_ptr<ftl::Ftl> used = fresh_ftl();
    flash::CommandList commands;
    for (ftl::Lpn lpn = 0; lpn < used->logical_pages(); ++lpn) {
      commands.clear();
      used->write({lpn, 1, false, false}, commands);
    }
    for (const std::uint64_t lpn : random_table(used->logical_pages())) {
      commands.clear();
      used->write({static_cast<ftl::Lpn>(lpn), 1, false, false}, commands);
    }
    return used;
  }();
  const std::vector<std::uint64_t> lpns = random_table(ftl->logical_pages());
  flash::CommandList commands;
  commands.reserve(256);
  std::size_t next = 0;
  for (auto _ : state) {
    commands.clear();
    ftl->write({static_cast<ftl::Lpn>(lpns[next++ & kTableMask]), 1, false, false}, commands);
    benchmark::DoNotOptimize(commands.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_FtlRandomWrite);

// Reads of random logical pages, every one mapped: the whole logical space is
// written once, sequentially, before timing starts.
void BM_FtlRandomRead(benchmark::State& state) {
  // Shared by every call of this function (Google Benchmark calls it more than
  // once): filling 7 M pages takes longer than the measurement itself. Reads
  // change nothing but counters.
  static const std::unique_ptr<ftl::Ftl> ftl = [] {
    std::unique_ptr<ftl::Ftl> filled = fresh_ftl();
    flash::CommandList commands;
    for (ftl::Lpn lpn = 0; lpn < filled->logical_pages(); ++lpn) {
      commands.clear();
      filled->write({lpn, 1, false, false}, commands);
    }
    return filled;
  }();
  const std::vector<std::uint64_t> lpns = random_table(ftl->logical_pages());
  flash::CommandList commands;
  commands.reserve(16);

  std::size_t next = 0;
  for (auto _ : state) {
    commands.clear();
    ftl->read({static_cast<ftl::Lpn>(lpns[next++ & kTableMask]), 1, false, false}, commands);
    benchmark::DoNotOptimize(commands.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_FtlRandomRead);

// Greedy victim selection: one superseded page (a bucket move) and one pick of
// the fewest-valid block, in pools of 16 Ki and 1 Mi blocks. The cost must
// not grow with the number of blocks (it is bounded by pages per block).
void BM_VictimSelection(benchmark::State& state) {
  const auto blocks = static_cast<std::uint32_t>(state.range(0));
  constexpr std::uint32_t kPagesPerBlock = 64;
  ftl::VictimBuckets buckets(blocks, 1, kPagesPerBlock);
  Rng rng(kSeed);
  for (std::uint32_t block = 0; block < blocks; ++block)
    buckets.insert(block, 0, 32 + static_cast<std::uint32_t>(rng.uniform(kPagesPerBlock - 32)));
  const std::vector<std::uint64_t> victims = random_table(blocks);
  std::size_t next = 0;
  for (auto _ : state) {
    const auto block = static_cast<flash::BlockId>(victims[next++ & kTableMask]);
    if (buckets.valid(block) > 1) buckets.decrement(block);
    benchmark::DoNotOptimize(buckets.fewest_valid(0));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_VictimSelection)->Arg(1 << 14)->Arg(1 << 20);

}  // namespace
}  // namespace ssdlab::bench
