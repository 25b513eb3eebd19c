// What a FlashTimeline reports, phase by phase, to an observer (the
// --timeline recorder). A timeline without an observer pays one null-pointer
// check per phase.
#pragma once

#include <cstdint>

#include "common/units.h"
#include "flash/command.h"

namespace ssdlab::flash {

// The resource a phase holds: a channel's bus, a die (from a command's first
// phase to its last), a plane's array, or the control bus that the channels of
// an asynchronous shared-control gang share (Agrawal et al. Figure 5).
enum class Resource : std::uint8_t { kBus, kDie, kPlane, kControlBus };

// What the phase does on that resource.
enum class Phase : std::uint8_t {
  kCommandCycles,  // bus or control bus: command/address cycles
  kDataIn,         // bus: page data into the die's registers (program)
  kDataOut,        // bus: page data out of the registers (read)
  kCommand,        // die: the whole command, waits included
  kArrayRead,      // plane: array read into the page register
  kArrayProgram,   // plane: array program
  kArrayErase,     // plane: block erase
  kCopyBack,       // plane: internal read and program, no bus
  kSuspended,      // plane: a program or erase suspended for a read, to its resume
};
const char* phase_name(Phase phase);

class TimelineObserver {
 public:
  virtual ~TimelineObserver() = default;
  // `index` is the flat channel, die, plane or control bus number; [start, end) in
  // simulated nanoseconds; `command` is the command the phase belongs to.
  virtual void phase(Resource resource, std::uint32_t index, Phase phase, TimeNs start, TimeNs end,
                     const Command& command) = 0;
};

}  // namespace ssdlab::flash
