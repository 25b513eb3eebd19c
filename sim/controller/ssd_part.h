// The hooks the controller's core calls on each part it lists
// (SsdCore::list_parts), in one loop per hook, in the order the parts are
// listed: a part overrides the hooks it needs, and the core has no branch of
// its own for it (docs/layout.md, "The controller as parts"). The parts
// listed today: power-safe scheduling (power_safe.h), read errors
// (read_errors.h), the write buffer (write_buffer_front.h), background
// cleaning (background_cleaner.h) and the controller's limits
// (controller_limits.h); the zone stack (zone_stack.h) is listed for its
// checkpoint only.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "common/units.h"
#include "flash/command.h"
#include "ftl/ftl.h"
#include "ftl/page_runs.h"
#include "sim/controller/power_cut.h"
#include "sim/controller/ssd_observer.h"

namespace ssdlab {
class StateWriter;
class StateReader;
}  // namespace ssdlab

namespace ssdlab::sim {

// Whether work is reserved on the timelines at once (an idle period, a
// device that needs completion times at once), or left queued in the flash
// scheduler for the host loop to advance.
enum class Reserve : std::uint8_t { kQueued, kAtOnce };

// A command list the FTL just emitted, before the observers see it.
struct EmittedCommands {
  CommandSource source;
  // The host's pages it serves (a host request's, a buffer flush's runs, a
  // functional write's); none for background work.
  ftl::PageRuns ranges;
  const flash::CommandList& commands;
  // When the host is told a write is done (a write buffer's flush: at once).
  Acknowledge acknowledge;
  TimeNs now;  // the simulated time the list belongs to
};

// How a part with state of its own is kept in a checkpoint (Ssd::save_state):
// its bytes, begun by a section of `tag`, follow a line of the controller's
// list of parts that names it, says whether it is optional and how many
// bytes it holds.
struct PartCheckpoint {
  std::string_view tag;   // its first section's (common/state_io.h), four characters
  std::string_view name;  // what it is, with its keys, for errors ("a write buffer (...)")
  // Whether the device's results stand without it: a checkpoint saved with
  // the part then loads into a device without it (the part's bytes are read
  // and dropped), and one saved without it into a device with it
  // (not_in_checkpoint()). Not for a part that holds the host's data or
  // work under way: loading across it is refused, naming the part.
  bool optional;
};

class SsdPart {
 public:
  // A part with state of its own says how it is kept (a part without
  // returns nothing: the default), and saves and loads it.
  virtual std::optional<PartCheckpoint> checkpoint() const { return std::nullopt; }
  virtual void save_state(StateWriter& /*out*/) const {}
  virtual void load_state(StateReader& /*in*/) {}
  // An optional part, loaded from a checkpoint saved without it: its state
  // follows from the device's (the default: as when it was built).
  virtual void not_in_checkpoint() {}
  // Whether the part holds a copy of logical page `lpn` newer than
  // flash's (the write buffer, which read reclaim and prefill leave it to).
  virtual bool holds(ftl::Lpn /*lpn*/) const { return false; }

  // A host request arrives at `now`, before the core serves it.
  virtual void before_request(TimeNs /*now*/) {}
  // Every command list the FTL emits (host, background, functional).
  virtual void emitted(const EmittedCommands& /*list*/) {}
  // A host request's commands (a read's, a write's, a trim's) are about to
  // be scheduled.
  virtual void before_host_commands(const flash::CommandList& /*commands*/) {}
  // The request that arrived at `now` has been served: its commands are
  // reserved or queued as `reserve` says.
  virtual void after_request(TimeNs /*now*/, Reserve /*reserve*/) {}
  // The power is cut: what the part keeps in controller RAM is gone.
  virtual void power_lost() {}
  // The host trimmed `range` (its whole pages: a partly covered first or
  // last page keeps its data), whose commands the FTL just emitted.
  virtual void trimmed(const ftl::PageRange& /*range*/) {}
  // `runs` are about to be written functionally (preconditioning: no time
  // passes), past anything the part holds of them.
  virtual void written_functionally(ftl::PageRuns /*runs*/) {}
  // A Reclaim Unit Handle Update (FDP, TP4146) is about to close the
  // handle's reclaim units at `now`.
  virtual void before_handle_update(TimeNs /*now*/) {}
  // The host sends nothing from `from`: what a part holds of the host's
  // data goes to flash (a write-back buffer flushes).
  virtual void idle_begins(TimeNs /*from*/) {}
  // Then, once the flash work queued so far is reserved, the host still
  // sends nothing until `until`: the part's own idle work (background
  // cleaning, round after round).
  virtual void idle(TimeNs /*from*/, TimeNs /*until*/) {}

 protected:
  ~SsdPart() = default;
};

}  // namespace ssdlab::sim
