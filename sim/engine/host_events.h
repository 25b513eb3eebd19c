// The host loop's events (sim/engine/simulator.h): an I/O that arrives, and an
// I/O the device holds, at each stage of its way; and the table of the
// requests queued in the flash scheduler, by the tag under which each comes
// back. (Internal to sim/engine.)
#pragma once

#include <cstdint>
#include <variant>
#include <vector>

#include "common/units.h"
#include "sim/controller/host_queue.h"
#include "sim/engine/event_queue.h"
#include "sim/engine/host_path.h"
#include "sim/engine/io_source.h"

namespace ssdlab::sim {

// The io number of a fresh submission (Arrival::retry): none yet.
inline constexpr std::uint64_t kFresh = ~std::uint64_t{0};

struct Arrival {
  enum class Kind : std::uint8_t {
    kSlot,   // closed loop: a slot is free for the stream's next I/O
    kOpen,   // open loop: the stream's pending I/O arrives
    kGiven,  // `io` arrives: after its pause, or resubmitted after a cut
  };
  std::uint32_t stream;
  Kind kind = Kind::kSlot;
  SourceIo io{};
  std::uint64_t retry = kFresh;  // io number of an I/O a power cut interrupted
};

// An I/O the device holds: an event at each stage of its way (HostPath).
// (40 bytes, as an Arrival's 48: the event is no larger for it.)
struct Completion {
  using Stage = HostPath::Stage;
  std::uint32_t stream;
  Stage stage = Stage::kDevice;
  bool resubmitted : 1 = false;
  bool refused : 1 = false;      // a zoned device refused it (counted apart: RunSamples::Kind)
  bool media_error : 1 = false;  // a read with a page no ECC step corrected ([errors])
  std::uint8_t read_class = 0;   // a read's page class (SsdCore::read_page_class)
  std::uint64_t io;
  TimeNs submitted;
  // The request itself: on its way to Ssd::start, as the host sent it;
  // once served, its offset is where the device served it (an append's,
  // the device's choice). A power cut resubmits it as it is.
  HostIo request;

  // `r`'s event at `stage` (its response time counts from its arrival).
  static Completion of(const QueuedRequest& r, Stage stage) {
    return Completion{.stream = r.stream,
                      .stage = stage,
                      .resubmitted = r.resubmitted,
                      .io = r.io,
                      .submitted = r.arrived,
                      .request = r.request};
  }
};

using HostEvent = std::variant<Arrival, Completion>;
using HostEventQueue = EventQueue<HostEvent>;

// The requests queued in the flash scheduler (Ssd::start()), by tag: a
// completion the scheduler reports names its request by the tag it was
// started under. Tags are reused, the last freed first.
class InFlight {
 public:
  // The tag the next request held gets.
  std::uint32_t next_tag() const {
    return free_.empty() ? static_cast<std::uint32_t>(held_.size()) : free_.back();
  }
  // Holds `completion` under next_tag().
  void hold(const Completion& completion) {
    if (free_.empty()) {
      held_.push_back(completion);
    } else {
      held_[free_.back()] = completion;
      free_.pop_back();
    }
  }
  // The request held under `tag`; the tag is free again (the reference
  // holds until the next hold()).
  const Completion& release(std::uint32_t tag) {
    free_.push_back(tag);
    return held_[tag];
  }
  void clear() {
    held_.clear();
    free_.clear();
  }

 private:
  std::vector<Completion> held_;
  std::vector<std::uint32_t> free_;
};

}  // namespace ssdlab::sim
