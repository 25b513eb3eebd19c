// The completed I/Os of one run (simulated or probed), kept compactly until the run ends
// and its statistics are computed (the start-up cut of io_ignore = "auto" is
// only known then).
//
// The simulator and probe both summarise their runs through it. The test
// (run_samples_test.cpp) checks it field for field, bit for bit, against a
// plain computation over all the I/Os.
//
// Memory: 8 bytes per completed I/O, also at the peak while summarize()
// runs, up to `exact_limit` I/Os (kDefaultExactSamples: 256 MiB); I/Os that
// io_ignore = N excludes are not kept at all. Past the limit the samples are
// folded into a ResponseHistogram (response_histogram.h: at most 115 KiB)
// and every later I/O goes there: percentiles within 0.2% instead of exact
// (RunStats::percentile_error says which); count, min, max, mean, the
// histogram, IOPS and MB/s stay exact, stddev is computed in one pass
// (Welford). Runs with io_ignore = "auto" keep every sample whatever the
// limit: the start-up cut is found on the whole series after the run. Each I/O is its
// response time (36 bits of ns) and the time since the previous completion
// (28 bits of ns) in one word. Rare I/Os that do not fit (a response above
// 68 s, a gap between completions above 268 ms, as in uFLIP's pause
// experiments) take 24 more bytes; with io_ignore = "auto", a run whose I/O
// sizes vary takes 4 more bytes per I/O (plans use one size; traces, whose
// sizes vary, have no start-up cut and keep a running byte count instead).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/io_mode.h"
#include "common/units.h"
#include "sim/results/output.h"
#include "sim/results/response_histogram.h"
#include "sim/results/run_result.h"

namespace ssdlab::sim {

class RunSamples {
 public:
  explicit RunSamples(const RunGroup& group, std::uint64_t exact_limit = kDefaultExactSamples);

  // What a completed I/O counts as. Only served reads and writes (zone
  // appends included) are in the response times, IOPS and MB/s; the others
  // are counted apart (RunStats::trims, refused, zone_management), whatever
  // io_ignore says, and take no memory per I/O.
  enum class Kind : std::uint8_t { kServed, kTrim, kRefused, kZoneManagement };
  static constexpr Kind kind_of(IoMode mode, bool refused) {
    if (refused) return Kind::kRefused;
    if (mode == IoMode::kTrim) return Kind::kTrim;
    return is_zone_action(mode) ? Kind::kZoneManagement : Kind::kServed;
  }

  // One more completed I/O: `io` its index within its process, `submitted`
  // from the run's start. Completions come in time order.
  void add(TimeNs submitted, TimeNs response, std::uint64_t io, std::uint32_t size,
           Kind kind = Kind::kServed);
  // I/Os completed so far, of every kind, those io_ignore excludes included.
  std::uint64_t completed() const { return completed_; }
  // Of those, the I/Os counted apart (not kServed).
  std::uint64_t apart() const { return trims_ + refused_ + zone_management_; }
  // Whether the samples went into the histogram (past the exact limit).
  bool folded() const { return folded_; }

  // The run's statistics (the test's summarize_run gives the plain
  // definition); *startup receives the start-up length. Consumes the
  // samples: call once.
  RunStats summarize(std::uint64_t* startup,
                     std::span<const double> percentiles = kDefaultPercentiles);

 private:
  struct Escape {  // an I/O whose times do not fit in one word
    TimeNs response, completion, previous_completion;
  };
  // Aggregates of the I/Os from a candidate start-up cut to the end.
  struct Tail {
    TimeNs first_submitted, last_completion;
  };

  // Past the limit: the samples so far into the histogram, packed_ freed.
  void fold();
  void record(TimeNs submitted, TimeNs response, TimeNs completion);
  RunStats summarize_folded(std::span<const double> percentiles) const;

  std::uint64_t count_, io_ignore_, exact_limit_;
  bool io_ignore_auto_;
  bool folded_ = false;
  // Once folded: the histogram and the exact aggregates of the kept I/Os.
  ResponseHistogram histogram_;
  TimeNs min_ = 0, max_ = 0, first_submitted_ = 0;
  double sum_ = 0, welford_mean_ = 0, welford_m2_ = 0;
  // One word per kept I/O (bit patterns of the fields above), unpacked into
  // plain response times in place by summarize().
  std::vector<TimeNs> packed_;
  std::vector<Escape> escapes_;
  std::vector<std::uint32_t> sizes_;  // only with io_ignore_auto_, once sizes differ
  std::uint32_t size_ = 0;            // the size of every kept I/O, while they agree
  std::uint64_t bytes_ = 0;           // of the kept I/Os, without io_ignore_auto_
  TimeNs last_completion_ = 0;
  std::uint64_t completed_ = 0;
  // The I/Os counted apart, and the span of every I/O (for trim_iops).
  std::uint64_t trims_ = 0, refused_ = 0, zone_management_ = 0;
  TimeNs run_first_submitted_ = 0, run_last_completion_ = 0;
  // Sets the figures of the I/Os counted apart into `stats` (summarize()).
  void count_apart(RunStats& stats) const;
};

}  // namespace ssdlab::sim
