// The window in which every tenant ran (sim/results/contended_window.h): its
// bounds, and figures that do not depend on what a tenant did after another
// one finished (fidelity review G7).
#include "sim/results/contended_window.h"

#include <gtest/gtest.h>

#include <vector>

namespace ssdlab::sim {
namespace {

constexpr TimeNs kMs = 1'000'000;

// A closed-loop tenant: one I/O after another, each `response` long, from
// `from` until `until`.
RunResult tenant(TimeNs from, TimeNs until, TimeNs response) {
  RunResult run;
  for (TimeNs at = from; at + response <= until; at += response)
    run.io_spans.push_back({at, at + response});
  return run;
}

TEST(ContendedWindow, RunsFromTheLastStartToTheFirstEnd) {
  const std::vector<RunResult> runs = {tenant(2 * kMs, 100 * kMs, kMs),
                                       tenant(0, 300 * kMs, 2 * kMs)};
  const auto window = contended_window(runs);
  ASSERT_TRUE(window);
  EXPECT_EQ(window->from, 2 * kMs);
  EXPECT_EQ(window->to, 100 * kMs);
}

TEST(ContendedWindow, NeedsTwoTenantsThatRanAtOnce) {
  EXPECT_FALSE(contended_window(std::vector<RunResult>{tenant(0, 10 * kMs, kMs)}));
  // One after the other: never both at once.
  EXPECT_FALSE(contended_window(
      std::vector<RunResult>{tenant(0, 10 * kMs, kMs), tenant(20 * kMs, 30 * kMs, kMs)}));
  // A tenant with no reads or writes (trims only) bounds nothing.
  EXPECT_FALSE(contended_window(
      std::vector<RunResult>{tenant(0, 10 * kMs, kMs), RunResult{}}));
}

TEST(ContendedWindow, ATenantsTailAfterAnotherEndsChangesNothing) {
  // The second tenant is slow while the first runs (4 ms a request) and
  // fast once it has finished (1 ms): its figures over the window are those
  // of its contended part, whether the fast tail is there or cut off.
  const RunResult first = tenant(0, 100 * kMs, kMs);
  RunResult second = tenant(0, 100 * kMs, 4 * kMs);
  const std::size_t contended = second.io_spans.size();
  const RunResult tail = tenant(100 * kMs, 400 * kMs, kMs);
  second.io_spans.insert(second.io_spans.end(), tail.io_spans.begin(), tail.io_spans.end());

  const std::vector<RunResult> whole = {first, second};
  const auto window = contended_window(whole);
  ASSERT_TRUE(window);
  const RunStats in_window = window_stats(second.io_spans, *window);
  EXPECT_EQ(in_window.count, contended);
  EXPECT_DOUBLE_EQ(in_window.mean_ns, 4.0 * kMs);
  EXPECT_DOUBLE_EQ(in_window.iops, static_cast<double>(contended) / 0.1);

  RunResult cut = second;
  cut.io_spans.resize(contended);
  const std::vector<RunResult> without_tail = {first, cut};
  const auto same = contended_window(without_tail);
  ASSERT_TRUE(same);
  EXPECT_EQ(same->from, window->from);
  EXPECT_EQ(same->to, window->to);
  const RunStats cut_stats = window_stats(cut.io_spans, *same);
  EXPECT_EQ(cut_stats.count, in_window.count);
  EXPECT_EQ(cut_stats.mean_ns, in_window.mean_ns);
  EXPECT_EQ(cut_stats.p99_ns, in_window.p99_ns);
}

}  // namespace
}  // namespace ssdlab::sim
