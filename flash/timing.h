// Flash timing parameters (Agrawal et al. Table 1) and derived phase lengths.
#pragma once

#include <cstdint>
#include <string_view>

#include "common/units.h"
#include "flash/cell.h"
#include "flash/geometry.h"

namespace ssdlab::flash {

// What a read moves from the page register over the bus (`timing.read_transfer`).
enum class ReadTransfer : std::uint8_t {
  // The whole page with its OOB, whatever the host asked for (the paper's
  // model, Agrawal et al. §4.3).
  kPage,
  // The ECC codewords that hold the bytes the host asked for, each with its
  // share of the OOB (its parity): a controller decodes codeword by codeword
  // and moves only those it needs (e.g. 4 KiB of a 16 KiB page). The array
  // read (tR) is the whole page's either way.
  kCodeword,
};
const char* read_transfer_name(ReadTransfer transfer);
// Sets `out` and returns true if `name` is a read transfer's name.
bool parse_read_transfer(std::string_view name, ReadTransfer& out);

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
  // What a host read moves over the bus (ReadTransfer), and the data bytes
  // of one ECC codeword (`timing.codeword_bytes`; it divides the page).
  ReadTransfer read_transfer = ReadTransfer::kPage;
  std::uint32_t codeword_bytes = 4096;
  // Independent plane reads (`timing.independent_plane_reads`, with plane
  // interleaving): queued reads on a die's plane pair join into one
  // multi-plane read whatever their page offsets, each plane reading its own
  // page (its own page type's tR; the joined read takes the longer), as
  // NAND with asynchronous multi-plane independent reads does (YMTC, US
  // patent 11,657,861 B2, 2023: "accessing the memory planes in parallel"
  // when "the commands are for separate memory planes"). Off: the ONFI-era
  // rule, a multi-plane read's pages at one page offset, as for programs.
  bool independent_plane_reads = false;

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
  // The units a host read moves, each alone, over the bus: a page has this
  // many (1: the read moves whole pages): the member pages of a synchronous
  // shared-bus gang, or the codewords of a page with ReadTransfer::kCodeword.
  std::uint32_t read_units_per_page(const Geometry& g) const {
    if (g.gang == Gang::kSharedBusSync) return g.members();
    if (read_transfer == ReadTransfer::kCodeword) return g.page_size / codeword_bytes;
    return 1;
  }
  // Bus time for one such unit with its share of the OOB.
  TimeNs read_unit_transfer_ns(const Geometry& g) const {
    return transfer_ns((std::uint64_t{g.page_size} + g.oob_size) / read_units_per_page(g));
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
