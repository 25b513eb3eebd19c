// Trace parsing throughput: an MSR Cambridge trace read record by record
// through TraceFile (line buffer, from_chars parsing), plain and gzipped.
// Items are lines. The trace is generated once into the temp folder; the
// largest traces to measure by hand come from tools/make-example-traces.py.
#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

#include "bench/bench_support.h"
#include "common/rng.h"
#include "traces/trace_file.h"

namespace ssdlab::bench {
namespace {

constexpr int kLines = 500000;

// kLines of MSR CSV like those of the real traces (~55 bytes a line).
const std::string& msr_text() {
  static const std::string text = [] {
    Rng rng(kSeed);
    std::string out;
    std::uint64_t ticks = 128166372003061629;
    for (int i = 0; i < kLines; ++i) {
      ticks += rng.uniform(20000);
      out += fmt::format("{},hm,{},{},{},{},{}\n", ticks, rng.uniform(3),
                         rng.uniform(10) < 3 ? "Write" : "Read", rng.uniform(1u << 22) * 4096,
                         4096 * (1 + rng.uniform(16)), rng.uniform(50000));
    }
    return out;
  }();
  return text;
}

std::string trace_file(bool gzip) {
  const auto path = std::filesystem::temp_directory_path() /
                    (gzip ? "ssdlab-bench-msr.csv.gz" : "ssdlab-bench-msr.csv");
  if (!std::filesystem::exists(path)) {
    const std::string& text = msr_text();
    if (gzip) {
      gzFile file = gzopen(path.c_str(), "wb6");
      gzwrite(file, text.data(), static_cast<unsigned>(text.size()));
      gzclose(file);
    } else {
      std::FILE* file = std::fopen(path.c_str(), "wb");
      std::fwrite(text.data(), 1, text.size(), file);
      std::fclose(file);
    }
  }
  return path.string();
}

void parse(benchmark::State& state, bool gzip) {
  const std::string path = trace_file(gzip);
  traces::ReadOptions options;
  options.format = "msr";
  std::uint64_t lines = 0;
  for (auto _ : state) {
    traces::TraceFile file(path, options);
    std::uint64_t bytes = 0;
    while (auto record = file.next()) bytes += record->size;
    benchmark::DoNotOptimize(bytes);
    lines += file.counts().lines;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(lines));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * msr_text().size()));
}

void BM_ParseMsrPlain(benchmark::State& state) {
  parse(state, false);
}
BENCHMARK(BM_ParseMsrPlain)->Unit(benchmark::kMillisecond);

void BM_ParseMsrGzip(benchmark::State& state) {
  parse(state, true);
}
BENCHMARK(BM_ParseMsrGzip)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ssdlab::bench
