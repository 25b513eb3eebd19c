// Flash timing parameters (Agrawal et al. Table 1) and derived phase lengths.
#pragma once

#include <cstdint>

#include "common/units.h"
#include "flash/cell.h"
#include "flash/geometry.h"

namespace ssdlab::flash {

struct Timing {
  TimeNs read_ns = 25'000;                // page read, array to register
  TimeNs program_ns = 200'000;            // page program, register to array
  TimeNs erase_ns = 1'500'000;            // block erase
  std::int64_t bus_ps_per_byte = 25'000;  // serial bus: 25 ns per byte
  TimeNs command_ns = 0;                  // command/address cycles on the bus per command
  // Cache-register pipelining (cache read / cache program), a flash-part
  // capability: a die's next array operation overlaps the bus transfer of
  // the current page through a second page register (Agrawal et al. §2.2:
  // "interleaving within a die", reads at the bus rate instead of 7,657/s).
  bool cache_register = false;
  // A cell of several bits (Geometry::cell_type other than kSlc): the array
  // times by page type and in SLC mode. Unused for SLC, which takes read_ns,
  // program_ns and erase_ns.
  CellTiming cell;

  // Bus time to move `bytes`, rounded up to whole nanoseconds.
  TimeNs transfer_ns(std::uint64_t bytes) const {
    return static_cast<TimeNs>((bytes * static_cast<std::uint64_t>(bus_ps_per_byte) + 999) / 1000);
  }
  // Bus time for one page including its out-of-band area (Agrawal §4.3: the
  // latency "includes the time to transfer both the page data and the 128-byte
  // page metadata"). A synchronous gang's page crosses its members' data
  // paths in parallel, one member page each (§3.3, Figure 5).
  TimeNs page_transfer_ns(const Geometry& g) const {
    return transfer_ns((std::uint64_t{g.page_size} + g.oob_size) / g.lanes());
  }
  // Bus time for one member page of a synchronous gang (a page otherwise):
  // what a synchronous shared-bus gang moves per member it reads.
  TimeNs member_transfer_ns(const Geometry& g) const {
    return transfer_ns((std::uint64_t{g.page_size} + g.oob_size) / g.members());
  }
  // Unloaded latency of one page read / program: command cycles, array
  // operation and bus transfer. On the baseline: 25 + 105.6 = 130.6 us and
  // 105.6 + 200 = 305.6 us (Table 3 reports 130 and 309).
  TimeNs page_read_latency(const Geometry& g) const {
    return command_ns + read_ns + page_transfer_ns(g);
  }
  TimeNs page_program_latency(const Geometry& g) const {
    return command_ns + page_transfer_ns(g) + program_ns;
  }
};

}  // namespace ssdlab::flash
