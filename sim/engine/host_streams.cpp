#include "sim/engine/host_streams.h"

#include <algorithm>

#include "common/checked.h"
#include "common/error.h"

namespace ssdlab::sim {

TimeNs later(TimeNs now, TimeNs pause, const char* key) {
  const std::optional<TimeNs> end = clock_add(now, pause);
  if (!end)
    throw make_error(
        "{}: a pause of {} us at {} us is beyond what the simulated clock holds (2^62 ns, "
        "about 146 years)",
        key, format_us(pause), format_us(now));
  return *end;
}

void HostStreams::begin(std::span<const HostStream> streams, TimeNs start) {
  streams_.clear();
  for (const HostStream& spec : streams) streams_.push_back(Stream{spec, std::nullopt, 0});
  start_ = start;
  bool open = false;
  for (std::uint32_t s = 0; s < streams_.size(); ++s) {
    Stream& stream = streams_[s];
    if (stream.spec.slots == 0) {
      open = true;
      stream.pending = stream.spec.source->next();
    }
    // Its slots, as if each were queued now; only the first is (fill_slot).
    stream.slots_to_fill = stream.spec.slots;
    stream.slot_sequence = queue_.reserve(stream.spec.slots);
    fill_slot(s, start);
  }
  if (open) schedule_next_arrival(start);
}

void HostStreams::fill_slot(std::uint32_t index, TimeNs now) {
  Stream& stream = streams_[index];
  if (stream.slots_to_fill == 0) return;
  --stream.slots_to_fill;
  const Arrival slot{index, Arrival::Kind::kSlot};
  // At the start, in its reserved place; after a power cut moved the slots
  // (Simulator::cut_power), now.
  if (now == start_)
    queue_.push_reserved(now, stream.slot_sequence++, slot);
  else
    queue_.push(now, slot);
}

void HostStreams::queue_after_pause(std::uint32_t index, TimeNs now, SourceIo io) {
  const TimeNs at = later(now, io.time, "pause_us");
  io.time = 0;
  queue_.push(at, Arrival{index, Arrival::Kind::kGiven, io});
}

void HostStreams::advance_open(std::uint32_t index, TimeNs now, bool stop) {
  Stream& stream = streams_[index];
  if (stop)
    stream.pending.reset();
  else
    stream.pending = stream.spec.source->next();
  schedule_next_arrival(now);
}

void HostStreams::schedule_next_arrival(TimeNs now) {
  const Stream* earliest = nullptr;
  std::uint32_t index = 0;
  for (std::uint32_t i = 0; i < streams_.size(); ++i) {
    const Stream& s = streams_[i];
    if (s.pending && (!earliest || s.pending->time < earliest->pending->time)) {
      earliest = &s;
      index = i;
    }
  }
  if (earliest)
    queue_.push(std::max(now, start_ + earliest->pending->time),
                Arrival{index, Arrival::Kind::kOpen});
}

}  // namespace ssdlab::sim
