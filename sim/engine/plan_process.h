// A uFLIP process of a plan's experiment as an I/O source (io_source.h).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <utility>

#include "sim/engine/io_source.h"
#include "workloads/generator.h"

namespace ssdlab::sim {

// A uFLIP process of a plan's experiment: `count` I/Os of its generator.
// Open loop (interarrival_us): each I/O's time is its arrival, the sum of
// the gaps so far.
class PlanProcess final : public IoSource {
 public:
  PlanProcess(workloads::IoGenerator generator, std::uint64_t count, bool open_loop)
      : generator_(std::move(generator)), count_(count), open_loop_(open_loop) {}
  // The generator runs kAhead I/Os ahead of next(), so that peek() can tell
  // the device what comes (the generator depends on nothing the run does).
  std::optional<SourceIo> next() override {
    for (; made_ < count_ && made_ <= issued_ + kAhead; ++made_) ahead_[made_ % kRing] = make();
    if (issued_ >= count_) return std::nullopt;
    return ahead_[issued_++ % kRing];
  }
  const SourceIo* peek(std::size_t ahead) const override {
    return issued_ + ahead < made_ ? &ahead_[(issued_ + ahead) % kRing] : nullptr;
  }

 private:
  static constexpr std::uint64_t kAhead = 2, kRing = kAhead + 1;
  SourceIo make() {
    const workloads::IoRequest io = generator_.next();
    if (!open_loop_) return SourceIo{io.offset, io.size, io.mode, io.delay_ns};
    arrival_ += io.delay_ns;
    return SourceIo{io.offset, io.size, io.mode, arrival_};
  }

  workloads::IoGenerator generator_;
  std::uint64_t count_;
  bool open_loop_;
  std::uint64_t issued_ = 0;  // I/Os next() returned
  std::uint64_t made_ = 0;    // I/Os the generator made
  TimeNs arrival_ = 0;
  std::array<SourceIo, kRing> ahead_{};
};

}  // namespace ssdlab::sim
