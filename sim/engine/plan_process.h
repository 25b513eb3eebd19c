// A uFLIP process of a plan's experiment as an I/O source (io_source.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/checked.h"
#include "common/error.h"
#include "sim/engine/io_source.h"
#include "sim/engine/read_ahead.h"
#include "workloads/generator.h"

namespace ssdlab::sim {

// A uFLIP process of a plan's experiment: `count` I/Os of its generator.
// Open loop (interarrival_us): each I/O's time is its arrival, the sum of
// the gaps so far.
class PlanProcess final : public IoSource {
 public:
  // `origin`: the experiment's, for the error of an arrival beyond the clock.
  // `base` is added to every offset (a tenant's namespace: the generator
  // works within its size).
  // `ruh_update_every` (plan key; 0: none): after every this many writes,
  // the next carries kRuhUpdate (a Reclaim Unit Handle Update before it).
  PlanProcess(workloads::IoGenerator generator, std::uint64_t count, bool open_loop,
              std::string origin = {}, std::uint64_t base = 0, std::uint64_t ruh_update_every = 0)
      : generator_(std::move(generator)),
        count_(count),
        open_loop_(open_loop),
        origin_(std::move(origin)),
        base_(base),
        ruh_update_every_(ruh_update_every) {}
  // The generator runs two I/Os ahead of next(), so that peek() can tell
  // the device what comes (the generator depends on nothing the run does).
  std::optional<SourceIo> next() override {
    std::optional<SourceIo> io = ahead_.next([this]() -> std::optional<SourceIo> {
      if (made_ == count_) return std::nullopt;
      ++made_;
      const workloads::IoRequest io = generator_.next();
      if (!open_loop_) return SourceIo{{base_ + io.offset, io.size, io.mode}, io.delay_ns};
      const std::optional<TimeNs> arrival = clock_add(arrival_, io.delay_ns);
      if (!arrival)
        throw make_error(
            "{}: interarrival_us: the arrival of I/O {} is beyond what the simulated clock "
            "holds (2^62 ns, about 146 years)",
            origin_, made_);
      arrival_ = *arrival;
      return SourceIo{{base_ + io.offset, io.size, io.mode}, arrival_};
    });
    // (Counted as the I/Os leave, in the order they were made.)
    if (ruh_update_every_ && io) [[unlikely]]
      io->placement = ruh_update(io->mode);
    return io;
  }
  const SourceIo* peek(std::size_t ahead) const override { return ahead_.peek(ahead); }

 private:
  workloads::IoGenerator generator_;
  std::uint64_t count_;
  bool open_loop_;
  std::string origin_;
  std::uint64_t base_;
  // kRuhUpdate for a write that follows a whole ruh_update_every writes.
  [[gnu::noinline, gnu::cold]] std::uint8_t ruh_update(IoMode mode) {
    if (mode != IoMode::kWrite) return 0;
    const bool update = writes_ > 0 && writes_ % ruh_update_every_ == 0;
    ++writes_;
    return update ? kRuhUpdate : 0;
  }

  std::uint64_t ruh_update_every_;
  std::uint64_t writes_ = 0;  // writes the generator made
  std::uint64_t made_ = 0;  // I/Os the generator made
  TimeNs arrival_ = 0;
  ReadAhead<SourceIo, 2> ahead_;
};

// The processes of `spec`'s run `run` as streams of the host loop, appended
// to `processes` and `streams`: process p's generator works over `bytes` of
// logical space placed at `base`, seeded with stream_seed(seed, run, p), its
// stream in `place`'s group, submission queue and flow (the process and
// slots are its own: open loop with interarrival_us, else queue_depth),
// with the experiment's placement identifier.
inline void add_plan_streams(const workloads::ExperimentSpec& spec, std::uint32_t run,
                             std::uint64_t seed, std::uint64_t base, std::uint64_t bytes,
                             const HostStream& place,
                             std::vector<std::unique_ptr<PlanProcess>>& processes,
                             std::vector<HostStream>& streams) {
  const bool open_loop = spec.synthetic.open_loop();
  for (std::uint32_t p = 0; p < spec.processes; ++p) {
    processes.push_back(std::make_unique<PlanProcess>(
        workloads::IoGenerator(spec, p, bytes, workloads::stream_seed(seed, run, p)), spec.count,
        open_loop, spec.origin, base, spec.ruh_update_every));
    HostStream& stream = streams.emplace_back(place);
    stream.source = processes.back().get();
    stream.process = p;
    stream.slots = open_loop ? 0 : spec.queue_depth;  // 0: an open-loop stream (io_source.h)
    stream.placement = static_cast<std::uint8_t>(spec.placement_id);
  }
}

}  // namespace ssdlab::sim
