// The real-device I/O loop (workloads/device_runner.h) against a fake target
// and a fake clock: what probe sends to a device, without a device.
#include "workloads/device_runner.h"

#include <gtest/gtest.h>
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "common/error.h"
#include "workloads/generator.h"
#include "workloads/plan.h"

namespace ssdlab::workloads {
namespace {

struct Call {
  std::uint64_t offset;
  std::uint32_t size;
  IoMode mode;
};

// Records every call; fails the `fail_at`-th one (0-based) if asked.
class FakeTarget final : public IoTarget {
 public:
  explicit FakeTarget(std::uint64_t bytes, std::int64_t fail_at = -1)
      : bytes_(bytes), fail_at_(fail_at) {}
  std::uint64_t bytes() const override { return bytes_; }
  void read(std::uint64_t offset, void*, std::uint32_t size) const override {
    record({offset, size, IoMode::kRead});
  }
  void write(std::uint64_t offset, const void*, std::uint32_t size) const override {
    record({offset, size, IoMode::kWrite});
  }
  void trim(std::uint64_t offset, std::uint32_t size) const override {
    record({offset, size, IoMode::kTrim});
  }
  std::vector<Call> calls() const {
    std::lock_guard lock(mutex_);
    return calls_;
  }

 private:
  void record(const Call& call) const {
    std::lock_guard lock(mutex_);
    if (static_cast<std::int64_t>(calls_.size()) == fail_at_)
      throw make_error("fake: I/O error at {}", call.offset);
    calls_.push_back(call);
  }
  std::uint64_t bytes_;
  std::int64_t fail_at_;
  mutable std::mutex mutex_;
  mutable std::vector<Call> calls_;
};

// Each reading of the clock advances it by `step`; sleeping advances it by
// the sleep and records it.
class FakeClock final : public IoClock {
 public:
  explicit FakeClock(TimeNs step) : step_(step) {}
  TimeNs now() const override { return ticks_ += step_; }
  void sleep(TimeNs duration) const override {
    ticks_ += duration;
    std::lock_guard lock(mutex_);
    sleeps_.push_back(duration);
  }
  std::vector<TimeNs> sleeps() const {
    std::lock_guard lock(mutex_);
    return sleeps_;
  }

 private:
  TimeNs step_;
  mutable std::atomic<TimeNs> ticks_{0};
  mutable std::mutex mutex_;
  mutable std::vector<TimeNs> sleeps_;
};

ExperimentSpec spec_of(const std::string& text) {
  return parse_inline(text).experiments.front();
}

constexpr std::uint64_t kBytes = 64 << 20;

TEST(DeviceRunner, SendsTheGeneratorsIosInOrderWithTheirModes) {
  const ExperimentSpec spec = spec_of("RW:io_size=8192,count=200,trim_share=0.2");
  FakeTarget target(kBytes);
  const FakeClock clock(1000);
  const auto done = run_on_target(target, clock, spec, 0, 7);
  IoGenerator expected(spec, 0, kBytes, stream_seed(7, 0, 0));
  const auto calls = target.calls();
  ASSERT_EQ(calls.size(), 200u);
  ASSERT_EQ(done.size(), 200u);
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const IoRequest io = expected.next();
    EXPECT_EQ(calls[i].offset, io.offset) << i;
    EXPECT_EQ(calls[i].size, io.size) << i;
    EXPECT_EQ(calls[i].mode, io.mode) << i;
    EXPECT_EQ(done[i].io, i);
    EXPECT_EQ(done[i].mode, io.mode);
  }
  EXPECT_TRUE(std::any_of(calls.begin(), calls.end(),
                          [](const Call& c) { return c.mode == IoMode::kTrim; }));
}

TEST(DeviceRunner, TimesEachIoByTheClock) {
  // One slot: the clock is read once at the start, then before and after
  // each I/O, so each response is one step and I/O i is submitted at
  // (2i + 1) steps.
  FakeTarget target(kBytes);
  const FakeClock clock(1000);
  const auto done = run_on_target(target, clock, spec_of("SR:count=10"), 0, 1);
  ASSERT_EQ(done.size(), 10u);
  for (std::size_t i = 0; i < done.size(); ++i) {
    EXPECT_EQ(done[i].response, 1000);
    EXPECT_EQ(done[i].submitted, static_cast<TimeNs>(2 * i + 1) * 1000);
  }
}

TEST(DeviceRunner, SleepsThePausesOfTheTimeFunction) {
  FakeTarget target(kBytes);
  const FakeClock clock(1);
  run_on_target(target, clock, spec_of("SW:count=5,pause_us=250"), 0, 1);
  EXPECT_EQ(clock.sleeps(), std::vector<TimeNs>(4, 250'000));  // before every I/O but the first
}

TEST(DeviceRunner, NumbersEachProcesssIosAndOrdersCompletions) {
  FakeTarget target(kBytes);
  const FakeClock clock(10);
  const auto done = run_on_target(target, clock, spec_of("RR:count=50,processes=3,queue_depth=2"),
                                  0, 1);
  ASSERT_EQ(done.size(), 150u);
  std::map<std::uint32_t, std::vector<std::uint64_t>> numbers;
  for (const auto& io : done) numbers[io.process].push_back(io.io);
  ASSERT_EQ(numbers.size(), 3u);
  for (auto& [process, ios] : numbers) {
    std::sort(ios.begin(), ios.end());
    for (std::uint64_t i = 0; i < ios.size(); ++i) EXPECT_EQ(ios[i], i) << process;
  }
  EXPECT_TRUE(std::is_sorted(done.begin(), done.end(), [](const auto& a, const auto& b) {
    return a.submitted + a.response < b.submitted + b.response;
  }));
}

TEST(DeviceRunner, AnErrorOfTheTargetStopsTheRunAndIsRethrown) {
  FakeTarget target(kBytes, 20);
  const FakeClock clock(1);
  EXPECT_THROW(run_on_target(target, clock, spec_of("RW:count=1000,queue_depth=4"), 0, 1), Error);
  EXPECT_LT(target.calls().size(), 1000u);
}

TEST(DeviceRunner, MoreThreadsThanCanBeMadeAreRefusedBeforeAnyIo) {
  FakeTarget target(kBytes);
  const FakeClock clock(1);
  EXPECT_NO_THROW(check_target_threads(spec_of("RR:processes=16,queue_depth=64")));
  try {
    run_on_target(target, clock, spec_of("RR:count=1,processes=4096,queue_depth=65536"), 0, 1);
    ADD_FAILURE() << "no error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what())
                  .find("processes x queue_depth = 4096 x 65536 = 268435456 threads"),
              std::string::npos)
        << error.what();
  }
  EXPECT_TRUE(target.calls().empty());
  EXPECT_LE(max_target_threads(), kMaxTargetThreads);
}

TEST(DeviceRunner, AThreadThatCannotStartIsAnErrorSayingThreadsRanOut) {
  // Threads get a default stack no machine can map, so the first one fails
  // to start (EAGAIN), as when the process is out of threads or memory.
  pthread_attr_t saved, huge;
  ASSERT_EQ(pthread_getattr_default_np(&saved), 0);
  ASSERT_EQ(pthread_attr_init(&huge), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&huge, std::size_t{1} << 46), 0);  // 64 TiB
  ASSERT_EQ(pthread_setattr_default_np(&huge), 0);
  FakeTarget target(kBytes);
  const FakeClock clock(1);
  std::string message = "no error";
  try {
    run_on_target(target, clock, spec_of("RR:count=10,processes=2,queue_depth=2"), 0, 1);
  } catch (const Error& error) {
    message = error.what();
  }
  pthread_setattr_default_np(&saved);
  pthread_attr_destroy(&huge);
  pthread_attr_destroy(&saved);
  EXPECT_NE(message.find("threads ran out: could not start thread 1 of 4"), std::string::npos)
      << message;
}

}  // namespace
}  // namespace ssdlab::workloads
