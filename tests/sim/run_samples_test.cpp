// RunSamples keeps a run's I/Os in 8 bytes each; its statistics must be those
// of a plain computation over the full samples (summarize_run below), bit for
// bit.
#include "sim/results/run_samples.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "common/rng.h"
#include "workloads/methodology.h"
#include "workloads/plan.h"

namespace ssdlab::sim {
namespace {

// One completed I/O of a run.
struct IoSample {
  TimeNs submitted = 0, response = 0;  // submission from the run's start
  std::uint64_t io = 0;                // index within its process
  std::uint32_t size = 0;
};

// The reference: the run's statistics from all its I/Os in completion order,
// after the start-up phase found by workloads::detect_startup (io_ignore =
// "auto"; its length goes to *startup), or the first io_ignore I/Os of each
// process.
RunStats summarize_run(const workloads::ExperimentSpec& spec, const std::vector<IoSample>& samples,
                       std::uint64_t* startup) {
  std::size_t first = 0;  // samples before it are all start-up
  if (spec.io_ignore_auto) {
    std::vector<TimeNs> series(samples.size());
    for (std::size_t i = 0; i < samples.size(); ++i) series[i] = samples[i].response;
    first = workloads::detect_startup(series);
  }
  if (startup) *startup = first;
  std::vector<TimeNs> responses;
  responses.reserve(samples.size() - first);
  TimeNs first_measured = std::numeric_limits<TimeNs>::max(), last_completion = 0;
  std::uint64_t bytes = 0;
  for (std::size_t i = first; i < samples.size(); ++i) {
    const IoSample& sample = samples[i];
    if (sample.io < spec.io_ignore) continue;
    responses.push_back(sample.response);
    first_measured = std::min(first_measured, sample.submitted);
    last_completion = std::max(last_completion, sample.submitted + sample.response);
    bytes += sample.size;
  }
  return compute_stats(responses, spec.count * spec.processes,
                       last_completion - std::min(first_measured, last_completion), bytes);
}

struct Shape {
  std::uint32_t slots = 1;      // I/Os outstanding (processes x queue depth)
  std::uint64_t count = 4000;   // I/Os in all
  TimeNs startup_ns = 0;        // extra response time of the first 20%
  TimeNs pause_ns = 0;          // gap before some submissions (uFLIP pause)
  TimeNs huge_response_ns = 0;  // response of every 97th I/O, if set
  bool varying_sizes = false;
};

// I/Os of a closed loop of `slots` slots, in completion order.
std::vector<IoSample> closed_loop(const Shape& shape, std::uint64_t seed) {
  Rng rng(seed);
  struct Pending {
    TimeNs submitted, completion;
    std::uint64_t io;
    std::uint32_t size, slot;
  };
  std::vector<Pending> pending;
  std::vector<std::uint64_t> next_io(shape.slots, 0);
  std::uint64_t issued = 0;
  auto issue = [&](std::uint32_t slot, TimeNs now) {
    const bool early = issued < shape.count / 5;
    TimeNs submitted = now + (shape.pause_ns && rng.uniform(10) == 0 ? shape.pause_ns : 0);
    TimeNs response =
        200'000 + static_cast<TimeNs>(rng.uniform(300'000)) + (early ? shape.startup_ns : 0);
    if (shape.huge_response_ns && issued % 97 == 3) response = shape.huge_response_ns;
    const std::uint32_t size =
        shape.varying_sizes ? 512 * (1 + static_cast<std::uint32_t>(rng.uniform(64))) : 4096;
    pending.push_back({submitted, submitted + response, next_io[slot]++, size, slot});
    ++issued;
  };
  for (std::uint32_t slot = 0; slot < shape.slots && issued < shape.count; ++slot) issue(slot, 0);
  std::vector<IoSample> samples;
  while (!pending.empty()) {
    const auto first = std::min_element(
        pending.begin(), pending.end(),
        [](const Pending& a, const Pending& b) { return a.completion < b.completion; });
    const Pending done = *first;
    pending.erase(first);
    samples.push_back({done.submitted, done.completion - done.submitted, done.io, done.size});
    if (issued < shape.count) issue(done.slot, done.completion);
  }
  return samples;
}

workloads::ExperimentSpec spec_for(const Shape& shape, bool automatic, std::uint64_t ignore) {
  workloads::ExperimentSpec spec;
  spec.count = shape.count;
  spec.processes = 1;
  spec.io_ignore_auto = automatic;
  spec.io_ignore = ignore;
  return spec;
}

// Runs both and compares every field; returns the start-up length.
std::uint64_t expect_same_stats(const workloads::ExperimentSpec& spec,
                                const std::vector<IoSample>& samples) {
  std::uint64_t expected_startup = 0, startup = 0;
  const RunStats expected = summarize_run(spec, samples, &expected_startup);
  RunSamples compact(RunGroup{spec.name, 0, spec.count * spec.processes, spec.io_ignore, spec.io_ignore_auto});
  for (const IoSample& s : samples) compact.add(s.submitted, s.response, s.io, s.size);
  EXPECT_EQ(compact.completed(), samples.size());
  const RunStats got = compact.summarize(&startup);
  EXPECT_EQ(startup, expected_startup);
  EXPECT_EQ(got.count, expected.count);
  EXPECT_EQ(got.ignored, expected.ignored);
  EXPECT_EQ(got.min_ns, expected.min_ns);
  EXPECT_EQ(got.max_ns, expected.max_ns);
  EXPECT_EQ(got.p50_ns, expected.p50_ns);
  EXPECT_EQ(got.p99_ns, expected.p99_ns);
  EXPECT_EQ(got.mean_ns, expected.mean_ns);  // exact: same values, same order
  EXPECT_EQ(got.stddev_ns, expected.stddev_ns);
  EXPECT_EQ(got.iops, expected.iops);
  EXPECT_EQ(got.mb_per_s, expected.mb_per_s);
  return startup;
}

TEST(RunSamples, CutsTheSameStartUpAsSummarizeRunAtQueueDepthFour) {
  Shape shape;
  shape.slots = 4;
  shape.startup_ns = 600'000;
  const auto samples = closed_loop(shape, 1);
  // The start-up phase is found, so the tail aggregates at a cut are used.
  EXPECT_GT(expect_same_stats(spec_for(shape, true, 0), samples), 0u);
}

TEST(RunSamples, MatchesAStationaryRunWithNoCut) {
  Shape shape;
  EXPECT_EQ(expect_same_stats(spec_for(shape, true, 0), closed_loop(shape, 2)), 0u);
}

TEST(RunSamples, DropsIgnoredIosOfEachProcess) {
  Shape shape;
  shape.slots = 3;
  expect_same_stats(spec_for(shape, false, 50), closed_loop(shape, 3));
}

TEST(RunSamples, KeepsTimesThatDoNotFitInOneWord) {
  Shape shape;
  shape.slots = 2;
  shape.pause_ns = 300'000'000;             // above the 268 ms gap field
  shape.huge_response_ns = 70'000'000'000;  // above the 68 s response field
  shape.startup_ns = 900'000;
  expect_same_stats(spec_for(shape, true, 0), closed_loop(shape, 4));
  expect_same_stats(spec_for(shape, false, 7), closed_loop(shape, 4));
}

TEST(RunSamples, CountsBytesOfVaryingSizes) {
  Shape shape;
  shape.slots = 2;
  shape.varying_sizes = true;
  shape.startup_ns = 700'000;
  expect_same_stats(spec_for(shape, true, 0), closed_loop(shape, 5));
}

// Past the exact limit: the same figures, percentiles within the
// histogram's error; the limit is ignored with io_ignore = "auto".
void expect_folded_close_to_exact(const workloads::ExperimentSpec& spec,
                                  const std::vector<IoSample>& samples, std::uint64_t limit) {
  const RunGroup group{spec.name, 0, spec.count * spec.processes, spec.io_ignore,
                       spec.io_ignore_auto};
  RunSamples exact(group), folded(group, limit);
  for (const IoSample& s : samples) {
    exact.add(s.submitted, s.response, s.io, s.size);
    folded.add(s.submitted, s.response, s.io, s.size);
  }
  ASSERT_FALSE(exact.folded());
  ASSERT_TRUE(folded.folded());
  std::uint64_t startup = 1;
  const RunStats want = exact.summarize(nullptr), got = folded.summarize(&startup);
  EXPECT_EQ(startup, 0u);
  EXPECT_EQ(want.percentile_error, 0);
  EXPECT_EQ(got.percentile_error, ResponseHistogram::kRelativeError);
  EXPECT_EQ(got.count, want.count);
  EXPECT_EQ(got.ignored, want.ignored);
  EXPECT_EQ(got.min_ns, want.min_ns);
  EXPECT_EQ(got.max_ns, want.max_ns);
  EXPECT_EQ(got.mean_ns, want.mean_ns);  // same sum in the same order
  EXPECT_NEAR(got.stddev_ns, want.stddev_ns, 1e-9 * want.stddev_ns);  // one pass vs two
  EXPECT_EQ(got.iops, want.iops);
  EXPECT_EQ(got.mb_per_s, want.mb_per_s);
  ASSERT_EQ(got.histogram.buckets.size(), want.histogram.buckets.size());
  for (std::size_t b = 0; b < want.histogram.buckets.size(); ++b) {
    EXPECT_EQ(got.histogram.buckets[b].from_ns, want.histogram.buckets[b].from_ns);
    EXPECT_EQ(got.histogram.buckets[b].count, want.histogram.buckets[b].count);
  }
  auto close = [](TimeNs a, TimeNs b) {
    return std::abs(static_cast<double>(a - b)) <=
           ResponseHistogram::kRelativeError * static_cast<double>(b);
  };
  EXPECT_TRUE(close(got.p50_ns, want.p50_ns)) << got.p50_ns << " vs " << want.p50_ns;
  EXPECT_TRUE(close(got.p99_ns, want.p99_ns)) << got.p99_ns << " vs " << want.p99_ns;
  ASSERT_EQ(got.percentiles.size(), want.percentiles.size());
  for (std::size_t p = 0; p < want.percentiles.size(); ++p)
    EXPECT_TRUE(close(got.percentiles[p].ns, want.percentiles[p].ns))
        << "p" << want.percentiles[p].percent << ": " << got.percentiles[p].ns << " vs "
        << want.percentiles[p].ns;
}

TEST(RunSamples, FoldsIntoAHistogramPastTheExactLimit) {
  Shape shape;
  shape.slots = 3;
  shape.varying_sizes = true;
  const auto samples = closed_loop(shape, 6);
  expect_folded_close_to_exact(spec_for(shape, false, 0), samples, shape.count / 10);
  expect_folded_close_to_exact(spec_for(shape, false, 20), samples, 1);
  expect_folded_close_to_exact(spec_for(shape, false, 0), samples, 0);
}

TEST(RunSamples, FoldsTimesThatDoNotFitInOneWord) {
  Shape shape;
  shape.slots = 2;
  shape.pause_ns = 300'000'000;
  shape.huge_response_ns = 70'000'000'000;
  expect_folded_close_to_exact(spec_for(shape, false, 0), closed_loop(shape, 7), 1000);
}

TEST(RunSamples, KeepsEverySampleForTheStartUpCut) {
  Shape shape;
  shape.startup_ns = 600'000;
  const auto spec = spec_for(shape, true, 0);
  RunSamples samples(RunGroup{spec.name, 0, spec.count, 0, true}, 10);
  for (const IoSample& s : closed_loop(shape, 8)) samples.add(s.submitted, s.response, s.io, s.size);
  EXPECT_FALSE(samples.folded());
  std::uint64_t startup = 0;
  EXPECT_EQ(samples.summarize(&startup).percentile_error, 0);
  EXPECT_GT(startup, 0u);
}

TEST(RunSamples, SummarizesAnEmptyRun) {
  Shape shape;
  shape.count = 0;
  expect_same_stats(spec_for(shape, true, 0), {});
}

}  // namespace
}  // namespace ssdlab::sim
