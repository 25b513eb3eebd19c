// Host reads that move only part of a page over the bus: which read units
// (flash::Timing::read_units_per_page()) cross it.
//
// The array read (tR) always takes the whole page into the register; what
// the controller then moves out is its choice. On a synchronous shared-bus
// gang (flash::Gang::kSharedBusSync) every member reads its page of the gang
// page at once (one lockstep command), and the controller moves over the one
// bus only the member pages that hold bytes the host asked for, one after
// another (DiskSim, ssdmodel/ssd_gang.c:194-240: a read of part of a gang
// page transfers the requested pages only). With timing.read_transfer =
// "codeword" it moves the ECC codewords that hold them, each decoded on its
// own. The controller knows the request's bytes, so it marks the FTL's read
// commands (flash::Command::read_units); the timeline charges the transfers.
#pragma once

#include <cstdint>

#include "flash/command.h"

namespace ssdlab::sim {

// Sets read_units of each host read in `commands` (not cleaning's) to the
// units of its logical page(s) that bytes [offset, offset + size) touch.
// Logical pages are `logical_page_size` bytes, each one flash page of
// `units_per_page` units. A read whose logical page the bytes do not touch
// (a DFTL translation page) is left whole.
void select_read_units(std::uint32_t units_per_page, std::uint64_t logical_page_size,
                       std::uint64_t offset, std::uint64_t size, flash::CommandList& commands);

}  // namespace ssdlab::sim
