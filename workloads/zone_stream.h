// Zone-aware workloads for a zoned device (docs/zns.md): an SW experiment
// with `zones_open` writes zones sequentially from their start, several at
// once (round-robin), with writes at each zone's write pointer or zone
// appends (`zone_append`), resetting each zone before it writes it
// (`zone_reset`) and finishing it after a share of its capacity
// (`zone_finish_at`); an SR experiment with `zones_open` reads zones back
// the same way. Zone size and capacity are the device's unless given
// (`zone_size`, `zone_capacity`). With `zrwa` an SW experiment opens each
// zone explicitly, so that it gets a zone random write area, and writes it
// window by window (a window: the device's ZRWA), in a shuffled order
// within each; the writes of the next window commit the last one
// (implicit flushes), or with `zrwa_flush = "explicit"` an explicit flush
// follows each window; `zrwa_rewrite` writes a share of each window again
// before its commit. docs/reference/plan-keys.md lists the keys.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace ssdlab::workloads {

struct ExperimentSpec;
struct KeyValue;
struct PlanKey;  // plan_keys.h
struct IoRequest;

struct ZoneKeys {
  std::uint32_t zones_open = 0;  // 0: not a zone workload
  bool append = false;
  bool reset = true;
  double finish_at = 1.0;  // share of the capacity written before a finish
  std::uint64_t zone_size = 0, zone_capacity = 0;  // bytes; 0: the device's
  bool zrwa = false, zrwa_explicit = false;
  double zrwa_rewrite = 0;      // share of each window's writes written again before its commit
  std::uint64_t zrwa_size = 0;  // bytes: the device's (a window)
  bool on() const { return zones_open > 0; }
};

// The zone keys (zones_open, zone_append, ...), a table of plan_keys.h.
std::span<const PlanKey> zone_keys();
// Checks the zone keys against the experiment's other keys.
void check_zone_keys(const ExperimentSpec& spec);

// The I/Os of one process over the whole zones of its share of the target
// [base, base + span).
class ZoneStream {
 public:
  ZoneStream(const ExperimentSpec& spec, std::uint64_t base, std::uint64_t span);
  IoRequest next();

 private:
  enum class Step : std::uint8_t { kReset, kOpen, kData, kRewrite, kFlush, kFinish };
  struct Cursor {
    std::uint64_t zone = 0;  // index among the device's zones
    Step step = Step::kData;
    std::uint64_t done = 0;  // data I/Os of this zone so far
    std::uint64_t rewritten = 0;  // with zrwa_rewrite: rewrites of the window just written
  };
  void next_zone(Cursor& cursor);
  // The data I/O `done` of a zone starting at `start`, and what follows it.
  IoRequest data(Cursor& cursor, std::uint64_t start);
  // With zrwa: the window of a zone's data I/O `io` (its index, first I/O,
  // I/Os, and the step that shuffles them); the step after a window; its rewrites.
  struct Window {
    std::uint64_t index, first, n, step;
  };
  Window window_of(std::uint64_t io) const;
  void after_window(Cursor& cursor);
  std::uint64_t rewrites(std::uint64_t n) const;

  struct Windows {          // with zrwa
    std::uint64_t ios = 0;  // data I/Os per window (the last may have fewer)
    bool explicit_flush = false;
    double rewrite = 0;  // share of a window's I/Os written again
  };
  Windows windows_;

  bool write_, append_, reset_;
  std::uint64_t io_size_, zone_size_;
  std::uint64_t per_zone_;  // data I/Os per zone
  bool finish_;             // a finish after them (less than the capacity written)
  std::uint64_t first_zone_, zones_;  // the share's whole zones
  std::uint64_t next_ = 0;            // the next of them a cursor takes
  std::vector<Cursor> cursors_;
  std::size_t turn_ = 0;
};

}  // namespace ssdlab::workloads
