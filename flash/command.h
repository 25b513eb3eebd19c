// Flash commands: what an FTL asks of the flash, and their legality rules.
//
// An FTL returns a list of commands for each host request or cleaning step; the
// controller decides when each runs (DESIGN.md, "what and when"). Commands carry
// the logical page they read or write, which is what the out-of-band area
// stores and what the verifier checks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/huge_pages.h"
#include "flash/geometry.h"

namespace ssdlab::flash {

using Lpn = std::uint32_t;  // logical page number (in FTL logical pages)
inline constexpr Lpn kNoLpn = ~Lpn{0};

enum class Op : std::uint8_t {
  kRead,      // array read of `ppn` (and `ppn2` if two-plane), then bus transfer out
  kProgram,   // bus transfer in, then program `ppn` (and `ppn2` if two-plane)
  kErase,     // erase the block whose first page is `ppn` (and `ppn2`'s block)
  kCopyBack,  // internal copy `src` -> `ppn`, same plane, no bus transfer (but see host_data);
              // two-plane: and `src2` -> `ppn2` on the paired plane, at the same time
  kMove,      // read `src`, transfer out and in over the buses, program `ppn` (two-plane:
              // `src2` with `src` in one two-plane read, `ppn2` with `ppn` in one program)
};
const char* op_name(Op op);

struct Command {
  Op op = Op::kRead;
  // Commands of one list run in stages: a command of stage s starts only after
  // every command of a lower stage in the same list has completed.
  std::uint8_t stage = 0;
  // Cleaning work (moves and erases of a victim). Its stages form a chain of
  // their own, and a host request does not wait for it to complete; it only
  // competes for the same buses and dies.
  // (The four flags are bits of one byte: a command stays 32 bytes.)
  bool cleaning : 1 = false;
  // kCopyBack only: a read-modify-write by copy-back. Between the internal
  // read of `src` and the program of `ppn`, the host's new data for part of
  // the page comes in over the bus (one lane's page: the part a synchronous
  // gang member holds); `ppn` then holds the host's new version of `lpn`.
  // Agrawal et al. §4: "We use intra-plane copy-back to implement
  // read-modify-write for writes of less than a page in synchronous ganging."
  bool host_data : 1 = false;
  // Map units smaller than the page (ftl/page_mapped/page_mapped_units.h): this unit's
  // command rides on the page's command before it in the list. It names its
  // unit and logical page (the verifier and the power-cut recorder follow
  // it) and takes no flash time: the controller does not send it
  // (sim/controller/map_units.h). Addresses are then unit addresses.
  bool rides : 1 = false;
  // kRead only: a read the controller's ECC asked for again, a read retry or
  // a soft-sensing read (flash errors, sim/controller/read_errors.h): the
  // same page and work as the read before it; the timeline marks it.
  bool retry : 1 = false;
  Ppn ppn = kNoPage;   // the page read, programmed or erased (destination of a copy)
  Ppn ppn2 = kNoPage;  // second page of a two-plane command, or kNoPage
  Ppn src = kNoPage;   // source page of kCopyBack and kMove
  Ppn src2 = kNoPage;  // source of `ppn2` in a two-plane copy-back or move
  Lpn lpn = kNoLpn;    // logical page at `ppn` (read: expected there); a program
                       // with kNoLpn is padding: a page filled with no data
  Lpn lpn2 = kNoLpn;   // logical page at `ppn2`
  // kProgram only: bytes the data transfer moves when it is not whole pages
  // (a summary page's sector); 0: the page (or two-plane pages) with its OOB.
  std::uint16_t transfer_bytes = 0;
  // kRead: the read units (Timing::read_units_per_page()) the read moves over
  // the bus, over both pages of a two-plane read; 0: whole pages. On a
  // synchronous shared-bus gang (Gang::kSharedBusSync) a unit is a member
  // page: all members read their arrays into their registers at once, then
  // the controller moves only the members that hold data the host asked for
  // (DiskSim: ssd_gang.c:194-240 transfers the requested pages only). With
  // timing.read_transfer = "codeword" a unit is an ECC codeword. Set by the
  // controller, which knows the request's bytes (sim/controller/read_units.h).
  std::uint16_t read_units = 0;

  // kProgram only: a block's summary page (Agrawal et al. §3.4; ftl.summary_page):
  // the logical pages and write order of the block's data pages, programmed
  // when its last data page is. It holds no logical page (lpn is kNoLpn) and
  // is the program that moves `transfer_bytes` (a sector, not a page) over the bus. `cleaning` is set too when cleaning
  // moves filled the block.
  bool summary() const { return transfer_bytes != 0; }
  bool two_plane() const { return ppn2 != kNoPage; }
};
static_assert(sizeof(Command) == 32, "commands are copied into every queue: keep them small");

// The read units `command` moves over the bus when it reads out: its
// read_units, or all `per_page` units of each page it reads.
inline std::uint32_t read_units_moved(const Command& command, std::uint32_t per_page) {
  if (command.read_units) return command.read_units;
  return per_page * (command.two_plane() ? 2 : 1);
}

// A single-plane command on one page (src for copy-back and move).
inline Command page_command(Op op, Ppn ppn, Lpn lpn, std::uint8_t stage = 0, Ppn src = kNoPage) {
  Command command;
  command.op = op;
  command.stage = stage;
  command.ppn = ppn;
  command.lpn = lpn;
  command.src = src;
  return command;
}

// A reusable list of commands; FTLs append, the controller consumes and
// clears it. Reuse avoids an allocation per host request. A list can be
// long: one write's cleaning to its mark was 2.4 M commands on the TLC
// preset at a tenth (1,802 victims, 96% valid). Such storage lies in huge
// pages (common/huge_pages.h), so that growing it costs a page fault per 2 MiB,
// not per 4 KiB (the faults were a fifth of the CPU time of a steady-state run).
using CommandList = HugeVector<Command>;

// Checks one command against the geometry: addresses in range, two-plane only
// on an allowed pair of one die at the same page offset, erase on a block
// boundary, copy-back only inside one plane and only if `copy_back_allowed`.
// Returns an empty string if legal, else what is wrong.
std::string check_legal(const Geometry& geometry, const Command& command, bool copy_back_allowed);

// A cleaning chain may erase a block and then program it again in the same
// list: a victim erased, then taken as the target of later victims' moves
// when its plane has no other free block. Stages, not list order, order a
// chain (flash/scheduler.h), so such a program needs a later stage than the
// erase; at the same stage it could run before the erase, or, where die
// latches hold one-shot wordlines (die_latches.h), meet another command for
// the same page and wait for ever. Such a program moves to the stage after
// the erase's, and so does the erase of a block one of the moved programs
// reads from (each victim's erase stays after its moves); nothing else
// moves, so that no other wordline is split across stages. Lists without
// such a program are left as they are. Throws std::logic_error past stage 255.
// The scheduler applies it where die latches hold (one-shot wordlines);
// elsewhere such programs keep their stage, as they always did (a known
// approximation: docs/model.md, "A scheduler deadlock").
void stage_reprograms_after_erases(CommandList& list, std::uint32_t pages_per_block);

}  // namespace ssdlab::flash
