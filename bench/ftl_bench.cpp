// Page-mapped FTL: the functional work of one host 4 KB write or read (map
// update, allocation, command list), with no timing model involved.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "bench/bench_support.h"
#include "flash/command.h"
#include "ftl/ftl.h"

namespace ssdlab::bench {
namespace {

std::unique_ptr<ftl::Ftl> fresh_ftl() {
  const sim::DeviceConfig& config = baseline();
  return ftl::make_ftl({config.geometry, config.ftl, 0});
}

// The page-mapped FTL does not clean yet: every write consumes a free physical
// page, and once a pool runs out the FTL throws. So the device is replaced by
// a fresh one (untimed) after 80% of the logical pages worth of writes, well
// before any pool can fill (the logical space is 85% of the physical one).
void BM_FtlRandomWrite(benchmark::State& state) {
  std::unique_ptr<ftl::Ftl> ftl = fresh_ftl();
  const std::uint64_t logical_pages = ftl->logical_pages();
  const std::uint64_t writes_per_device = logical_pages * 8 / 10;
  const std::vector<std::uint64_t> lpns = random_table(logical_pages);
  flash::CommandList commands;
  commands.reserve(16);

  std::uint64_t written = 0;
  std::size_t next = 0;
  for (auto _ : state) {
    if (written == writes_per_device) {
      state.PauseTiming();
      ftl.reset();  // the old one's memory first: two baseline FTLs are ~130 MB
      ftl = fresh_ftl();
      written = 0;
      state.ResumeTiming();
    }
    commands.clear();
    ftl->write({static_cast<ftl::Lpn>(lpns[next++ & kTableMask]), 1, false, false}, commands);
    benchmark::DoNotOptimize(commands.data());
    ++written;
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

}  // namespace
}  // namespace ssdlab::bench
