// The streams of the run in progress, as the host loop (simulator.h) drives
// them: when each stream's next I/O arrives. A closed-loop stream has its
// slots (each completion frees one for the stream's next I/O, now or after
// the pause it asks for); an open-loop stream's I/Os arrive at their own
// times, merged over the streams in time order. Arrivals are events of the
// host loop's queue; what an arrival does is the loop's. (Internal to
// sim/engine.)
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "common/units.h"
#include "sim/engine/host_events.h"
#include "sim/engine/io_source.h"

namespace ssdlab::sim {

class HostStreams {
 public:
  explicit HostStreams(HostEventQueue& queue) : queue_(queue) {}

  // Starts `streams` in a run that starts at `start` (open-loop arrival
  // times count from it): each closed-loop stream's slots are reserved in
  // the event queue and the first is queued; each open-loop stream's first
  // I/O is read and the earliest of them queued.
  void begin(std::span<const HostStream> streams, TimeNs start);
  void clear() { streams_.clear(); }

  const HostStream& spec(std::uint32_t stream) const { return streams_[stream].spec; }
  // The io number of the stream's next fresh submission; take_io() counts it.
  std::uint64_t next_io(std::uint32_t stream) const { return streams_[stream].next_io; }
  std::uint64_t take_io(std::uint32_t stream) { return streams_[stream].next_io++; }

  // Closed loop: queues the stream's next slot, if it has one left to fill
  // and its source has not ended.
  void fill_slot(std::uint32_t stream, TimeNs now);
  // Closed loop, time function pause/burst: `io` (the stream's next, from
  // its source) arrives after its pause, io.time (and, if nothing else is
  // outstanding, the device idles until then: Simulator::idle_until_next_arrival()).
  void queue_after_pause(std::uint32_t stream, TimeNs now, SourceIo io);

  // Open loop: the stream's I/O that arrives now (a kOpen arrival).
  const SourceIo& pending(std::uint32_t stream) const { return *streams_[stream].pending; }
  // Reads the stream's next I/O (after pending() was submitted), or drops
  // it (`stop`: no more arrivals from the stream); then queues the earliest
  // arrival of all open-loop streams.
  void advance_open(std::uint32_t stream, TimeNs now, bool stop);

 private:
  struct Stream {
    HostStream spec;
    std::optional<SourceIo> pending;  // open loop: its next arrival
    std::uint64_t next_io = 0;        // io number of its next fresh submission
    // Closed loop: its slots fill one after the other at the run's start
    // (begin()), each under the sequence number it would have had if all
    // were queued at once, and only while the source has I/Os: memory and
    // time follow the I/Os, not queue_depth (issue 51, M7).
    std::uint32_t slots_to_fill = 0;
    std::uint64_t slot_sequence = 0;  // the next slot's, reserved in the event queue
  };

  // One arrival is queued at a time, the earliest of all open streams (the
  // first stream on ties), so that merging does not depend on when each
  // source was read.
  void schedule_next_arrival(TimeNs now);

  HostEventQueue& queue_;
  std::vector<Stream> streams_;
  // The run's start: when begin() queued the slots (each in its reserved
  // place); open-loop arrival times count from it.
  TimeNs start_ = 0;
};

// now + pause on the simulated clock. A plan whose pauses pass the clock's
// bound is refused before it runs (workloads::check_plan_time); this is the
// net under that check: an ssdlab::Error naming `key`, never an overflow.
TimeNs later(TimeNs now, TimeNs pause, const char* key);

}  // namespace ssdlab::sim
