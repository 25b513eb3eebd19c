#include "sim/results/run_samples.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <span>
#include <stdexcept>

#include "workloads/methodology.h"

namespace ssdlab::sim {
namespace {

constexpr int kResponseBits = 36;
constexpr std::uint64_t kResponseMask = (std::uint64_t{1} << kResponseBits) - 1;
constexpr std::uint64_t kGapLimit = std::uint64_t{1} << (64 - kResponseBits);
constexpr std::uint64_t kEscaped = ~std::uint64_t{0};  // both fields all ones

}  // namespace

RunSamples::RunSamples(const RunGroup& group, std::uint64_t exact_limit)
    : count_(group.count),
      io_ignore_(group.io_ignore),
      exact_limit_(group.io_ignore_auto ? std::numeric_limits<std::uint64_t>::max() : exact_limit),
      io_ignore_auto_(group.io_ignore_auto) {
  // The plan keys make "auto" imply io_ignore = 0; the start-up cut below
  // relies on every I/O being kept then.
  if (io_ignore_auto_ && io_ignore_ != 0)
    throw std::logic_error("io_ignore = \"auto\" with a count of I/Os to ignore");
  packed_.reserve(static_cast<std::size_t>(std::min(group.count, exact_limit_)));
}

void RunSamples::add(TimeNs submitted, TimeNs response, std::uint64_t io, std::uint32_t size,
                     Kind kind) {
  run_first_submitted_ = completed_ == 0 ? submitted : std::min(run_first_submitted_, submitted);
  run_last_completion_ = std::max(run_last_completion_, submitted + response);
  ++completed_;
  switch (kind) {
    case Kind::kServed:
      break;
    case Kind::kTrim:
      ++trims_;
      return;
    case Kind::kRefused:
      ++refused_;
      return;
    case Kind::kZoneManagement:
      ++zone_management_;
      return;
  }
  if (io < io_ignore_) return;  // never measured (io_ignore = N; 0 for "auto")
  if (!io_ignore_auto_) {
    bytes_ += size;
  } else {
    if (packed_.empty() && sizes_.empty()) size_ = size;
    if (size != size_ && sizes_.empty()) sizes_.assign(packed_.size(), size_);
    if (!sizes_.empty()) sizes_.push_back(size);
  }
  const TimeNs completion = submitted + response;
  if (!folded_ && packed_.size() >= exact_limit_) fold();
  if (folded_) {
    record(submitted, response, completion);
    last_completion_ = completion;
    return;
  }
  const TimeNs gap = completion - last_completion_;
  if (response >= 0 && static_cast<std::uint64_t>(response) < kResponseMask && gap >= 0 &&
      static_cast<std::uint64_t>(gap) < kGapLimit - 1) {
    packed_.push_back(std::bit_cast<TimeNs>(static_cast<std::uint64_t>(gap) << kResponseBits |
                                            static_cast<std::uint64_t>(response)));
  } else {
    packed_.push_back(std::bit_cast<TimeNs>(kEscaped));
    escapes_.push_back({response, completion, last_completion_});
  }
  last_completion_ = completion;
}

void RunSamples::record(TimeNs submitted, TimeNs response, TimeNs completion) {
  const std::uint64_t n = histogram_.count();
  histogram_.add(response);
  const auto r = static_cast<double>(response);
  sum_ += r;  // in completion order, as compute_stats adds them
  const double delta = r - welford_mean_;
  welford_mean_ += delta / static_cast<double>(n + 1);
  welford_m2_ += delta * (r - welford_mean_);
  min_ = n == 0 ? response : std::min(min_, response);
  max_ = n == 0 ? response : std::max(max_, response);
  first_submitted_ = n == 0 ? submitted : std::min(first_submitted_, submitted);
  last_completion_ = std::max(last_completion_, completion);
}

void RunSamples::fold() {
  // Forwards: each completion is the previous one plus its gap.
  TimeNs completion = 0;
  std::size_t escape = 0;
  const TimeNs last = last_completion_;
  last_completion_ = 0;
  for (const TimeNs packed : packed_) {
    const auto word = std::bit_cast<std::uint64_t>(packed);
    TimeNs response;
    if (word == kEscaped) {
      response = escapes_[escape].response;
      completion = escapes_[escape++].completion;
    } else {
      response = static_cast<TimeNs>(word & kResponseMask);
      completion += static_cast<TimeNs>(word >> kResponseBits);
    }
    record(completion - response, response, completion);
  }
  if (completion != last) throw std::logic_error("RunSamples: folded completions do not add up");
  std::vector<TimeNs>().swap(packed_);
  std::vector<Escape>().swap(escapes_);
  folded_ = true;
}

RunStats RunSamples::summarize_folded(std::span<const double> percentiles) const {
  const auto n = static_cast<double>(histogram_.count());
  const TimeNs span = last_completion_ - std::min(first_submitted_, last_completion_);
  return histogram_stats(histogram_, count_ ? count_ : completed_, min_, max_, sum_ / n,
                         std::sqrt(welford_m2_ / n), span, bytes_, percentiles);
}

void RunSamples::count_apart(RunStats& stats) const {
  // compute_stats counted every I/O it was not given as ignored.
  stats.ignored -= std::min(stats.ignored, apart());
  stats.trims = trims_;
  stats.refused = refused_;
  stats.zone_management = zone_management_;
  const TimeNs span = run_last_completion_ - run_first_submitted_;
  stats.trim_iops = span > 0 ? static_cast<double>(trims_) / (static_cast<double>(span) * 1e-9) : 0;
}

RunStats RunSamples::summarize(std::uint64_t* startup, std::span<const double> percentiles) {
  if (folded_) {
    if (startup) *startup = 0;
    RunStats stats = summarize_folded(percentiles);
    count_apart(stats);
    return stats;
  }
  const std::size_t n = packed_.size();
  // The start-up cut is 0 or a multiple of the detector's batch (at most half
  // the run): the tail aggregates are recorded at those positions only.
  const std::size_t batch = io_ignore_auto_ ? workloads::startup_batch(n) : n + 1;
  std::vector<Tail> tails(n / batch + 1, Tail{std::numeric_limits<TimeNs>::max(), TimeNs{0}});
  // Backwards: completions are rebuilt from the last one, each word is
  // unpacked in place into its response time, and the tail aggregates are
  // carried along.
  std::vector<TimeNs>& responses = packed_;
  Tail tail{std::numeric_limits<TimeNs>::max(), 0};
  TimeNs completion = last_completion_;
  for (std::size_t i = n; i-- > 0;) {
    const auto word = std::bit_cast<std::uint64_t>(packed_[i]);
    TimeNs response, previous;
    if (word == kEscaped) {
      const Escape& escape = escapes_.back();
      response = escape.response;
      completion = escape.completion;
      previous = escape.previous_completion;
      escapes_.pop_back();
    } else {
      response = static_cast<TimeNs>(word & kResponseMask);
      previous = completion - static_cast<TimeNs>(word >> kResponseBits);
    }
    tail.first_submitted = std::min(tail.first_submitted, completion - response);
    tail.last_completion = std::max(tail.last_completion, completion);
    if (i % batch == 0) tails[i / batch] = tail;
    responses[i] = response;
    completion = previous;
  }
  const std::size_t first = io_ignore_auto_ ? workloads::detect_startup(responses) : 0;
  if (first % batch != 0) throw std::logic_error("start-up cut off the detector's batches");
  if (startup) *startup = first;
  // Without the start-up cut every kept I/O is measured, counted as it came.
  std::uint64_t bytes = bytes_;
  if (io_ignore_auto_ && sizes_.empty()) {
    bytes = std::uint64_t{size_} * (n - first);
  } else if (io_ignore_auto_) {
    for (std::size_t i = first; i < n; ++i) bytes += sizes_[i];
  }
  const Tail measured = tails[first / batch];
  responses.erase(responses.begin(), responses.begin() + static_cast<std::ptrdiff_t>(first));
  RunStats stats = compute_stats(
      responses, count_ ? count_ : completed_,
      measured.last_completion - std::min(measured.first_submitted, measured.last_completion),
      bytes, percentiles);
  count_apart(stats);
  return stats;
}

}  // namespace ssdlab::sim
