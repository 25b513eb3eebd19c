// Power-safe scheduling: the controller part that power-cut runs add
// (--power-cut-at; power_cut.h). It owns the PowerCutRecorder, hands it
// every command list the FTL emits, and reserves commands on the flash
// timelines in the FTL's own order, a stage at a time, an erase no earlier
// than every program issued before it: otherwise a cut could find the block
// holding a page's old version erased while the program of its new version is
// still under way (real FTLs keep such a block until the new data is on
// flash). Slower than the flash scheduler's queued dispatch; power-cut runs
// only.
#pragma once

#include <cstdint>

#include "common/units.h"
#include "flash/command.h"
#include "flash/timeline.h"
#include "ftl/ftl.h"
#include "sim/controller/cleaning_clock.h"
#include "sim/controller/power_cut.h"
#include "sim/controller/ssd_part.h"

namespace ssdlab::sim {

class PowerSafeScheduling final : public SsdPart {
 public:
  // The NAND array a cut acts on; throws ssdlab::Error if `ftl` cannot
  // recover from a power cut.
  static flash::NandArray& recoverable_flash(ftl::Ftl& ftl);
  // Turns on the sequence numbers a mount needs (recoverable_flash() first).
  // `paired`: how a torn program harms its wordline's earlier pages
  // (PairedPages).
  PowerSafeScheduling(const flash::Geometry& geometry, std::uint32_t pages_per_lpn, ftl::Ftl& ftl,
                      flash::FlashTimeline& timeline, PairedPages paired = {});

  // Hands a command list to the recorder (power_cut.h, apply()): the ranges
  // of a host write, none otherwise. Returns the id of the list's first command.
  std::uint64_t record(ftl::PageRuns ranges, const flash::CommandList& commands,
                       Acknowledge acknowledge = Acknowledge::kWhenDone);
  // Reserves the list last recorded from `now`, stage by stage; returns when
  // its host (non-cleaning) commands complete. Its cleaning time goes to
  // `cleaning` as started by `start`.
  // With map units, `commands` are the flash's and `carriers` gives, for each
  // command of the list recorded, the one that carries it (MapUnitFlash).
  TimeNs schedule(const flash::CommandList& commands, TimeNs now, CleaningClock& cleaning,
                  CleaningStart start, const std::vector<std::uint32_t>* carriers = nullptr);
  // Reserves one flash command from `ready`; returns its end (the caller
  // tells the recorder which of its ids complete then).
  TimeNs reserve_flash(const flash::Command& command, TimeNs ready);

  // The host write last recorded completes at `done`.
  void host_write_done(TimeNs done, WriteOrigin origin) { recorder_.host_write_done(done, origin); }
  void trimmed(const ftl::PageRange& range) override { recorder_.trimmed(range); }
  // Forgets what had completed by `now` (a request arrives at `now`).
  void settle(TimeNs now) { recorder_.settle(now); }
  void before_request(TimeNs now) override { settle(now); }
  // Records every list the FTL emits, with the host's pages of a host or
  // functional write (record()).
  void emitted(const EmittedCommands& list) override;
  // After a cut: the timelines restart at `at`, with nothing in flight.
  void restart(TimeNs at) { programs_done_ = at; }
  PowerCutRecorder& recorder() { return recorder_; }

 private:
  ftl::Ftl& ftl_;
  flash::FlashTimeline& timeline_;
  PowerCutRecorder recorder_;
  TimeNs programs_done_ = 0;  // the last program's end
  std::vector<TimeNs> ends_;  // schedule(): each flash command's end
};

}  // namespace ssdlab::sim
