// Host reads on a synchronous shared-bus gang (flash::Gang::kSharedBusSync):
// which member pages cross the bus.
//
// Every member of the gang reads its page of the gang page into its register
// at once (one lockstep command), then the controller moves over the one bus
// only the member pages that hold bytes the host asked for, one after another
// (DiskSim, ssdmodel/ssd_gang.c:194-240: a read of part of a gang page
// transfers the requested pages only). The controller knows the request's
// bytes, so it marks the FTL's read commands (flash::Command::member_pages);
// the timeline charges the transfers.
#pragma once

#include <cstdint>

#include "flash/command.h"
#include "flash/geometry.h"

namespace ssdlab::sim {

// Sets member_pages of each host read in `commands` (not cleaning's) to the
// member pages of its logical page(s) that bytes [offset, offset + size)
// touch. Logical pages are `logical_page_size` bytes, each one gang page of
// `geometry` (the lockstep view: geometry.page_size, geometry.members()
// member pages of page_size / members() bytes each). A read whose logical
// page the bytes do not touch is left whole.
void select_read_members(const flash::Geometry& geometry, std::uint64_t logical_page_size,
                         std::uint64_t offset, std::uint64_t size, flash::CommandList& commands);

}  // namespace ssdlab::sim
